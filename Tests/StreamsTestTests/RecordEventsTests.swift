import XCTest
import Streams
import StreamsTest

/// `TestScheduler.recordEvents(subscribed:disposed:_:)`: schedules a recorded subscription
/// without running the clock.
final class RecordEventsTests: XCTestCase {
    struct TestError: Error, Equatable {}

    func testRecordEvents_recordsValuesAndTerminationFromSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(250, 3), .completed(300)])
        let res = scheduler.recordEvents(subscribed: 200) { xs }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(210, 2), .next(250, 3), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testRecordEvents_recordsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
        let res = scheduler.recordEvents(subscribed: 200) { xs }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError())])
    }

    func testRecordEvents_disposeMidStreamStopsRecordingAndUnsubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .next(290, 3), .next(330, 4)])
        let res = scheduler.recordEvents(subscribed: 240, disposed: 320) { xs }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(250, 2), .next(290, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(240, 320)])
    }

    /// The documented example: a hot input, subscribed at 240, disposed at 320.
    func testRecordEvents_docCommentExample() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let input = try scheduler.createHotObservable("---1---2---3---4--")
        let events = scheduler.recordEvents(subscribed: 240, disposed: 320) { input.map { $0 } }
        scheduler.start()
        XCTAssertEqual(events.events, [.next(270, "2"), .next(310, "3")])
    }

    func testRecordEvents_withoutDisposeRecordsUntilTheEndOfTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(5_000, 2)])
        let res = scheduler.recordEvents(subscribed: 200) { xs }
        scheduler.start()
        XCTAssertEqual(res.events, [.next(210, 1), .next(5_000, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200)])
    }

    /// `make` runs at `subscribed`, not when the recording is scheduled.
    func testRecordEvents_makeIsCalledAtSubscriptionTime() {
        let scheduler = TestScheduler(initialClock: 0)
        var madeAt: [TestTime] = []
        let res = scheduler.recordEvents(subscribed: 300) { () -> Observable<Int> in
            madeAt.append(scheduler.clock)
            return .just(1)
        }
        XCTAssertEqual(madeAt, [])
        scheduler.start()
        XCTAssertEqual(madeAt, [300])
        XCTAssertEqual(res.events, [.next(300, 1), .completed(300)])
    }

    /// Nothing but the scheduler holds the subscription, and it keeps recording: the inline
    /// call's result is read only after the clock has run.
    func testRecordEvents_inlineUseWithoutLocalReferenceKeepsRecording() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        let observers = [200, 210].map { time in scheduler.recordEvents(subscribed: time) { subject.map { $0 * 10 } } }
        scheduler.scheduleAt(220) { subject.onNext(1) }
        scheduler.scheduleAt(400) { subject.onNext(2) }
        scheduler.start()
        XCTAssertEqual(observers.map(\.events), [[.next(220, 10), .next(400, 20)], [.next(220, 10), .next(400, 20)]])
    }

    /// Several recordings share one run of the clock.
    func testRecordEvents_severalRecordingsRunTogether() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(310, 3)])
        let early = scheduler.recordEvents(subscribed: 200, disposed: 300) { xs }
        let late = scheduler.recordEvents(subscribed: 250) { xs }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .next(260, 2)])
        XCTAssertEqual(late.events, [.next(260, 2), .next(310, 3)])
    }

    func testRecordEvents_disposedAndCompletedSubscriptionsLeaveNothingAlive() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let disposed = scheduler.recordEvents(subscribed: 200, disposed: 300) { subject.map { $0 + 1 } }
            let completed = scheduler.recordEvents(subscribed: 200) { subject.filter { $0 > 0 } }
            scheduler.scheduleAt(250) { subject.onNext(1) }
            scheduler.scheduleAt(350) { subject.onCompleted() }
            scheduler.start()
            XCTAssertEqual(disposed.events, [.next(250, 2)])
            XCTAssertEqual(completed.events, [.next(250, 1), .completed(350)])
        }
    }
}

import XCTest
import Streams
import StreamsTest

final class TestSchedulerTests: XCTestCase {
    struct TestError: Error {}

    func testScheduleAt_sameTimeRunsInSchedulingOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        var order: [Int] = []
        scheduler.scheduleAt(10) { order.append(1) }
        scheduler.scheduleAt(5) { order.append(0) }
        scheduler.scheduleAt(10) { order.append(2) }
        scheduler.start()
        XCTAssertEqual(order, [0, 1, 2])
        XCTAssertEqual(scheduler.clock, 10)
    }

    /// `scheduleAt` places work at a virtual time without the processing delay (as RxTest): a
    /// time in the past, or now, runs next at the current clock.
    func testScheduleAt_pastTimeRunsNowWithoutProcessingDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [TestTime] = []
        scheduler.scheduleAt(50) {
            scheduler.scheduleAt(10) { times.append(scheduler.clock) }
            scheduler.scheduleAt(50) { times.append(scheduler.clock) }
            _ = scheduler.schedule(()) { _ in
                times.append(scheduler.clock)
                return Disposables.create()
            }
        }
        scheduler.start()
        XCTAssertEqual(times, [50, 50, 51])
    }

    /// `start(created: 0, subscribed: 0, disposed:)` subscribes at 0, not 1.
    func testStart_atTimeZeroSubscribesAtZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(0, 1), .next(5, 2)])
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 10) { xs }
        XCTAssertEqual(res.events, [.next(0, 1), .next(5, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 10)])
    }

    func testScheduleAt_withoutProcessingDelayRunsNow() {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        var times: [TestTime] = []
        scheduler.scheduleAt(50) {
            scheduler.scheduleAt(10) { times.append(scheduler.clock) }
        }
        scheduler.start()
        XCTAssertEqual(times, [50])
    }

    func testScheduleAt_disposedActionDoesNotRun() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran = false
        let work = scheduler.scheduleAt(10) { ran = true }
        XCTAssertEqual(scheduler.pendingCount, 1)
        work.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.start()
        XCTAssertFalse(ran)
    }

    func testStart_defaultTimes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            var createdAt: TestTime?
            let res = scheduler.start { () -> Observable<Int> in
                createdAt = scheduler.clock
                return Observable.just(1)
            }
            XCTAssertEqual(createdAt, 100)
            XCTAssertEqual(res.events, [.next(200, 1), .completed(200)])
        }
    }

    func testStart_customTimes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(15, 1), .next(25, 2), .next(35, 3)])
            let res = scheduler.start(created: 10, subscribed: 20, disposed: 30) { xs.map { $0 } }
            XCTAssertEqual(res.events, [.next(25, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(20, 30)])
        }
    }

    func testStart_disposedOnly() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.map { $0 * 2 } }
            XCTAssertEqual(res.events, [.next(210, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testStart_acceptsAnyObservableConvertible() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            // A TestableObservable itself (not an Observable) as the sequence under test.
            let res = scheduler.start { xs }
            XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
            // `asObservable()` wraps xs in a sink, which disposes it on completion (as in RxSwift).
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testStart_subjectAsSequence() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<String>()
            scheduler.scheduleAt(150) { subject.onNext("early") }
            scheduler.scheduleAt(250) { subject.onNext("a") }
            scheduler.scheduleAt(300) { subject.onCompleted() }
            let res = scheduler.start { subject }
            XCTAssertEqual(res.events, [.next(250, "a"), .completed(300)])
        }
    }

    func testCreateObserver_recordsWithClock() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(5) { observer.onNext(1) }
        scheduler.scheduleAt(7) { observer.onError(TestError()) }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(5, 1), .error(7, TestError())])
    }

    func testAdvanceTo_runsDueWorkAndSetsClock() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran: [Int] = []
        scheduler.scheduleAt(10) { ran.append(10) }
        scheduler.scheduleAt(20) { ran.append(20) }
        scheduler.advanceTo(15)
        XCTAssertEqual(ran, [10])
        XCTAssertEqual(scheduler.clock, 15)
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advanceTo(20)
        XCTAssertEqual(ran, [10, 20])
        XCTAssertEqual(scheduler.clock, 20)
        XCTAssertNoPendingWork(scheduler)
    }

    func testStop_haltsStartAfterCurrentItem() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran: [Int] = []
        scheduler.scheduleAt(10) {
            ran.append(10); scheduler.stop()
        }
        scheduler.scheduleAt(20) { ran.append(20) }
        scheduler.start()
        XCTAssertEqual(ran, [10])
        XCTAssertEqual(scheduler.clock, 10)
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.start()
        XCTAssertEqual(ran, [10, 20])
    }

    func testResolution_convertsIntervalsToTicks() {
        let scheduler = TestScheduler(initialClock: 0)
        let fine = TestScheduler(initialClock: 0, resolution: 0.1)
        var times: [TestTime] = []
        _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
            times.append(scheduler.clock); return Disposables.create()
        }
        _ = fine.scheduleRelative((), dueTime: .seconds(1)) { _ in
            times.append(fine.clock); return Disposables.create()
        }
        scheduler.start()
        fine.start()
        XCTAssertEqual(times, [5, 10])
        XCTAssertEqual(fine.now, Date(timeIntervalSince1970: 1.0))
    }

    func testJustOnScheduler_showsProcessingDelay() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.just(42, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 42), .completed(202)])
        }
    }
}

final class TestableObservableTests: XCTestCase {
    struct TestError: Error {}

    func testHotObservable_eventsBeforeSubscriptionAreMissed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(200, 2), .next(210, 3), .completed(300)])
            let res = scheduler.start { xs.map { $0 } }
            // 150 is before the subscription; 200 was scheduled before the subscription at 200.
            XCTAssertEqual(res.events, [.next(210, 3), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(xs.recordedEvents, [.next(150, 1), .next(200, 2), .next(210, 3), .completed(300)])
        }
    }

    func testHotObservable_subscribersShareOneTimeline() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(205) { subscriptions.append(xs.subscribe(first)) }
            scheduler.scheduleAt(215) { subscriptions.append(xs.subscribe(second)) }
            scheduler.scheduleAt(225) { subscriptions[0].dispose() }
            scheduler.scheduleAt(250) { subscriptions[1].dispose() }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2)])
            XCTAssertEqual(second.events, [.next(220, 2), .next(230, 3), .completed(240)])
            XCTAssertEqual(xs.subscriptions, [Subscription(205, 225), Subscription(215, 250)])
        }
    }

    func testHotObservable_pastEventsPlayAtCreationTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        var keep: (TestableObservable<Int>, Disposable)?
        scheduler.scheduleAt(100) {
            let xs = scheduler.createHotObservable([.next(50, 1), .next(100, 2), .next(150, 3)])
            keep = (xs, xs.subscribe(observer))
        }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(100, 1), .next(100, 2), .next(150, 3)])
        XCTAssertEqual(keep?.0.subscriptions, [Subscription(100)])
    }

    func testHotObservable_disposeTwiceRecordsOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        var subscription: Disposable?
        scheduler.scheduleAt(10) { subscription = xs.subscribe(scheduler.createObserver(Int.self)) }
        scheduler.scheduleAt(20) { subscription?.dispose() }
        scheduler.scheduleAt(30) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(xs.subscriptions, [Subscription(10, 20)])
    }

    func testColdObservable_timesAreRelativeToEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(xs.subscribe(first)) }
        scheduler.scheduleAt(205) { subscriptions.append(xs.subscribe(second)) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(second.events, [.next(215, 1), .next(225, 2), .completed(235)])
        // Never disposed: unsubscribe is Subscription.infinity.
        XCTAssertEqual(xs.subscriptions, [Subscription(200), Subscription(205)])
        XCTAssertEqual(xs.subscriptions[0].unsubscribe, Subscription.infinity)
    }

    func testColdObservable_eventAtZeroArrivesAtSubscriptionTime() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(0, 1), .completed(0)])
            let res = scheduler.start { xs.map { $0 } }
            XCTAssertEqual(res.events, [.next(200, 1), .completed(200)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 200)])
        }
    }

    func testColdObservable_withoutProcessingDelayEventAtZeroIsImmediate() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            let xs = scheduler.createColdObservable([.next(0, 1), .completed(0)])
            let res = scheduler.start { xs.map { $0 } }
            XCTAssertEqual(res.events, [.next(200, 1), .completed(200)])
        }
    }

    func testColdObservable_disposeCancelsRemainingEvents() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, TestError())])
            let res = scheduler.start(disposed: 215) { xs.map { $0 } }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
            // The cancelled events left the queue: the clock stops at the disposal.
            XCTAssertNoPendingWork(scheduler)
            XCTAssertEqual(scheduler.clock, 215)
        }
    }

    func testColdObservable_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError())])
            let res = scheduler.start { xs.map { $0 + 1 } }
            XCTAssertEqual(res.events, [.next(210, 2), .error(220, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }
}

final class RecordedTests: XCTestCase {
    struct TestError: Error {}
    struct OtherError: Error {}

    func testSubscription_debugDescription() {
        XCTAssertEqual(Subscription(200, 300).debugDescription, "(200: 300)")
        XCTAssertEqual(Subscription(200).debugDescription, "(200: Infinity)")
        XCTAssertEqual(Subscription(200), Subscription(200, Int.max))
        XCTAssertNotEqual(Subscription(200, 300), Subscription(200, 301))
        XCTAssertEqual(Set([Subscription(1, 2), Subscription(1, 2)]).count, 1)
    }

    func testRecorded_debugDescription() {
        XCTAssertEqual(Recorded.next(210, 1).debugDescription, "next(1) @ 210")
        XCTAssertEqual(Recorded<Event<Int>>.completed(300).debugDescription, "completed @ 300")
    }

    func testRecorded_eventsBuildsArrays() {
        let variadic = Recorded.events(.next(210, 1), .next(220, 2), .completed(230))
        let array = Recorded.events([.next(210, 1), .next(220, 2), .completed(230)])
        let literal: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .completed(230)]
        XCTAssertEqual(variadic, literal)
        XCTAssertEqual(array, literal)
    }

    func testRecorded_equality() {
        XCTAssertEqual(Recorded.next(210, 1), Recorded.next(210, 1))
        XCTAssertNotEqual(Recorded.next(210, 1), Recorded.next(211, 1))
        XCTAssertNotEqual(Recorded.next(210, 1), Recorded.next(210, 2))
        XCTAssertEqual(Recorded.error(210, TestError(), Int.self), Recorded.error(210, TestError(), Int.self))
        XCTAssertNotEqual(Recorded.error(210, TestError(), Int.self), Recorded.error(210, OtherError(), Int.self))
        XCTAssertNotEqual(Recorded<Event<Int>>.completed(210), Recorded.error(210, TestError(), Int.self))
        let optional: [Recorded<Event<Int?>>] = [.next(210, nil), .next(220, 1)]
        XCTAssertEqual(optional, [.next(210, nil), .next(220, 1)])
    }

    func testXCTAssertRecordedElements_ignoresTimes() {
        XCTAssertRecordedElements([.next(210, 1), .next(300, 2)], [1, 2])
    }
}

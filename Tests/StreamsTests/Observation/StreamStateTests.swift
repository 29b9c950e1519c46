import Observation
import Streams
import StreamsTest
import XCTest

final class StreamStateTests: XCTestCase {
    func testStreamState_storesEachElementOnItsSchedulerAndReportsTheChange() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let state = StreamState(subject, initial: 0, scheduler: scheduler)
            let changes = ChangeCounter()
            withObservationTracking {
                _ = state.value
            } onChange: {
                changes.increment()
            }

            subject.onNext(1)
            XCTAssertEqual(state.value, 0, "not stored before the scheduler runs")
            XCTAssertEqual(changes.count, 0)
            scheduler.start()
            XCTAssertEqual(state.value, 1)
            XCTAssertEqual(changes.count, 1)
            XCTAssertFalse(state.isCompleted)
            XCTAssertNil(state.error)
        }
    }

    func testStreamState_errorEndsItAndKeepsTheLastValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .error(220, MarbleError("boom"))])
        let state = StreamState(xs, initial: "", scheduler: scheduler)
        let changes = ChangeCounter()
        withObservationTracking {
            _ = state.isCompleted
        } onChange: {
            changes.increment()
        }
        scheduler.start()
        XCTAssertEqual(state.value, "a")
        XCTAssertEqual(state.error as? MarbleError, MarbleError("boom"))
        XCTAssertTrue(state.isCompleted)
        XCTAssertEqual(changes.count, 1)
        XCTAssertEqual(xs.subscriptions, [Subscription(0, 220)])
    }

    func testStreamState_completionIsReported() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let state = StreamState(xs, initial: 0, scheduler: scheduler)
        scheduler.start()
        XCTAssertEqual(state.value, 1)
        XCTAssertTrue(state.isCompleted)
        XCTAssertNil(state.error)
    }

    func testStreamState_deinitAndCancelEndTheSubscription() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var state: StreamState<Int>? = StreamState(subject, initial: 0, scheduler: CurrentThreadScheduler.instance)
            XCTAssertTrue(subject.hasObservers)
            subject.onNext(1)
            XCTAssertEqual(state?.value, 1)
            state = nil
            XCTAssertFalse(subject.hasObservers)

            let kept = StreamState(subject, initial: 5, scheduler: CurrentThreadScheduler.instance)
            kept.cancel()
            XCTAssertFalse(subject.hasObservers)
            subject.onNext(9)
            XCTAssertEqual(kept.value, 5)
        }
    }

    func testStreamState_relayStartsFromItsValue() {
        let relay = BehaviorRelay(value: "first")
        let state = StreamState(relay, scheduler: CurrentThreadScheduler.instance)
        XCTAssertEqual(state.value, "first")
        relay.accept("second")
        XCTAssertEqual(state.value, "second")
    }

    func testStreamState_followsADriverOnTheMainThread() {
        let relay = BehaviorRelay(value: 1)
        let state = StreamState(relay.asDriver(), initial: 0)
        let updated = expectation(description: "the driver's value is stored")
        DispatchQueue.main.async {
            XCTAssertEqual(state.value, 1)
            updated.fulfill()
        }
        wait(for: [updated], timeout: 10)
    }

    func testStreamState_neverSourceKeepsTheInitialValue() {
        let state = StreamState(Observable<Int>.never(), initial: 7, scheduler: CurrentThreadScheduler.instance)
        XCTAssertEqual(state.value, 7)
        XCTAssertFalse(state.isCompleted)
    }
}

/// Counts Observation change callbacks, which may come from any thread.
private final class ChangeCounter: @unchecked Sendable {
    // Safety: every access holds `lock`.
    private let lock = NSLock()
    private var value = 0

    func increment() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

import Dispatch
import Observation
import Streams
import StreamsTest
import XCTest

@Observable
private final class ObservedModel: @unchecked Sendable {
    var count = 0
    var name = "a"
    var followsName = false
}

final class ObservingTests: XCTestCase {
    func testObserving_emitsTheCurrentValueThenOneValuePerTurnOfChanges() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let model = ObservedModel()
            _ = scheduler.scheduleAt(300) { model.count = 1 }
            _ = scheduler.scheduleAt(400) {
                model.count = 2
                model.count = 3
            }
            _ = scheduler.scheduleAt(500) { model.name = "b" }  // not read: no element
            _ = scheduler.scheduleAt(600) { model.count = 4 }
            let res = scheduler.start { Observable.observing(on: scheduler) { model.count } }
            // The changed value is read by work scheduled "now", which a TestScheduler runs a tick later.
            XCTAssertEqual(res.events, [.next(200, 0), .next(301, 1), .next(401, 3), .next(601, 4)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testObserving_followsWhatTheLatestReadTouched() {
        let scheduler = TestScheduler(initialClock: 0)
        let model = ObservedModel()
        _ = scheduler.scheduleAt(300) { model.name = "ignored" }
        _ = scheduler.scheduleAt(400) { model.followsName = true }
        _ = scheduler.scheduleAt(500) { model.name = "followed" }
        let res = scheduler.start {
            Observable.observing(on: scheduler) { model.followsName ? model.name : "count \(model.count)" }
        }
        XCTAssertEqual(res.events, [.next(200, "count 0"), .next(401, "ignored"), .next(501, "followed")])
    }

    func testObserving_stopsAtDisposal() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let model = ObservedModel()
            _ = scheduler.scheduleAt(300) { model.count = 1 }
            _ = scheduler.scheduleAt(500) { model.count = 2 }
            let res = scheduler.start(disposed: 400) { Observable.observing(on: scheduler) { model.count } }
            XCTAssertEqual(res.events, [.next(200, 0), .next(301, 1)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testObserving_disposedBetweenChangeAndReadDeliversNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let model = ObservedModel()
        let observer = scheduler.createObserver(Int.self)
        let subscription = Observable.observing(on: scheduler) { model.count }.subscribe(observer)
        model.count = 1  // a read is now scheduled
        subscription.dispose()
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(0, 0)])
        XCTAssertNoPendingWork(scheduler)
    }

    func testObserving_fastChangesOnTheSchedulersQueueLoseNothingAndRepeatNothing() {
        let queue = DispatchQueue(label: "observing-test")
        let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "observing-test-internal")
        let model = ObservedModel()
        let values = LockedValues()
        let done = expectation(description: "the last value arrives")
        let subscription = queue.sync {
            Observable.observing(on: scheduler) { model.count }.subscribe(onNext: { value in
                values.append(value)
                if value == 1_000 { done.fulfill() }
            })
        }
        for batch in 0..<100 {
            queue.async {
                for step in 1...10 { model.count = batch * 10 + step }
            }
        }
        wait(for: [done], timeout: 30)
        subscription.dispose()
        let seen = values.all
        XCTAssertEqual(seen.first, 0)
        XCTAssertEqual(seen.last, 1_000)
        XCTAssertEqual(seen, seen.sorted(), "in order")
        XCTAssertEqual(Set(seen).count, seen.count, "no value delivered twice")
    }
}

/// Values appended from the delivering queue, read from the test.
private final class LockedValues: @unchecked Sendable {
    // Safety: every access holds `lock`.
    private let lock = NSLock()
    private var values: [Int] = []

    func append(_ value: Int) { lock.withLock { values.append(value) } }
    var all: [Int] { lock.withLock { values } }
}

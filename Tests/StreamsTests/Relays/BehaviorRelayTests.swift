import XCTest
import Streams
import StreamsTest

final class BehaviorRelayTests: XCTestCase {
    func testBehaviorRelay_values() {
        XCTAssertNoLeaks {
            let relay = BehaviorRelay(value: 0)
            XCTAssertEqual(relay.value, 0)
            let early = EventRecorder<Int>()
            let late = EventRecorder<Int>()
            let first = relay.subscribe(early)
            relay.accept(1)
            XCTAssertEqual(relay.value, 1)
            let second = relay.subscribe(late)
            relay.accept(2)
            XCTAssertEqual(relay.value, 2)
            XCTAssertEqual(early.events, [.next(0), .next(1), .next(2)])
            XCTAssertEqual(late.events, [.next(1), .next(2)])
            first.dispose()
            second.dispose()
        }
    }

    func testBehaviorRelay_scheduled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let relay = BehaviorRelay(value: 0)
            scheduler.scheduleAt(150) { relay.accept(1) }
            scheduler.scheduleAt(210) { relay.accept(2) }
            scheduler.scheduleAt(240) { relay.accept(3) }
            scheduler.scheduleAt(260) { relay.accept(4) }
            let res = scheduler.start(disposed: 250) { relay.asObservable() }
            XCTAssertEqual(res.events, [.next(200, 1), .next(210, 2), .next(240, 3)])
            XCTAssertEqual(relay.value, 4)
        }
    }

    func testBehaviorRelay_neverTerminates() {
        XCTAssertNoLeaks {
            let recorder = EventRecorder<String>()
            var subscription: Disposable?
            do {
                let relay = BehaviorRelay(value: "a")
                subscription = relay.subscribe(recorder)
            }
            XCTAssertEqual(recorder.events, [.next("a")])
            subscription?.dispose()
        }
    }

    func testBehaviorRelay_reentrantAcceptDuringReplay() {
        XCTAssertNoLeaks {
            let relay = BehaviorRelay(value: 0)
            var received: [Int] = []
            let subscription = relay.subscribe(onNext: { value in
                received.append(value)
                if value < 2 { relay.accept(value + 1) }
            })
            XCTAssertEqual(received, [0, 1, 2])
            XCTAssertEqual(relay.value, 2)
            subscription.dispose()
        }
    }

    func testBehaviorRelay_releasesItself() {
        weak var weakRelay: BehaviorRelay<Int>?
        XCTAssertNoLeaks {
            let relay = BehaviorRelay(value: 0)
            weakRelay = relay
            let subscription = relay.subscribe(onNext: { _ in _ = relay.value })
            relay.accept(1)
            subscription.dispose()
        }
        XCTAssertNil(weakRelay)
    }

    func testBehaviorRelay_stressReplayIsNeverOvertaken() {
        XCTAssertNoLeaks {
            let relay = BehaviorRelay(value: 0)
            let count = 5_000
            let results = stressSubscribeWhileSending(relay, count: count, send: { relay.accept($0) })
            for trial in results.trials.withLock({ $0 }) {
                let elements = trial.recorder.elements
                XCTAssertEqual(elements.count, trial.recorder.events.count)
                assertContiguous(elements)
                guard let first = elements.first else {
                    XCTFail("a BehaviorRelay observer always gets the current value")
                    continue
                }
                XCTAssertGreaterThanOrEqual(first, trial.sentBefore)
                XCTAssertLessThanOrEqual(first, trial.sentAfter + 1)
                if trial.kept { XCTAssertEqual(elements.last, count) }
            }
            results.disposeKept()
            XCTAssertEqual(relay.value, count)
        }
    }
}

import XCTest
import Streams
import StreamsTest

final class ReplayRelayTests: XCTestCase {
    func testReplayRelay_bounded() {
        XCTAssertNoLeaks {
            let relay = ReplayRelay<Int>.create(bufferSize: 2)
            relay.accept(1)
            relay.accept(2)
            relay.accept(3)
            let recorder = EventRecorder<Int>()
            let subscription = relay.subscribe(recorder)
            relay.accept(4)
            XCTAssertEqual(recorder.events, [.next(2), .next(3), .next(4)])
            subscription.dispose()
        }
    }

    func testReplayRelay_unbounded() {
        XCTAssertNoLeaks {
            for relay in [ReplayRelay<Int>.createUnbound(), ReplayRelay<Int>.createUnbounded()] {
                for value in 1...5 { relay.accept(value) }
                let recorder = EventRecorder<Int>()
                let subscription = relay.asObservable().subscribe(recorder)
                relay.accept(6)
                XCTAssertEqual(recorder.elements, [1, 2, 3, 4, 5, 6])
                subscription.dispose()
            }
        }
    }

    func testReplayRelay_nonPositiveBufferSize() {
        XCTAssertNoLeaks {
            for bufferSize in [0, -1] {
                let relay = ReplayRelay<Int>.create(bufferSize: bufferSize)
                relay.accept(1)
                let recorder = EventRecorder<Int>()
                let subscription = relay.subscribe(recorder)
                relay.accept(2)
                XCTAssertEqual(recorder.events, [.next(2)])
                subscription.dispose()
            }
        }
    }

    func testReplayRelay_scheduled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let relay = ReplayRelay<Int>.create(bufferSize: 2)
            scheduler.scheduleAt(110) { relay.accept(1) }
            scheduler.scheduleAt(150) { relay.accept(2) }
            scheduler.scheduleAt(210) { relay.accept(3) }
            scheduler.scheduleAt(260) { relay.accept(4) }
            let res = scheduler.start(disposed: 250) { relay.asObservable() }
            XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(210, 3)])
        }
    }

    func testReplayRelay_reentrantAcceptDuringReplay() {
        XCTAssertNoLeaks {
            let relay = ReplayRelay<Int>.create(bufferSize: 3)
            relay.accept(1)
            relay.accept(2)
            var received: [Int] = []
            let subscription = relay.subscribe(onNext: { value in
                received.append(value)
                if value == 1 { relay.accept(3) }
            })
            XCTAssertEqual(received, [1, 2, 3])
            subscription.dispose()
        }
    }

    func testReplayRelay_releasesItself() {
        weak var weakRelay: ReplayRelay<Int>?
        XCTAssertNoLeaks {
            let relay = ReplayRelay<Int>.createUnbound()
            weakRelay = relay
            relay.accept(1)
            let subscription = relay.subscribe(onNext: { value in if value == 1 { relay.accept(2) } })
            subscription.dispose()
        }
        XCTAssertNil(weakRelay)
    }

    func testReplayRelay_stressReplayIsNeverOvertaken() {
        XCTAssertNoLeaks {
            let bufferSize = 4
            let relay = ReplayRelay<Int>.create(bufferSize: bufferSize)
            let count = 5_000
            let results = stressSubscribeWhileSending(relay, count: count, send: { relay.accept($0) })
            for trial in results.trials.withLock({ $0 }) {
                let elements = trial.recorder.elements
                XCTAssertEqual(elements.count, trial.recorder.events.count)
                assertContiguous(elements)
                guard let first = elements.first else { continue }
                XCTAssertGreaterThanOrEqual(first, max(1, trial.sentBefore - bufferSize + 1))
                XCTAssertLessThanOrEqual(first, max(1, trial.sentAfter + 1 - bufferSize + 1))
                if trial.kept { XCTAssertEqual(elements.last, count) }
            }
            results.disposeKept()
        }
    }
}

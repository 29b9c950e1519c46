import XCTest
import Streams
import StreamsTest

final class PublishRelayTests: XCTestCase {
    func testPublishRelay_values() {
        XCTAssertNoLeaks {
            let relay = PublishRelay<Int>()
            let early = EventRecorder<Int>()
            let late = EventRecorder<Int>()
            let first = relay.subscribe(early)
            relay.accept(1)
            let second = relay.subscribe(late)
            relay.accept(2)
            XCTAssertEqual(early.events, [.next(1), .next(2)])
            XCTAssertEqual(late.events, [.next(2)])
            first.dispose()
            second.dispose()
        }
    }

    func testPublishRelay_scheduled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let relay = PublishRelay<Int>()
            scheduler.scheduleAt(150) { relay.accept(1) }
            scheduler.scheduleAt(210) { relay.accept(2) }
            scheduler.scheduleAt(240) { relay.accept(3) }
            scheduler.scheduleAt(260) { relay.accept(4) }
            let res = scheduler.start(disposed: 250) { relay.asObservable() }
            XCTAssertEqual(res.events, [.next(210, 2), .next(240, 3)])
            XCTAssertFalse(relay.hasObservers)
        }
    }

    func testPublishRelay_neverTerminates() {
        XCTAssertNoLeaks {
            let recorder = EventRecorder<Int>()
            var subscription: Disposable?
            do {
                let relay = PublishRelay<Int>()
                subscription = relay.subscribe(recorder)
                relay.accept(1)
            }
            // Releasing the relay sends nothing: relays never complete.
            XCTAssertEqual(recorder.events, [.next(1)])
            subscription?.dispose()
        }
    }

    func testPublishRelay_hasObservers() {
        XCTAssertNoLeaks {
            let relay = PublishRelay<Int>()
            XCTAssertFalse(relay.hasObservers)
            let first = relay.subscribe { _ in }
            let second = relay.asObservable().subscribe { _ in }
            XCTAssertTrue(relay.hasObservers)
            first.dispose()
            XCTAssertTrue(relay.hasObservers)
            second.dispose()
            XCTAssertFalse(relay.hasObservers)
        }
    }

    func testPublishRelay_reentrantAccept() {
        XCTAssertNoLeaks {
            let relay = PublishRelay<Int>()
            var received: [Int] = []
            let subscription = relay.subscribe(onNext: { value in
                received.append(value)
                if value < 3 { relay.accept(value + 1) }
            })
            relay.accept(1)
            XCTAssertEqual(received, [1, 2, 3])
            subscription.dispose()
        }
    }

    func testPublishRelay_releasesItself() {
        weak var weakRelay: PublishRelay<Int>?
        XCTAssertNoLeaks {
            let relay = PublishRelay<Int>()
            weakRelay = relay
            let subscription = relay.subscribe(onNext: { _ in _ = relay.hasObservers })
            relay.accept(1)
            subscription.dispose()
        }
        XCTAssertNil(weakRelay)
    }

    func testPublishRelay_stressSubscribeWhileAccepting() {
        XCTAssertNoLeaks {
            let relay = PublishRelay<Int>()
            let count = 5_000
            let results = stressSubscribeWhileSending(relay, count: count, send: { relay.accept($0) })
            for trial in results.trials.withLock({ $0 }) {
                let events = trial.recorder.events
                XCTAssertFalse(events.contains { $0.isStopEvent })
                assertContiguous(trial.recorder.elements)
                if trial.kept, let last = trial.recorder.elements.last {
                    XCTAssertEqual(last, count)
                }
            }
            XCTAssertTrue(relay.hasObservers)
            results.disposeKept()
            XCTAssertFalse(relay.hasObservers)
        }
    }
}

import Foundation
import XCTest
import Streams
import StreamsTest

final class SequenceTests: XCTestCase {
    // MARK: of

    func testOf_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.of(1, 2, 3) }
            XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .next(200, 3), .completed(200)])
        }
    }

    func testOf_empty() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Int>.of()).events, [.completed])
        }
    }

    func testOf_scheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.of(1, 2, 3, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
        }
    }

    func testOf_schedulerEmpty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.of(scheduler: scheduler) }
            XCTAssertEqual(res.events, [.completed(201)])
        }
    }

    func testOf_schedulerDisposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            // Disposal at 203 was scheduled first, so it runs before the step due at 203.
            let res = scheduler.start(disposed: 203) { Observable.of(1, 2, 3, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2)])
        }
    }

    func testOf_emitsSynchronouslyDuringSubscribe() {
        XCTAssertNoLeaks {
            var received: [Int] = []
            let subscription = Observable.of(1, 2).subscribe(onNext: { received.append($0) })
            XCTAssertEqual(received, [1, 2])
            subscription.dispose()
        }
    }

    // MARK: from

    func testFromArray_values() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable.from([1, 2, 3])).events, [.next(1), .next(2), .next(3), .completed])
        }
    }

    func testFromArray_scheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.from(["a", "b"], scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, "a"), .next(202, "b"), .completed(203)])
        }
    }

    func testFromSequence_values() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable.from(stride(from: 0, to: 10, by: 4))).events, [.next(0), .next(4), .next(8), .completed])
        }
    }

    func testFromSequence_empty() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable.from(EmptyCollection<Int>())).events, [.completed])
        }
    }

    func testFromSequence_scheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.from(1...2, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .completed(203)])
        }
    }

    func testFromSequence_iteratesAnewPerSubscription() {
        XCTAssertNoLeaks {
            let naturals = CountingNaturals()
            let source = Observable.from(naturals).firstElements(2)
            XCTAssertEqual(collectEvents(source).events, [.next(0), .next(1), .completed])
            XCTAssertEqual(collectEvents(source).events, [.next(0), .next(1), .completed])
        }
    }

    func testFromSequence_infiniteStopsWhenDownstreamStops() {
        XCTAssertNoLeaks {
            let naturals = CountingNaturals()
            let (events, _) = collectEvents(Observable.from(naturals).firstElements(3))
            XCTAssertEqual(events, [.next(0), .next(1), .next(2), .completed])
            // The 4th element is what made `firstElements` complete; nothing is pulled after it.
            XCTAssertEqual(naturals.pulled.load(ordering: .relaxed), 4)
        }
    }

    func testFromSequence_infiniteStopsWhenDownstreamFails() {
        XCTAssertNoLeaks {
            let naturals = CountingNaturals()
            let source = Observable.from(naturals).map { value -> Int in
                if value == 5 { throw TransformTestError() }
                return value
            }
            let (events, _) = collectEvents(source)
            XCTAssertEqual(events, [.next(0), .next(1), .next(2), .next(3), .next(4), .error(TransformTestError())])
            XCTAssertEqual(naturals.pulled.load(ordering: .relaxed), 6)
        }
    }

    func testFromSequence_infiniteStopsThroughFlatMap() {
        XCTAssertNoLeaks {
            let naturals = CountingNaturals()
            let source = Observable.just(1).flatMap { _ in Observable.from(naturals) }.firstElements(2)
            XCTAssertEqual(collectEvents(source).events, [.next(0), .next(1), .completed])
            XCTAssertEqual(naturals.pulled.load(ordering: .relaxed), 3)
        }
    }

    func testFromSequence_infiniteOnSchedulerStopsOnDispose() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let naturals = CountingNaturals()
            let res = scheduler.start(disposed: 204) { Observable.from(naturals, scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .next(203, 2)])
            XCTAssertEqual(naturals.pulled.load(ordering: .relaxed), 3)
        }
    }

    func testFromSequence_infiniteOnSchedulerStopsWhenDownstreamStops() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.from(CountingNaturals(), scheduler: scheduler).firstElements(2) }
            XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .completed(203)])
        }
    }

    func testFromSequence_concurrentDispatchScheduler() {
        XCTAssertNoLeaks {
            let recorder = GrammarRecorder<Int>()
            let queue = DispatchQueue(label: "SequenceTests.from")
            let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
            let subscription = Observable.from(0..<100, scheduler: scheduler).subscribe(recorder)
            recorder.waitForTerminal()
            // The terminal event is seen before the queue's thread finishes disposing; let it finish.
            queue.sync {}
            recorder.assertGrammar()
            XCTAssertEqual(recorder.elements, Array(0..<100))
            XCTAssertEqual(recorder.terminals, [.completed])
            subscription.dispose()
        }
    }
}

import Streams
import StreamsTest
import XCTest

private struct GenerateError: Error, Equatable {}

final class GenerateTests: XCTestCase {
    func testGenerate_values() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            _ = Observable.generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 }).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(1), .next(3), .next(9), .completed])
        }
    }

    func testGenerate_onScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.generate(initialState: 0, condition: { $0 <= 2 }, scheduler: scheduler, iterate: { $0 + 1 }) }
            XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .next(203, 2), .completed(204)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    /// The condition is checked before the first element too.
    func testGenerate_empty() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            var iterated = false
            _ = Observable.generate(
                initialState: 5, condition: { $0 < 0 },
                iterate: {
                    iterated = true; return $0
                }
            ).subscribe { events.append($0) }
            XCTAssertEqual(events, [.completed])
            XCTAssertFalse(iterated)
        }
    }

    /// Endless (`never` ends it): stops when downstream stops.
    func testGenerate_endlessWithTake() {
        XCTAssertNoLeaks {
            var iterations = 0
            var events: [Event<Int>] = []
            _ = Observable.generate(
                initialState: 0, condition: { _ in true },
                iterate: {
                    iterations += 1; return $0 + 1
                }
            )
            .take(3).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(0), .next(1), .next(2), .completed])
            XCTAssertEqual(iterations, 2)
        }
    }

    func testGenerate_conditionThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start {
                Observable.generate(
                    initialState: 0,
                    condition: { value -> Bool in
                        if value == 2 { throw GenerateError() }
                        return true
                    }, scheduler: scheduler, iterate: { $0 + 1 })
            }
            XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .error(203, GenerateError())])
        }
    }

    func testGenerate_iterateThrows() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            _ = Observable.generate(
                initialState: 0, condition: { _ in true },
                iterate: { value -> Int in
                    if value == 1 { throw GenerateError() }
                    return value + 1
                }
            ).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(0), .next(1), .error(GenerateError())])
        }
    }

    func testGenerate_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(disposed: 203) {
                Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler, iterate: { $0 + 1 })
            }
            XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }
}

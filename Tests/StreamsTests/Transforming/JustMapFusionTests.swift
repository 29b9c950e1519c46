import Streams
import StreamsInspector
import StreamsTest
import XCTest

/// `just(_:)` followed by `map(_:)` runs as one sequence (see the Performance article, "Operator
/// fusion"); these tests pin that it behaves exactly as the two did.
final class JustMapFusionTests: XCTestCase {
    func testJustMap_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.just(2).map { $0 * 10 } }
            XCTAssertEqual(res.events, [.next(200, 20), .completed(200)])
        }
    }

    func testJustMap_changesType() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.just(7).map { String($0) } }
            XCTAssertEqual(res.events, [.next(200, "7"), .completed(200)])
        }
    }

    func testJustMap_transformThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.just(1).map { _ -> Int in throw TransformTestError(tag: 1) } }
            XCTAssertEqual(res.events, [.error(200, TransformTestError(tag: 1))])
        }
    }

    /// `transform` runs at each subscription, not when the chain is built.
    func testJustMap_eachSubscriptionCallsTransformAgain() {
        XCTAssertNoLeaks {
            var calls = 0
            let mapped = Observable.just(1).map { value -> Int in
                calls += 1
                return value + calls
            }
            XCTAssertEqual(calls, 0)
            var received: [Int] = []
            _ = mapped.subscribe(onNext: { received.append($0) })
            _ = mapped.subscribe(onNext: { received.append($0) })
            XCTAssertEqual(calls, 2)
            XCTAssertEqual(received, [2, 3])
        }
    }

    /// As the `map` stage's, the subscription runs on the trampoline: work the observer schedules
    /// on the current thread runs after the events, before `subscribe` returns.
    func testJustMap_subscribesOnTheTrampoline() {
        XCTAssertNoLeaks {
            var log: [String] = []
            let subscription = Observable.just(1).map { $0 + 1 }.subscribe(
                onNext: { value in
                    log.append("next \(value)")
                    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                        log.append("scheduled")
                        return Disposables.create()
                    }
                },
                onCompleted: { log.append("completed") })
            log.append("returned")
            subscription.dispose()
            XCTAssertEqual(log, ["next 2", "completed", "scheduled", "returned"])
        }
    }

    /// As an inner sequence that is replaced and disposed while the outer runs.
    func testJustMap_asInnerOfFlatMapLatest() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let res = scheduler.start { xs.flatMapLatest { Observable.just($0).map { $0 * 10 } } }
            XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .completed(300)])
        }
    }

    func testJustMap_takeOne() {
        XCTAssertNoLeaks {
            var received: [Int] = []
            var completed = 0
            _ = Observable.just(3).map { $0 * 2 }.take(1).subscribe(onNext: { received.append($0) }, onCompleted: { completed += 1 })
            XCTAssertEqual(received, [6])
            XCTAssertEqual(completed, 1)
        }
    }

    func testSingleJustMap_success() {
        XCTAssertNoLeaks {
            var received: [Int] = []
            var failures = 0
            _ = Single.just(4).map { $0 + 1 }.subscribe(onSuccess: { received.append($0) }, onFailure: { _ in failures += 1 })
            XCTAssertEqual(received, [5])
            XCTAssertEqual(failures, 0)
        }
    }

    func testSingleJustMap_transformThrows() {
        XCTAssertNoLeaks {
            var errors: [TransformTestError] = []
            var successes = 0
            _ = Single.just(4).map { _ -> Int in throw TransformTestError(tag: 4) }
                .subscribe(onSuccess: { _ in successes += 1 }, onFailure: { errors.append($0 as! TransformTestError) })
            XCTAssertEqual(errors, [TransformTestError(tag: 4)])
            XCTAssertEqual(successes, 0)
        }
    }

    /// Without an `onFailure`, the error goes to `Hooks.defaultErrorHandler`, as for any `Single`.
    func testSingleJustMap_unhandledErrorGoesToTheDefaultHandler() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        nonisolated(unsafe) var reported: [String] = []
        // Safety: the handler runs synchronously on this thread, inside `subscribe`.
        Hooks.defaultErrorHandler = { _, error in reported.append("\(error)") }
        _ = Single.just(1).map { _ -> Int in throw TransformTestError(tag: 9) }.subscribe(onSuccess: { _ in })
        XCTAssertEqual(reported.count, 1)
    }

    func testSingleJustMap_onDisposedRuns() {
        XCTAssertNoLeaks {
            var log: [String] = []
            let subscription = Single.just(1).map { $0 * 3 }.subscribe(
                onSuccess: { log.append("success \($0)") }, onDisposed: { log.append("disposed") })
            subscription.dispose()
            XCTAssertEqual(log, ["success 3", "disposed"])
        }
    }

    /// The fused sequence makes no sink: the count does not move during a subscription.
    func testJustMap_noSinkPerSubscription() {
        let baseline = Resources.total
        var during = 0
        let subscription = Single.just(1).map { $0 + 1 }.subscribe(onSuccess: { _ in during = Resources.total })
        XCTAssertEqual(during, baseline)
        subscription.dispose()
        XCTAssertEqual(Resources.total, baseline)
    }

    #if Inspector
    /// While the inspector records, the chain runs as written: `just` and `map` are both recorded.
    func testJustMap_inspectorSeesBothOperators() {
        Inspector.reset()
        Inspector.start()
        defer {
            Inspector.stop()
            Inspector.reset()
        }
        var received: [Int] = []
        _ = Observable.just(1).map { $0 + 1 }.named("jm").subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [2])
        let names = Set(Inspector.events(ofChainNamed: "jm").map(\.operatorName))
        XCTAssertEqual(names, ["named", "map", "just"])
    }
    #endif
}

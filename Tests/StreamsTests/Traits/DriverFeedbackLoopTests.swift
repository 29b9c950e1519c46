import XCTest
import Streams
import StreamsTest

/// Feedback loops of Drivers and Signals answering synchronously on the main thread give
/// RxCocoa's states in RxCocoa's order: each conversion has its own `MainScheduler()`, which runs
/// at once unless it is itself busy. The expected sequences are RxCocoa 6.10.2's (the same test
/// source compiled against RxSwift + RxCocoa gives them); each comment says why.
///
/// XCTest runs these on the main thread; `toBlocking` drains the main queue while it waits, and
/// each sequence ends at its last expected state, so a wrong order shows as a wrong array.
/// (Compiled against RxSwift 6.10.2 with RxCocoa's trait sources on Linux, all eight pass;
/// RxSwift's debug build warns of a reentrancy anomaly in the delayed-answer case, where the
/// timer's answer re-enters the loop's `flatMapLatest`, as it does for any such loop.)
final class DriverFeedbackLoopTests: XCTestCase {
    private func states(_ system: Driver<String>, until last: String) throws -> [String] {
        try system.asObservable().take(until: { $0 == last }, behavior: .inclusive).toBlocking(timeout: 20).toArray()
    }

    // Fails on ce3e235 (state == ""): the initial state passes two conversions; one shared
    // MainScheduler.instance ran the first at once and deferred the second to the main queue.
    func testInitialState_isDeliveredDuringDrive() {
        let system = FeedbackSystem.run(initial: "initial", reduce: { $0 + $1 }, loops: [FeedbackSystem.Loop<String, String>]())
        var state = ""
        let subscription = system.drive(onNext: { state = $0 })
        XCTAssertEqual(state, "initial")
        subscription.dispose()
    }

    // Fails on ce3e235 (state == ""), the Traits article's example.
    func testNestedConversions_deliverDuringDrive() {
        let twice = Observable.just("initial").asDriver(onErrorJustReturn: "").asObservable().asDriver(onErrorJustReturn: "")
        var state = ""
        let subscription = twice.drive(onNext: { state = $0 })
        XCTAssertEqual(state, "initial")
        subscription.dispose()
    }

    /// A loop answering `initial` with `first`, then each state at once with the next step.
    private func steps(first: Signal<String>) -> FeedbackSystem.Loop<String, String> {
        { state in
            state.flatMapLatest { state -> Signal<String> in
                switch state {
                case "initial": return first
                case "initial_a": return .just("_b")
                case "initial_a_b": return .just("_c")
                default: return .never()
                }
            }
        }
    }

    /// One loop answering each state with the next step: each answer is reduced before the loop
    /// sees the state it produced, so the steps follow one another.
    func testImmediateLoop_stepsInOrder() throws {
        let system = FeedbackSystem.run(initial: "initial", reduce: { $0 + $1 }, loops: [steps(first: .just("_a"))])
        XCTAssertEqual(try states(system, until: "initial_a_b_c"), ["initial", "initial_a", "initial_a_b", "initial_a_b_c"])
    }

    /// The first answer comes later, from a timer on the main queue, and the next ones at once:
    /// each is reduced, and seen by the loop, exactly once.
    func testImmediateLoop_afterADelayedFirstAnswer() throws {
        let system = FeedbackSystem.run(initial: "initial", reduce: { $0 + $1 }, loops: [steps(first: Signal.just("_a").delay(.milliseconds(1)))])
        XCTAssertEqual(try states(system, until: "initial_a_b_c"), ["initial", "initial_a", "initial_a_b", "initial_a_b_c"])
    }

    /// Three identical loops in parallel: all three see `initial` and answer `_a` before any sees
    /// `initial_a`, then all three see the latest state, `initial_a_a_a`, and answer `_b`.
    func testParallelImmediateLoops_answerTheSameStateThenTheLatest() throws {
        let loop: FeedbackSystem.Loop<String, String> = { state in
            state.flatMapLatest { state -> Signal<String> in
                if state == "initial" { return .just("_a") }
                if state == "initial_a_a_a" { return .just("_b") }
                return .never()
            }
        }
        let system = FeedbackSystem.run(initial: "initial", reduce: { $0 + $1 }, loops: [loop, loop, loop])
        XCTAssertEqual(
            try states(system, until: "initial_a_a_a_b_b_b"),
            ["initial", "initial_a", "initial_a_a", "initial_a_a_a", "initial_a_a_a_b", "initial_a_a_a_b_b", "initial_a_a_a_b_b_b"])
    }

    /// Equatable queries: the effect restarts only when a loop's query changes. Each of three
    /// loops asks to append a dot while the state has fewer than three.
    func testEquatableQueryLoops_parallel() throws {
        let loop = FeedbackSystem.react(
            query: { (state: String) -> Int? in
                let dots = state.filter { $0 == "." }.count
                return dots < 3 ? dots : nil
            },
            effects: { (_: Int) in Signal<String>.just("_.") })
        let system = FeedbackSystem.run(initial: "initial", reduce: { $0 + $1 }, loops: [loop, loop, loop])
        XCTAssertEqual(try states(system, until: "initial_._._."), ["initial", "initial_.", "initial_._.", "initial_._._."])
    }

    /// Set queries: each query starts its effect when it enters the set.
    func testSetQueryLoop_startsEachEnteringQuery() throws {
        let loop = FeedbackSystem.react(
            queries: { (state: String) -> Set<String> in
                switch state {
                case "initial": return ["x"]
                case "initial_x": return ["x", "y"]
                case "initial_x_y": return ["z"]
                default: return []
                }
            },
            effects: { (query: String) in Signal<String>.just("_" + query) })
        let system = FeedbackSystem.run(initial: "initial", reduce: { $0 + $1 }, loops: [loop])
        XCTAssertEqual(try states(system, until: "initial_x_y_z"), ["initial", "initial_x", "initial_x_y", "initial_x_y_z"])
    }

    /// `SharingScheduler.mock` still swaps the scheduler: the same machine runs in virtual time.
    func testMockedScheduler_runsTheMachineInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let loop: FeedbackSystem.Loop<String, String> = { state in
                state.flatMapLatest { state -> Signal<String> in state == "initial" ? .just("_a") : .never() }
            }
            let system = FeedbackSystem.run(initial: "initial", reduce: { $0 + $1 }, loops: [loop])
            let res = scheduler.start { system }
            XCTAssertEqual(res.events.first, .next(202, "initial"))
            XCTAssertEqual(res.events.map(\.value.element), ["initial", "initial_a"])
        }
    }
}

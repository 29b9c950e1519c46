import XCTest
import Streams
import StreamsTest

/// The error the contract sources fail with.
struct ContractError: Error, Equatable {}

/// The scenarios every trait operator is checked against: the source emits values, completes
/// empty, never emits, or fails; and a subscription disposed before the source terminates.
///
/// The source is hot; the operator is subscribed at 200 and disposed at 1000 (or, for
/// `.disposed`, mid-stream).
enum ContractScenario {
    case values, empty, never, error, disposed
}

/// Which source a contract scenario uses: several elements (`Observable`, `Infallible`,
/// `Driver`, `Signal`) or one (`Single`, `Maybe`, `Completable`).
enum ContractSource {
    /// `.values`: 1 at 210, 2 at 220, 3 at 230, completed at 300; `.error`: 1 at 210, error at
    /// 250; `.empty`: completed at 250; `.disposed`: the values, disposed at 215.
    case many
    /// `.values`: 1 then completed at 220; `.error`: error at 250; `.empty`: completed at 250;
    /// `.disposed`: the values, disposed at 210.
    case one

    func events(_ scenario: ContractScenario) -> [Recorded<Event<Int>>] {
        switch (self, scenario) {
        case (.many, .values), (.many, .disposed): return [.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)]
        case (.many, .error): return [.next(210, 1), .error(250, ContractError())]
        case (.one, .values), (.one, .disposed): return [.next(220, 1), .completed(220)]
        case (.one, .error): return [.error(250, ContractError())]
        case (_, .empty): return [.completed(250)]
        case (_, .never): return []
        }
    }

    func disposeTime(_ scenario: ContractScenario) -> TestTime {
        guard scenario == .disposed else { return 1000 }
        return self == .many ? 215 : 210
    }
}

/// What a contract build sees: the scheduler, the scenario's source, and helpers that create
/// further sources whose subscriptions are checked too.
final class ContractContext {
    let scheduler: TestScheduler
    let xs: TestableObservable<Int>
    private(set) var others: [TestableObservable<Int>] = []

    init(scheduler: TestScheduler, xs: TestableObservable<Int>) {
        self.scheduler = scheduler
        self.xs = xs
    }

    /// The scenario's source.
    var source: Observable<Int> { xs.asObservable() }

    /// A further hot source (its subscriptions are checked in order of creation).
    func hot(_ events: [Recorded<Event<Int>>]) -> Observable<Int> {
        let other = scheduler.createHotObservable(events)
        others.append(other)
        return other.asObservable()
    }

    /// A further cold source (its subscriptions are checked in order of creation).
    func cold(_ events: [Recorded<Event<Int>>]) -> Observable<Int> {
        let other = scheduler.createColdObservable(events)
        others.append(other)
        return other.asObservable()
    }
}

extension XCTestCase {
    /// Runs `scenario`: builds the operator (with `SharingScheduler` mocked to the test
    /// scheduler), subscribes at 200, disposes at 1000 (or mid-stream), and asserts the exact
    /// events, the source's subscriptions, the further sources' subscriptions, and that nothing
    /// leaked.
    func assertContract<R: Equatable>(
        _ scenario: ContractScenario,
        source: ContractSource = .many,
        _ expected: [Recorded<Event<R>>],
        _ subscriptions: [Subscription],
        others: [[Subscription]]? = nil,
        file: StaticString = #filePath, line: UInt = #line,
        _ build: (ContractContext) -> Observable<R>
    ) {
        XCTAssertNoLeaks(file: file, line: line) {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(source.events(scenario))
            let context = ContractContext(scheduler: scheduler, xs: xs)
            SharingScheduler.mock(scheduler: scheduler) {
                let sequence = build(context)
                let res = scheduler.start(disposed: source.disposeTime(scenario)) { sequence }
                XCTAssertEqual(res.events, expected, "\(scenario)", file: file, line: line)
                XCTAssertEqual(xs.subscriptions, subscriptions, "\(scenario) source", file: file, line: line)
                if let others {
                    XCTAssertEqual(context.others.map(\.subscriptions), others, "\(scenario) others", file: file, line: line)
                }
            }
        }
    }
}

import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time examples of the Traits article (Sources/Streams/Streams.docc/Traits.md), run
/// and compared with the article's blocks: one column per tick, every source a cold sequence
/// subscribed at 0, and `x|` on a trait's lane its success (the element and the completion in x's
/// tick), as the article says before its first block.
final class TraitsArticleTests: XCTestCase {
    private struct BlockError: Error, CustomStringConvertible {
        var description: String
    }

    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/Traits.md", testFile: #filePath) }

    /// `a@7`, `|@7`: the events a lane draws, `x|` and `(x|)` being x and the completion in x's tick.
    private func drawn(_ marbles: String, column: Int = 0, successes: Bool = true) -> [String] {
        var events: [String] = []
        var previous: (end: TestTime, time: TestTime)?
        for token in ArticleToken.tokens(marbles, column: column) {
            let end = token.time + TestTime(token.text.count)
            if successes, token.text == "|", let previous, previous.end == token.time {
                events.append("|@\(previous.time)")
            } else if token.text.hasPrefix("("), token.text.hasSuffix("|)") {
                // `(ab|)` is a, b and the completion; `(nil|)`, `([1,2]|)` one element and the completion.
                let inner = String(token.text.dropFirst().dropLast(2))
                let elements = inner == "nil" || inner.hasPrefix("[") ? [inner] : inner.map { String($0) }
                events += elements.map { "\($0)@\(token.time)" } + ["|@\(token.time)"]
            } else {
                events.append("\(token.text)@\(token.time)")
            }
            previous = (end, token.time)
        }
        return events
    }

    private func recorded(_ events: [Recorded<Event<String>>]) -> [String] {
        events.map { recorded in
            switch recorded.value {
            case .next(let value): "\(value)@\(recorded.time)"
            case .completed: "|@\(recorded.time)"
            case .error: "#@\(recorded.time)"
            }
        }
    }

    /// The cold sequence a lane draws (times relative to the lane's first column).
    private func cold(_ marbles: String, _ scheduler: TestScheduler, successes: Bool = true) -> Observable<String> {
        var events: [Recorded<Event<String>>] = []
        for event in drawn(marbles, successes: successes) {
            let parts = event.split(separator: "@")
            let time = TestTime(parts[1])!
            switch parts[0] {
            case "|": events.append(.completed(time))
            case "#": events.append(.error(time, MarbleError()))
            default: events.append(.next(time, String(parts[0])))
            }
        }
        return scheduler.createColdObservable(events).asObservable()
    }

    /// The indented block with a line that reads `line` (leading and trailing spaces aside).
    private func block(_ line: String) throws -> [String] {
        let lines = try article().lines
        let matching = lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces) == line }
        guard matching.count == 1 else { throw BlockError(description: "Traits.md: \(matching.count) lines read \"\(line)\"") }
        var (start, end) = (matching[0], matching[0])
        while start > 0, lines[start - 1].hasPrefix("    ") { start -= 1 }
        while end + 1 < lines.count, lines[end + 1].hasPrefix("    ") { end += 1 }
        return Array(lines[start...end])
    }

    /// Runs `build` on the block's lanes (each example of a side-by-side block in turn) and compares
    /// the result with the lane `output`.
    private func check(
        _ anchor: String, inputs: [String], output: String, successes: Bool = true, prefix: Bool = false,
        scheduler makeScheduler: () -> TestScheduler = { TestScheduler(initialClock: 0) }, file: StaticString = #filePath, line: UInt = #line,
        _ build: @escaping ([Observable<String>], TestScheduler) -> Observable<String>
    ) throws {
        let lanes = Article.lanes(of: try block(anchor))
        func lane(_ label: String) throws -> [(column: Int, marbles: String)] {
            try XCTUnwrap(lanes.first { $0.label == label }?.segments, "no lane \(label) in the block with \(anchor)", file: file, line: line)
        }
        let outputs = try lane(output)
        XCTAssertFalse(outputs.isEmpty, file: file, line: line)
        for (example, out) in outputs.enumerated() {
            let scheduler = makeScheduler()
            let sources = try inputs.map { label in cold(try lane(label)[example].marbles, scheduler, successes: successes) }
            let start = inputs.isEmpty ? 0 : try lane(inputs[0])[example].column
            let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { build(sources, scheduler) }
            let expected = drawn(out.marbles, column: out.column - start, successes: successes)
            let actual = recorded(res.events)
            XCTAssertEqual(expected, prefix ? Array(actual.prefix(expected.count)) : actual, "\(anchor), example \(example + 1)", file: file, line: line)
        }
    }

    /// Converting from an observable: asSingle(), toArray(), first(), asCompletable().
    func testConverting() throws {
        try check("output: --------(a|)     -----#            ---#", inputs: ["source"], output: "output") { s, _ in s[0].asSingle().asObservable() }
        try check("output: --------([1,2]|)", inputs: ["source"], output: "output") { s, _ in
            s[0].toArray().asObservable().map { "[" + $0.joined(separator: ",") + "]" }
        }
        try check("output: --(1|)           ---(nil|)", inputs: ["source"], output: "output") { s, _ in s[0].first().asObservable().map { $0 ?? "nil" } }
        let lanes = Article.lanes(of: try article().codeBlock(containing: "(an ObservableType of Never)"))
        let source = try XCTUnwrap(lanes.first { $0.label == "source" }?.segments.first?.marbles)
        let scheduler = TestScheduler(initialClock: 0)
        let never = scheduler.createColdObservable(
            drawn(source).map { Recorded<Event<Never>>.completed(TestTime($0.split(separator: "@")[1])!) })
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { never.asCompletable().andThen(Observable<String>.empty()) }
        XCTAssertEqual(drawn(try XCTUnwrap(lanes.first { $0.label == "output" }?.segments.first?.marbles)), recorded(res.events))
    }

    /// Operators (all traits): delaySubscription and Single.timer; retry(when:).
    func testOperators_allTraits() throws {
        try check("source (cold):        --a|", inputs: ["source (cold)"], output: "delaySubscription(5)") { sources, scheduler in
            sources[0].asSingle().delaySubscription(.seconds(5), scheduler: scheduler).asObservable()
        }
        try check("source (cold):        --a|", inputs: ["source (cold)"], output: "Single<Int>.timer(5)") { _, scheduler in
            Single<Int>.timer(.seconds(5), scheduler: scheduler).asObservable().map { "\($0)" }
        }
        // retry(when:): the first attempt fails, the notifier answers 4 ticks after the error, the second succeeds.
        let lanes = Article.lanes(of: try block("source (1st):  --#"))
        func lane(_ label: String) throws -> (column: Int, marbles: String) { try XCTUnwrap(lanes.first { $0.label == label }?.segments.first) }
        let (first, notifier, second, output) = (try lane("source (1st)"), try lane("notifier"), try lane("source (2nd)"), try lane("output"))
        let error = try XCTUnwrap(drawn(first.marbles, column: first.column).first { $0.hasPrefix("#@") })
        let answer = try XCTUnwrap(drawn(notifier.marbles, column: notifier.column).first)
        let wait = TestTime(answer.split(separator: "@")[1])! - TestTime(error.split(separator: "@")[1])!
        XCTAssertEqual(second.column, notifier.column + 4, "the second attempt is drawn from the notifier's answer")
        let scheduler = TestScheduler(initialClock: 0)
        let attempts = [cold(first.marbles, scheduler), cold(second.marbles, scheduler)]
        var attempt = 0
        let single = Observable.deferred {
            defer { attempt += 1 }
            return attempts[min(attempt, 1)]
        }
        .asSingle()
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            single.retry { errors in errors.flatMap { _ in Observable<Int>.timer(.seconds(Int(wait)), scheduler: scheduler) } }.asObservable()
        }
        XCTAssertEqual(drawn(output.marbles, column: output.column), recorded(res.events))
    }

    /// Operators: Single.zip; Maybe.zip, ifEmpty(default:), ifEmpty(switchTo:); Completable zip, andThen, concat.
    func testOperators_singleMaybeCompletable() throws {
        try check("zip:     ----(1,a)|", inputs: ["source1", "source2"], output: "zip") { s, _ in
            Single.zip(s[0].asSingle(), s[1].asSingle()) { "(\($0),\($1))" }.asObservable()
        }
        try check("zip:     ----(1,a)|  ---|", inputs: ["source1", "source2"], output: "zip") { s, _ in
            Maybe.zip(s[0].asMaybe(), s[1].asMaybe()) { "(\($0),\($1))" }.asObservable()
        }
        try check("ifEmpty(default: d): ---(d|)       --a|", inputs: ["source"], output: "ifEmpty(default: d)") { s, _ in
            s[0].asMaybe().ifEmpty(default: "d").asObservable()
        }
        try check("ifEmpty(switchTo:):  -----b|", inputs: ["source", "other"], output: "ifEmpty(switchTo:)") { s, _ in
            s[0].asMaybe().ifEmpty(switchTo: s[1].asSingle()).asObservable()
        }
        func completable(_ source: Observable<String>) -> Completable { source.ignoreElements().asCompletable() }
        try check("zip:     ----|", inputs: ["source1", "source2"], output: "zip") { s, _ in
            Completable.zip(completable(s[0]), completable(s[1])).andThen(Observable<String>.empty())
        }
        try check("andThen: ----a|", inputs: ["self", "second"], output: "andThen") { s, _ in
            completable(s[0]).andThen(s[1].asSingle()).asObservable()
        }
        try check("concat:  -----|", inputs: ["c1", "c2"], output: "concat") { s, _ in
            completable(s[0]).concat(completable(s[1])).andThen(Observable<String>.empty())
        }
    }

    /// Infallible: asInfallible(onErrorJustReturn:), flatMapFirst, take(until:).
    func testInfallible() throws {
        try check("source:                              --1--#", inputs: ["source"], output: "asInfallible(onErrorJustReturn: 9)", successes: false) { s, _ in
            s[0].asInfallible(onErrorJustReturn: "9").asObservable()
        }
        try check("inner 3:                  --c|", inputs: ["source", "inner 1", "inner 3"], output: "flatMapFirst", successes: false) { sources, _ in
            sources[0].asInfallible(onErrorJustReturn: "").flatMapFirst { $0 == "3" ? sources[2] : sources[1] }.asObservable()
        }
        try check("take(until: other):   --1--2-|", inputs: ["source", "other"], output: "take(until: other)", successes: false) { s, _ in
            s[0].asInfallible(onErrorJustReturn: "").take(until: s[1].asInfallible(onErrorJustReturn: "")).asObservable()
        }
        try check(
            "source1:                         --1---------2---------", inputs: ["source1", "source2"], output: "combineLatest(source1, source2)",
            successes: false
        ) {
            s, _ in
            Infallible.combineLatest(s[0].asInfallible(onErrorJustReturn: ""), s[1].asInfallible(onErrorJustReturn: "")) { "(\($0),\($1))" }.asObservable()
        }
    }

    /// ControlProperty and ControlEvent: a property's values and its changes (XCTest runs on the
    /// main thread, where the subscription is made at once), and a sequence bound to a property.
    func testControlPropertyAndEvent() throws {
        func property(_ values: Observable<String>) -> ControlProperty<String> {
            ControlProperty(values: values, valueSink: PublishSubject<String>().asObserver())
        }
        try check("property.changed:  ----b--c--|         (skip(1): the user's changes)", inputs: ["values"], output: "property", successes: false) {
            s, _ in
            property(s[0]).asObservable()
        }
        try check("property.changed:  ----b--c--|         (skip(1): the user's changes)", inputs: ["values"], output: "property.changed", successes: false) {
            s, _ in
            property(s[0]).changed.asObservable()
        }
        try check("bound:             --1--2--|", inputs: ["bound"], output: "valueSink", successes: false) { s, _ in
            // The output is what the property's sink receives while `bound` is bound to it.
            let valueSink = PublishSubject<String>()
            let property = ControlProperty(values: Observable<String>.never(), valueSink: valueSink.asObserver())
            return Observable.create { observer in
                Disposables.create(valueSink.subscribe(observer), s[0].bind(to: property))
            }
        }
    }

    /// Scheduling: the `twice` snippet, on the main thread (where XCTest runs tests).
    func testSchedulingTwiceSnippet() throws {
        XCTAssertTrue(Thread.isMainThread)
        // article:begin twice
        // On the main thread:
        let twice = Observable.just("initial")
            .asDriver(onErrorJustReturn: "")  // delivers on one MainScheduler()
            .asObservable()
            .asDriver(onErrorJustReturn: "")  // and this on another
        var state = ""
        _ = twice.drive(onNext: { state = $0 })
        // state == "initial": both deliveries ran during drive (one shared scheduler would have
        // deferred the second to the main queue)
        // article:end twice
        XCTAssertEqual(state, "initial")
        let inArticle = try article().codeBlock(containing: "let twice = Observable.just(\"initial\")")
        XCTAssertEqual(Article.compact(inArticle), Article.compact(try Article.testSnippet(in: #filePath, named: "twice")))
    }

    /// Driver and Signal: asDriver, the factories, flatMapLatest and throttle, on a TestScheduler
    /// given to `SharingScheduler.mock` (work due now runs one tick later).
    func testDriverAndSignal() throws {
        func mocked(_ build: @escaping ([Observable<String>], TestScheduler) -> Observable<String>) -> ([Observable<String>], TestScheduler) -> Observable<
            String
        > {
            { sources, scheduler in SharingScheduler.mock(scheduler: scheduler) { build(sources, scheduler) } }
        }
        let undelayed = { TestScheduler(initialClock: 0, simulateProcessingDelay: false) }
        try check(
            "source:                         --1--2--#", inputs: ["source"], output: "asDriver(onErrorJustReturn: 0)", successes: false, scheduler: undelayed,
            mocked { sources, _ in
                sources[0].asDriver(onErrorJustReturn: "0").asObservable()
            })
        try check(
            "Driver.just(a):                  (a|)", inputs: [], output: "Driver.just(a)", successes: false, scheduler: undelayed,
            mocked { _, _ in
                Driver.just("a").asObservable()
            })
        try check(
            "Driver.just(a):                  (a|)", inputs: [], output: "Driver.of(a, b)", successes: false, scheduler: undelayed,
            mocked { _, _ in
                Driver.of("a", "b").asObservable()
            })
        try check(
            "Driver.just(a):                  (a|)", inputs: [], output: "Driver<Int>.interval(3)", successes: false, prefix: true, scheduler: undelayed,
            mocked { _, _ in
                Driver<Int>.interval(.seconds(3)).asObservable().map { "\($0)" }
            })
        try check(
            "Driver.just(a):                  (a|)", inputs: [], output: "Driver<Int>.timer(5, period: 3)", successes: false, prefix: true,
            scheduler: undelayed,
            mocked { _, _ in
                Driver<Int>.timer(.seconds(5), period: .seconds(3)).asObservable().map { "\($0)" }
            })
        try check(
            "inner 2:             --c|", inputs: ["source", "inner 1", "inner 2"], output: "flatMapLatest", successes: false, scheduler: undelayed,
            mocked { sources, _ in
                sources[0].asDriver(onErrorJustReturn: "").flatMapLatest {
                    $0 == "1" ? sources[1].asDriver(onErrorJustReturn: "") : sources[2].asDriver(onErrorJustReturn: "")
                }
                .asObservable()
            })
        try check(
            "throttle(4):   -a---c-----d--|     (latest: true; timers on the sharing scheduler)", inputs: ["source"], output: "throttle(4)", successes: false,
            scheduler: undelayed,
            mocked { sources, _ in
                sources[0].asDriver(onErrorJustReturn: "").throttle(.seconds(4), latest: true).asObservable()
            })
    }
}

import Streams
import StreamsTest

/// The documentation's executable marble diagrams, one or more per operator family.
///
/// To add one: write the `///     label: marbles` lines in the operator's doc comment, add a
/// spec here (its inputs come from those lines), run `swift run streams-diagrams` to write its
/// SVG into `Sources/Streams/Streams.docc/Resources`, and embed it in the family's article with
/// `![...](marble-<name>.svg)`. `swift test` fails when a comment's output disagrees with the
/// code or an SVG is out of date.
public enum DocDiagrams {
    private static let operators = "Sources/Streams/Operators/"

    /// Every spec, in the order the SVGs are written.
    public static let all: [DiagramSpec] = [
        // Creating
        DiagramSpec(
            "just", file: operators + "Creating/Just.swift", declaration: "static func just(_ element: Element) ", inputs: [],
            caption: "Observable.just(\"a\")"
        ) { _, _ in Observable.just("a") },
        DiagramSpec(
            "empty", file: operators + "Creating/Just.swift", declaration: "static func empty()", inputs: [],
            caption: "Observable.empty()"
        ) { _, _ in Observable.empty() },
        DiagramSpec(
            "never", file: operators + "Creating/Just.swift", declaration: "static func never()", inputs: [],
            caption: "Observable.never()"
        ) { _, _ in Observable.never() },
        DiagramSpec(
            "error", file: operators + "Creating/Just.swift", declaration: "static func error(_ error: Swift.Error)", inputs: [],
            caption: "Observable.error(error)"
        ) { _, _ in Observable.error(MarbleError()) },

        // Utility
        DiagramSpec(
            "do", file: operators + "Utility/Do.swift", declaration: "public func `do`(",
            caption: "source.do(onNext: { print($0) })"
        ) { inputs, _ in inputs[0].do(onNext: { _ in }) },

        // Transforming
        DiagramSpec(
            "map", file: operators + "Transforming/Map.swift", declaration: "func map<",
            caption: "source.map { $0 * 2 }"
        ) { inputs, _ in inputs[0].map { String(Int($0)! * 2) } },
        DiagramSpec(
            "scan", file: operators + "Transforming/Scan.swift", declaration: "func scan<A>(into",
            caption: "source.scan(into: 0) { $0 += $1 }"
        ) { inputs, _ in inputs[0].scan(into: 0) { $0 += Int($1)! }.map(String.init) },

        // Filtering
        DiagramSpec(
            "filter", file: operators + "Filtering/Filter.swift", declaration: "func filter(",
            caption: "source.filter { $0.isMultiple(of: 2) }"
        ) { inputs, _ in inputs[0].filter { Int($0)!.isMultiple(of: 2) } },
        DiagramSpec(
            "distinctUntilChanged", file: operators + "Filtering/DistinctUntilChanged.swift",
            declaration: "func distinctUntilChanged() ", caption: "source.distinctUntilChanged()"
        ) { inputs, _ in inputs[0].distinctUntilChanged() },
        DiagramSpec(
            "skip", file: operators + "Filtering/Skip.swift", declaration: "func skip(_ count: Int)",
            caption: "source.skip(2)"
        ) { inputs, _ in inputs[0].skip(2) },
        DiagramSpec(
            "take", file: operators + "Filtering/Take.swift", declaration: "func take(_ count: Int)",
            caption: "source.take(2)"
        ) { inputs, _ in inputs[0].take(2) },
        DiagramSpec(
            "takeUntil", file: operators + "Filtering/TakeUntil.swift", declaration: "func take<Source: ObservableType>(until",
            inputs: [.hot, .hot], caption: "source.take(until: other)"
        ) { inputs, _ in inputs[0].take(until: inputs[1]) },

        // Combining
        DiagramSpec(
            "merge", file: operators + "Combining/Merge.swift", declaration: "static func merge(_ sources: [Observable<Element>])",
            inputs: [.hot, .hot], caption: "Observable.merge([a, b])"
        ) { inputs, _ in Observable.merge([inputs[0], inputs[1]]) },
        DiagramSpec(
            "combineLatest", file: operators + "Combining/CombineLatest.swift", declaration: "func combineLatest<O1: ObservableType, O2: ObservableType>(",
            inputs: [.hot, .hot], caption: "Observable.combineLatest(source1, source2) { $0 + $1 }"
        ) { inputs, _ in Observable.combineLatest(inputs[0], inputs[1]) { $0 + $1 } },
        DiagramSpec(
            "zip", file: operators + "Combining/Zip.swift", declaration: "func zip<O1: ObservableType, O2: ObservableType>(",
            inputs: [.hot, .hot], caption: "Observable.zip(source1, source2) { $0 + $1 }"
        ) { inputs, _ in Observable.zip(inputs[0], inputs[1]) { $0 + $1 } },
        DiagramSpec(
            "startWith", file: operators + "Combining/StartWith.swift", declaration: "func startWith(",
            caption: "source.startWith(\"a\", \"b\")"
        ) { inputs, _ in inputs[0].startWith("a", "b") },

        // Error handling
        DiagramSpec(
            "catch", file: operators + "ErrorHandling/Catch.swift", declaration: "func `catch`(",
            inputs: [.hot, .cold], caption: "source.catch { _ in handler }"
        ) { inputs, _ in inputs[0].catch { _ in inputs[1] } },
        DiagramSpec(
            "catchAndReturn", file: operators + "ErrorHandling/Catch.swift", declaration: "func catchAndReturn(",
            caption: "source.catchAndReturn(\"x\")"
        ) { inputs, _ in inputs[0].catchAndReturn("x") },

        // Time
        DiagramSpec(
            "debounce", file: operators + "Time/Debounce.swift", declaration: "func debounce(",
            caption: "source.debounce(.seconds(30), scheduler: scheduler)"
        ) { inputs, scheduler in inputs[0].debounce(.seconds(30), scheduler: scheduler) },
        DiagramSpec(
            "throttle", file: operators + "Time/Throttle.swift", declaration: "func throttle(",
            caption: "source.throttle(.seconds(40), latest: true, scheduler: scheduler)"
        ) { inputs, scheduler in inputs[0].throttle(.seconds(40), latest: true, scheduler: scheduler) },
        DiagramSpec(
            "throttleFirst", file: operators + "Time/Throttle.swift", declaration: "func throttle(", outputIndex: 1,
            caption: "source.throttle(.seconds(40), latest: false, scheduler: scheduler)"
        ) { inputs, scheduler in inputs[0].throttle(.seconds(40), latest: false, scheduler: scheduler) },
        // More filtering
        DiagramSpec(
            "distinctUntilChangedComparer", file: operators + "Filtering/DistinctUntilChanged.swift",
            declaration: "func distinctUntilChanged(_ comparer:", caption: "source.distinctUntilChanged { $0 % 2 == $1 % 2 }"
        ) { inputs, _ in inputs[0].distinctUntilChanged { Int($0)! % 2 == Int($1)! % 2 } },
        DiagramSpec(
            "elementAt", file: operators + "Filtering/ElementAt.swift", declaration: "func element(at index: Int)",
            caption: "source.element(at: 1)"
        ) { inputs, _ in inputs[0].element(at: 1) },
        DiagramSpec(
            "ignoreElements", file: operators + "Filtering/IgnoreElements.swift", declaration: "func ignoreElements()",
            caption: "source.ignoreElements()"
        ) { inputs, _ in inputs[0].ignoreElements().asCompletable().andThen(Observable<String>.empty()) },
        DiagramSpec(
            "singlePredicate", file: operators + "Filtering/SingleElement.swift", declaration: "func single(_ predicate:",
            caption: "source.single { $0 == 2 }"
        ) { inputs, _ in inputs[0].single { $0 == "2" } },
        DiagramSpec(
            "skipWhile", file: operators + "Filtering/SkipWhile.swift", declaration: "func skip(while predicate:",
            caption: "source.skip(while: { $0 < 3 })"
        ) { inputs, _ in inputs[0].skip(while: { Int($0)! < 3 }) },
        DiagramSpec(
            "skipUntil", file: operators + "Filtering/SkipUntil.swift", declaration: "func skip<Source: ObservableType>(until",
            inputs: [.hot, .hot], caption: "source.skip(until: other)"
        ) { inputs, _ in inputs[0].skip(until: inputs[1]) },
        DiagramSpec(
            "takeLast", file: operators + "Filtering/TakeLast.swift", declaration: "func takeLast(_ count: Int)",
            caption: "source.takeLast(2)"
        ) { inputs, _ in inputs[0].takeLast(2) },
        DiagramSpec(
            "takeWhile", file: operators + "Filtering/TakeWithPredicate.swift", declaration: "func take(while predicate:",
            caption: "source.take(while: { $0 < 3 })"
        ) { inputs, _ in inputs[0].take(while: { Int($0)! < 3 }) },
        DiagramSpec(
            "takeWhileInclusive", file: operators + "Filtering/TakeWithPredicate.swift", declaration: "func take(while predicate:",
            outputIndex: 1, caption: "source.take(while: { $0 < 3 }, behavior: .inclusive)"
        ) { inputs, _ in inputs[0].take(while: { Int($0)! < 3 }, behavior: .inclusive) },
        DiagramSpec(
            "takeUntilPredicate", file: operators + "Filtering/TakeWithPredicate.swift", declaration: "func take(until predicate:",
            caption: "source.take(until: { $0 == 3 })"
        ) { inputs, _ in inputs[0].take(until: { $0 == "3" }) },
        DiagramSpec(
            "sample", file: operators + "Filtering/Sample.swift", declaration: "func sample<Source: ObservableType>(",
            inputs: [.hot, .hot], caption: "source.sample(sampler, defaultValue: \"d\")"
        ) { inputs, _ in inputs[0].sample(inputs[1], defaultValue: "d") },

        // More combining
        DiagramSpec(
            "concat", file: operators + "Combining/Concat.swift", declaration: "func concat<Source: ObservableConvertibleType>(_ second",
            inputs: [.hot, .cold], caption: "source.concat(second)"
        ) { inputs, _ in inputs[0].concat(inputs[1]) },
        DiagramSpec(
            "withLatestFrom", file: operators + "Combining/WithLatestFrom.swift",
            declaration: "func withLatestFrom<Source: ObservableConvertibleType, ResultType>(", inputs: [.hot, .hot],
            caption: "source.withLatestFrom(second) { $0 + $1 }"
        ) { inputs, _ in inputs[0].withLatestFrom(inputs[1]) { $0 + $1 } },
        DiagramSpec(
            "amb", file: operators + "Combining/Amb.swift", declaration: "func amb<O2: ObservableType>(_ right: O2)",
            inputs: [.hot, .hot], caption: "source.amb(right)"
        ) { inputs, _ in inputs[0].amb(inputs[1]) },

        // More time
        DiagramSpec(
            "delay", file: operators + "Time/Delay.swift", declaration: "func delay(",
            caption: "source.delay(.seconds(30), scheduler: scheduler)"
        ) { inputs, scheduler in inputs[0].delay(.seconds(30), scheduler: scheduler) },
        DiagramSpec(
            "timeout", file: operators + "Time/Timeout.swift", declaration: "func timeout(_ dueTime: RxTimeInterval, scheduler",
            caption: "source.timeout(.seconds(50), scheduler: scheduler)"
        ) { inputs, scheduler in inputs[0].timeout(.seconds(50), scheduler: scheduler) },
        DiagramSpec(
            "takeFor", file: operators + "Filtering/TakeTime.swift", declaration: "func take(for duration:",
            caption: "source.take(for: .seconds(70), scheduler: scheduler)"
        ) { inputs, scheduler in inputs[0].take(for: .seconds(70), scheduler: scheduler) },
        DiagramSpec(
            "skipFor", file: operators + "Filtering/SkipTime.swift", declaration: "func skip(_ duration: RxTimeInterval",
            caption: "source.skip(.seconds(60), scheduler: scheduler)"
        ) { inputs, scheduler in inputs[0].skip(.seconds(60), scheduler: scheduler) },

        // More transforming
        DiagramSpec(
            "reduce", file: operators + "Transforming/Reduce.swift", declaration: "func reduce<A>(_ seed: A, accumulator",
            caption: "source.reduce(0, accumulator: +)"
        ) { inputs, _ in inputs[0].reduce(0) { $0 + Int($1)! }.map(String.init) },
    ]
}

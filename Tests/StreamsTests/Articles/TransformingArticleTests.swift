import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The marble blocks of the Transforming article (Sources/Streams/Streams.docc/Transforming.md)
/// that have no picture (no doc-comment diagram), run and compared with the article: one column per
/// tick, the source cold and subscribed at 0, and each inner sequence's lane drawn from the column
/// where it is subscribed (its times relative to that column).
final class TransformingArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/Transforming.md", testFile: #filePath) }

    /// The block's lanes: label → (column, marbles) of the lane's first run.
    private func lanes(_ anchor: String) throws -> [String: (column: Int, marbles: String)] {
        var found: [String: (column: Int, marbles: String)] = [:]
        for lane in Article.lanes(of: try article().codeBlock(containing: anchor)) {
            if let first = lane.segments.first { found[lane.label] = first }
        }
        return found
    }

    private func lane(_ lanes: [String: (column: Int, marbles: String)], _ label: String) throws -> (column: Int, marbles: String) {
        try XCTUnwrap(lanes[label], "no lane \(label)")
    }

    private func drawn(_ events: [Recorded<Event<String>>]) -> [ArticleToken] { ArticleToken.tokens(of: events) { $0 } }

    /// Runs `build` with the source lane and the inner lanes (`inner a` for element `a`, or the
    /// element's own label) and compares the result with the output lane, and each inner
    /// sequence's subscription time with its lane's column.
    private func checkInner(
        _ anchor: String, inner: @escaping (String) -> String = { "inner \($0)" }, file: StaticString = #filePath, line: UInt = #line,
        _ build: @escaping (Observable<String>, @escaping (String) -> Observable<String>) -> Observable<String>
    ) throws {
        let block = try lanes(anchor)
        let scheduler = TestScheduler(initialClock: 0)
        let sourceLane = try lane(block, "source")
        let source = scheduler.createColdObservable(ArticleToken.recordedEvents(ArticleToken.tokens(sourceLane.marbles, column: sourceLane.column)))
        var inners: [String: TestableObservable<String>] = [:]
        for (label, drawnLane) in block where label.hasPrefix("inner ") || label.count == 1 {
            inners[label] = scheduler.createColdObservable(ArticleToken.recordedEvents(ArticleToken.tokens(drawnLane.marbles)))
        }
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            build(source.asObservable()) { element in inners[inner(element)].map { $0.asObservable() } ?? .empty() }
        }
        let output = try lane(block, "output")
        XCTAssertEqual(ArticleToken.tokens(output.marbles, column: output.column), drawn(res.events), anchor, file: file, line: line)
        for (label, observable) in inners {
            XCTAssertEqual(
                observable.subscriptions.first?.subscribe, TestTime(try lane(block, label).column), "\(anchor): \(label) is drawn from its subscription",
                file: file, line: line)
        }
    }

    func testFlatMap() throws {
        try checkInner("inner b:       --3--4--|") { source, inner in source.flatMap(inner) }
    }

    func testFlatMapFirst() throws {
        try checkInner("(b arrives while a runs: dropped)") { source, inner in source.flatMapFirst(inner) }
    }

    func testMergeMaxConcurrent() throws {
        try checkInner("(maxConcurrent: 2)", inner: { $0 }) { source, inner in source.map(inner).merge(maxConcurrent: 2) }
    }

    func testConcatMap() throws {
        try checkInner("(subscribed when a completes)") { source, inner in source.concatMap(inner) }
    }

    func testFlatMapLatest() throws {
        try checkInner("(a is disposed when b arrives: 3 is dropped)") { source, inner in source.flatMapLatest(inner) }
    }

    /// The synchronous lines under flatMap and flatMapLatest.
    func testSynchronousInnerSequences() throws {
        func run(_ observable: Observable<Int>) -> String {
            var received: [String] = []
            _ = observable.subscribe(onNext: { received.append("\($0)") }, onCompleted: { received.append("|") })
            return received.joined(separator: " ")
        }
        let text = try article()
        let flatMapLine = try XCTUnwrap(text.lines.first { $0.contains("Observable.of(1, 2).flatMap { .of($0, $0 * 10) }") })
        XCTAssertTrue(flatMapLine.hasSuffix(run(Observable.of(1, 2).flatMap { Observable.of($0, $0 * 10) })), flatMapLine)
        let outer = PublishSubject<Int>()
        var received: [String] = []
        _ = outer.flatMap { _ in Observable.from(0...) }.take(3).subscribe(onNext: { received.append("\($0)") }, onCompleted: { received.append("|") })
        outer.onNext(1)
        XCTAssertTrue(text.says("outer.flatMap { _ in .from(0...) }.take(3) \(received.joined(separator: " ")) (on outer.onNext(1))"))
        let latest = run(Observable.of(1, 2, 3).flatMapLatest { Observable.of($0, $0) })
        XCTAssertTrue(text.says("output: \(latest) (each outer step queues"), "flatMapLatest gives \(latest)")
        let first = run(Observable.of(1, 2, 3).flatMapFirst { Observable.of($0, $0) })
        XCTAssertEqual(first, "1 1 |")
        XCTAssertTrue(text.says("`Observable.of(1, 2, 3).flatMapFirst { .of($0, $0) }` gives `1 1` (`2` and `3` are dropped)"))
        // flatMapLatest switching inside an element of an endless synchronous inner sequence.
        let source = PublishSubject<Int>()
        var switched: [String] = []
        _ = source.flatMapLatest { $0 == 1 ? Observable.from(0...) : Observable.of(200, 201) }.subscribe(onNext: { element in
            switched.append("\(element)")
            if element == 0 { source.onNext(2) }
        })
        source.onNext(1)
        XCTAssertTrue(text.says("observer sends 2 on receiving 0 outer.onNext(1): \(switched.joined(separator: " "))"), "flatMapLatest gives \(switched)")
    }

    func testEnumerated() throws {
        let block = try lanes("output: --(0,a)-(1,b)-(2,c)-|")
        let scheduler = TestScheduler(initialClock: 0)
        let source = try lane(block, "source")
        let xs = scheduler.createColdObservable(ArticleToken.recordedEvents(ArticleToken.tokens(source.marbles, column: source.column)))
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { xs.enumerated().map { "(\($0.index),\($0.element))" } }
        let output = try lane(block, "output")
        XCTAssertEqual(ArticleToken.tokens(output.marbles, column: output.column), drawn(res.events))
    }

    /// buffer(timeSpan: 5, count: 3): the output lane, and the buffers named under it.
    func testBuffer() throws {
        let block = try article().codeBlock(containing: "a: [1, 2, 3]  b: [4]  c: []  d: []")
        let lanes = Article.lanes(of: block)
        let source = try XCTUnwrap(lanes.first { $0.label == "source" }?.segments.first)
        let output = try XCTUnwrap(lanes.first { $0.label == "output" }?.segments.first)
        let names = Dictionary(
            uniqueKeysWithValues: try XCTUnwrap(block.last).matches(of: /(\w): (\[[^\]]*\])/).map { (String($0.1), String($0.2)) })
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable(ArticleToken.recordedEvents(ArticleToken.tokens(source.marbles, column: source.column)))
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            xs.buffer(timeSpan: .seconds(5), count: 3, scheduler: scheduler).map { "[" + $0.joined(separator: ", ") + "]" }
        }
        let documented = ArticleToken.recordedEvents(ArticleToken.tokens(output.marbles, column: output.column)).map { recorded in
            guard case .next(let name) = recorded.value else { return recorded }
            return Recorded.next(recorded.time, names[name] ?? "?\(name)")
        }
        XCTAssertEqual(documented, res.events)
    }

    /// window(timeSpan: 5, count: 3): the output lane, and each window's lane from the column where it opens.
    func testWindow() throws {
        let block = try lanes("output:  a---b----c----d--|     (count: 3, timeSpan: 5 frames)")
        let scheduler = TestScheduler(initialClock: 0)
        let source = try lane(block, "source")
        let xs = scheduler.createColdObservable(ArticleToken.recordedEvents(ArticleToken.tokens(source.marbles, column: source.column)))
        let names = ["a", "b", "c", "d"]
        var windows: [TestableObserver<String>] = []
        let bag = DisposeBag()
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            xs.window(timeSpan: .seconds(5), count: 3, scheduler: scheduler).map { window -> String in
                let observer = scheduler.createObserver(String.self)
                window.subscribe(observer).disposed(by: bag)
                windows.append(observer)
                return windows.count <= names.count ? names[windows.count - 1] : "?"
            }
        }
        let output = try lane(block, "output")
        XCTAssertEqual(ArticleToken.tokens(output.marbles, column: output.column), drawn(res.events))
        XCTAssertEqual(windows.count, names.count)
        for (name, window) in zip(names, windows) {
            let drawnLane = try lane(block, name)
            XCTAssertEqual(ArticleToken.tokens(drawnLane.marbles, column: drawnLane.column), drawn(window.events), "window \(name)")
        }
    }

    /// groupBy: the output lane, and each group's lane.
    func testGroupBy() throws {
        let block = try lanes("(keySelector: { $0 % 2 }; O: key 1, E: key 0)")
        let scheduler = TestScheduler(initialClock: 0)
        let source = try lane(block, "source")
        let xs = scheduler.createColdObservable(ArticleToken.recordedEvents(ArticleToken.tokens(source.marbles, column: source.column)))
        var groups: [String: TestableObserver<String>] = [:]
        let bag = DisposeBag()
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            xs.groupBy { Int($0)! % 2 }.map { group -> String in
                let name = group.key == 1 ? "O" : "E"
                let observer = scheduler.createObserver(String.self)
                group.subscribe(observer).disposed(by: bag)
                groups[name] = observer
                return name
            }
        }
        let output = try lane(block, "output")
        XCTAssertEqual(ArticleToken.tokens(output.marbles, column: output.column), drawn(res.events))
        for name in ["O", "E"] {
            let drawnLane = try lane(block, name)
            XCTAssertEqual(ArticleToken.tokens(drawnLane.marbles, column: drawnLane.column), drawn(try XCTUnwrap(groups[name]).events), "group \(name)")
        }
    }
}

import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The one-line timelines of the Creating article (Sources/Streams/Streams.docc/Creating.md), run
/// and compared with the article: each `expression:  marbles` line subscribed at 0 on a
/// TestScheduler `s`, one column per tick (`(…)` events at the same tick); and the orders the
/// introduction states.
final class CreatingArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/Creating.md", testFile: #filePath) }

    /// The lines `expression:  marbles   (remark)` of the block containing `anchor`.
    private func lines(_ anchor: String) throws -> [(label: String, marbles: String)] {
        try article().codeBlock(containing: anchor).compactMap { line in
            guard let match = line.firstMatch(of: /^ {4}(\S.*?\)):\s+(\S+(?: \S+)*?)(?:\s{2,}.*)?$/) else { return nil }
            return (String(match.1), String(match.2))
        }
    }

    private func check(_ anchor: String, _ builders: [String: (TestScheduler) -> Observable<String>]) throws {
        let found = try lines(anchor)
        XCTAssertEqual(Set(found.map(\.label)), Set(builders.keys), anchor)
        for (label, marbles) in found {
            guard let build = builders[label] else { continue }
            var drawn = marbles.replacingOccurrences(of: "…", with: "").replacingOccurrences(of: " ", with: "")
            if drawn.filter({ $0 == "(" }).count > drawn.filter({ $0 == ")" }).count { drawn += ")" }  // `(12345…`
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(created: 0, subscribed: 0, disposed: TestTime(max(drawn.count, 1))) { build(scheduler) }
            XCTAssertEqual(ArticleToken.tokens(drawn), articleDrawing(res.events), label)
        }
    }

    private func strings<Element>(_ observable: Observable<Element>) -> Observable<String> { observable.map { "\($0)" } }

    /// just, empty, never, error.
    func testJustEmptyNeverError() throws {
        try check(
            "just(a, scheduler: s)",
            [
                "just(a)": { _ in .just("a") }, "just(a, scheduler: s)": { .just("a", scheduler: $0) }, "empty()": { _ in .empty() },
                "never()": { _ in .never() }, "error(e)": { _ in .error(MarbleError()) },
            ])
    }

    /// of, from (array / sequence); from(1...) is endless, its first elements all at once.
    func testOfFrom() throws {
        try check(
            "Observable.of(1, 2, 3, scheduler: s)",
            [
                "Observable.of(1, 2, 3)": { _ in .of("1", "2", "3") }, "Observable.of(1, 2, 3, scheduler: s)": { .of("1", "2", "3", scheduler: $0) },
                "Observable.from([1, 2, 3])": { _ in .from(["1", "2", "3"]) },
                "Observable.from(1...)": { _ in self.strings(Observable.from(1...).take(5)).filter { _ in true }.concat(Observable.never()) },
            ])
    }

    /// from(optional:).
    func testFromOptional() throws {
        try check(
            "from(optional: nil, scheduler: s)",
            [
                "from(optional: 1)": { _ in .from(optional: "1") }, "from(optional: nil)": { _ in .from(optional: nil) },
                "from(optional: 1, scheduler: s)": { .from(optional: "1", scheduler: $0) },
                "from(optional: nil, scheduler: s)": { .from(optional: nil, scheduler: $0) },
            ])
    }

    /// range, with its two errors.
    func testRange() throws {
        try check(
            "range(start: 0, count: 3, scheduler: s)",
            [
                "range(start: 3, count: 4)": { _ in self.strings(Observable.range(start: 3, count: 4)) },
                "range(start: 0, count: 3, scheduler: s)": { self.strings(Observable.range(start: 0, count: 3, scheduler: $0)) },
                "range(start: 0, count: -1)": { _ in self.strings(Observable.range(start: 0, count: -1)) },
                "range(start: Int8(120), count: 9)": { _ in self.strings(Observable.range(start: Int8(120), count: 9)) },
            ])
        let text = try article()
        XCTAssertThrowsError(try Observable.range(start: 0, count: -1).toBlocking().toArray()) { error in
            XCTAssertEqual(error as? RxError, .argumentOutOfRange)
            XCTAssertTrue(text.says("range(start: 0, count: -1): #   (RxError.argumentOutOfRange)"))
        }
        XCTAssertThrowsError(try Observable.range(start: Int8(120), count: 9).toBlocking().toArray()) { error in
            XCTAssertEqual(error as? RxError, .overflow)
            XCTAssertTrue(text.says("range(start: Int8(120), count: 9): #   (RxError.overflow: 128 does not fit)"))
        }
    }

    /// repeatElement and generate.
    func testRepeatElementAndGenerate() throws {
        try check(
            "repeatElement(7).take(3)",
            ["repeatElement(7).take(3)": { _ in .repeatElement("7").take(3) }, "repeatElement(7, scheduler: s)": { .repeatElement("7", scheduler: $0) }])
        try check(
            "generate(initialState: 1",
            [
                "generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 })": { _ in
                    self.strings(Observable.generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 }))
                },
                "generate(initialState: 0, condition: { $0 <= 2 }, scheduler: s, iterate: { $0 + 1 })": {
                    self.strings(Observable.generate(initialState: 0, condition: { $0 <= 2 }, scheduler: $0, iterate: { $0 + 1 }))
                },
            ])
    }

    /// Overview: the trampolined orders, and scheduled steps on a TestScheduler subscribed at 200.
    func testOverviewOrders() throws {
        func run<Element>(_ observable: Observable<Element>) -> String {
            var received: [String] = []
            _ = observable.subscribe(onNext: { received.append("\($0)") })
            return received.joined(separator: " ")
        }
        let text = try article()
        XCTAssertTrue(text.says("`Observable.merge(.of(1, 2), .of(3, 4))` gives `\(run(Observable.merge(.of(1, 2), .of(3, 4))))`"))
        let pairs = run(Observable.combineLatest(Observable.of(1, 2), Observable.of(10, 20)) { "(\($0),\($1))" })
        XCTAssertTrue(text.says("`Observable.combineLatest(.of(1, 2), .of(10, 20))` gives `\(pairs)`"), pairs)
        XCTAssertTrue(text.says("`Observable.merge(.just(1), .of(2, 3), .just(4))` gives `\(run(Observable.merge(.just(1), .of(2, 3), .just(4))))`"))
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
        XCTAssertTrue(text.says("on a `TestScheduler` subscribed at 200 the elements arrive at 201, 202, … and the completion one tick after the last element"))
    }
}

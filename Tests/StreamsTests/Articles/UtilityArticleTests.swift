import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The examples of the Utility article (Sources/Streams/Streams.docc/Utility.md), run and
/// compared with the article: one column per tick from 0, a `(…)` group one event.
final class UtilityArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/Utility.md", testFile: #filePath) }

    /// "do": the order of the calls, as far as the article lists them (`…` stands for the calls
    /// of the elements in between).
    func testDo_callOrder() throws {
        let block = try article().codeBlock(containing: "calls:     onNext(1)")
        let line = try XCTUnwrap(block.first { $0.hasPrefix("calls:") }).dropFirst("calls:".count)
        let stated = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let ellipsis = try XCTUnwrap(stated.firstIndex(of: "…"))
        var calls: [String] = []
        _ = Observable.of(1, 2)
            .do(
                onNext: { calls.append("onNext(\($0))") }, afterNext: { calls.append("afterNext(\($0))") },
                onCompleted: { calls.append("onCompleted") }, afterCompleted: { calls.append("afterCompleted") },
                onDispose: { calls.append("onDispose") }
            )
            .subscribe(onNext: { calls.append("next \($0)") }, onCompleted: { calls.append("completed") })
        XCTAssertEqual(Array(calls.prefix(ellipsis)), Array(stated[..<ellipsis]))
        XCTAssertEqual(Array(calls.suffix(stated.count - ellipsis - 1)), Array(stated[(ellipsis + 1)...]))
    }

    /// "withUnretained": `o` is deallocated between 2 and 3, so 3 completes the output.
    func testWithUnretained_completesAtTheFirstElementAfterTheObjectIsGone() throws {
        final class Owner {}
        let lanes = try ArticleLanes(article(), "output:  --a--b--|")
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable(try lanes.events("source"))
        var owner: Owner? = Owner()
        let res = scheduler.createObserver(String.self)
        let subscription = source.withUnretained(owner!) { _, element in ["1": "a", "2": "b"][element] ?? "(o, \(element))" }.subscribe(res)
        let tokens = try lanes.tokens("source")
        // Released between the second and the third element, as the remark says.
        scheduler.scheduleAt(tokens[1].time + 1) { owner = nil }
        scheduler.start()
        subscription.dispose()
        XCTAssertNil(owner)
        XCTAssertEqual(try lanes.tokens("output"), articleDrawing(res.events))
    }
}

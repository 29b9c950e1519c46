import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The examples of the Combining article (Sources/Streams/Streams.docc/Combining.md) that have no
/// picture checked by ArticleDiagramsTests (amb's block is drawn with a remark the picture's
/// diagram does not have), run and compared with the article: the trampoline "step" block, the
/// 5-source combineLatest and amb timelines (one column per tick, cold sources subscribed at 0),
/// and the synchronous orders the article states.
final class CombiningArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/Combining.md", testFile: #filePath) }

    /// `A = (1,10), B = (2,10)` on a block's line: element → name.
    private func legend(_ block: [String]) -> [String: String] {
        var names: [String: String] = [:]
        for line in block {
            for match in line.matches(of: /([A-Z]) = (\([^)]*\))/) { names[String(match.2)] = String(match.1) }
        }
        return names
    }

    /// Threading, order and resultSelector, "Synchronous sources": the step block.
    func testSynchronousSources_stepBlock() throws {
        let block = try article().codeBlock(containing: "Observable.combineLatest(.of(1, 2), .of(10, 20))")
        let names = legend(block)
        let log = StepLog()
        _ = Observable.combineLatest(log.source("a", .of(1, 2)), log.source("b", .of(10, 20))) { "(\($0),\($1))" }
            .subscribe(onNext: { log.output("output", .next(names[$0] ?? $0)) }, onCompleted: { log.output("output", .completed) })
        XCTAssertEqual(try articleSteps(block), log.lanes)
    }

    /// "Synchronous sources" and startWith, amb: the synchronous orders in the text.
    func testSynchronousOrders() throws {
        func run(_ observable: Observable<Int>) -> String {
            var received: [String] = []
            _ = observable.subscribe(onNext: { received.append("\($0)") })
            return received.joined(separator: " ")
        }
        let text = try article()
        XCTAssertTrue(text.says("`Observable.merge(.just(1), .of(2, 3), .just(4))` gives `\(run(Observable.merge(.just(1), .of(2, 3), .just(4))))`"))
        let startWith = run(Observable.just(3).startWith(2).startWith(0, 1)).replacingOccurrences(of: " ", with: ", ")
        XCTAssertTrue(text.says("`just(3).startWith(2).startWith(0, 1)` gives `\(startWith)`"), startWith)
        XCTAssertTrue(text.says("`Observable.amb([.of(1, 2), .of(3, 4)])` gives `\(run(Observable.amb([.of(1, 2), .of(3, 4)])))`"))
    }

    /// combineLatest (arities 5-8) and zip (arities 3-8): the five-source block.
    func testCombineLatestFiveSources() throws {
        let lanes = try ArticleLanes(article(), "combineLatest(a, b, c, d, e)")
        let names = legend(lanes.block)
        let scheduler = TestScheduler(initialClock: 0)
        let sources = try ["a", "b", "c", "d", "e"].map { scheduler.createColdObservable(try lanes.events($0)) }
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            Observable.combineLatest(sources[0], sources[1], sources[2], sources[3], sources[4]) { names["(\($0),\($1),\($2),\($3),\($4))"] ?? "?" }
        }
        XCTAssertEqual(try lanes.tokens("output"), articleDrawing(res.events))
    }

    /// amb: b sends first and wins; a is disposed at that moment.
    func testAmb() throws {
        let lanes = try ArticleLanes(article(), "a.amb(b): b sent first")
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable(try lanes.events("a"))
        let b = scheduler.createColdObservable(try lanes.events("b"))
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { a.amb(b) }
        XCTAssertEqual(try lanes.tokens("output"), articleDrawing(res.events))
        XCTAssertEqual(a.subscriptions.first?.unsubscribe, try lanes.tokens("b").first?.time, "a is disposed when b sends")
    }
}

import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The marble blocks of the Filtering article (Sources/Streams/Streams.docc/Filtering.md) that
/// ArticleDiagramsTests does not pair with a doc-comment diagram (a variant drawn beside it, or
/// no picture), run and compared with the article: one column per tick, sources cold and
/// subscribed at 0, an inner lane drawn from the column where it is subscribed.
final class FilteringArticleTests: XCTestCase {
    private func block(_ anchor: String) throws -> [(label: String, segments: [(column: Int, marbles: String)])] {
        Article.lanes(of: try Article("Sources/Streams/Streams.docc/Filtering.md", testFile: #filePath).codeBlock(containing: anchor))
    }

    private func cold(_ lane: (column: Int, marbles: String), _ scheduler: TestScheduler, absolute: Bool = true) -> TestableObservable<String> {
        scheduler.createColdObservable(ArticleToken.recordedEvents(ArticleToken.tokens(lane.marbles, column: absolute ? lane.column : 0)))
    }

    private func drawn(_ lane: (column: Int, marbles: String)) -> [ArticleToken] { ArticleToken.tokens(lane.marbles, column: lane.column) }

    private func drawn(_ events: [Recorded<Event<String>>]) -> [ArticleToken] { ArticleToken.tokens(of: events) { $0 } }

    /// sample(_:defaultValue:): both output lanes, `defaultValue: nil` and `defaultValue: d`.
    func testSample() throws {
        let lanes = try block("(defaultValue: nil)")
        let source = try XCTUnwrap(lanes.first { $0.label == "self" }?.segments.first)
        let sampler = try XCTUnwrap(lanes.first { $0.label == "sampler" }?.segments.first)
        let outputs = lanes.filter { $0.label == "output" }.compactMap(\.segments.first)
        XCTAssertEqual(outputs.count, 2)
        for (output, defaultValue) in zip(outputs, [nil, "d"] as [String?]) {
            let scheduler = TestScheduler(initialClock: 0)
            let (xs, ys) = (cold(source, scheduler), cold(sampler, scheduler))
            let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { xs.sample(ys, defaultValue: defaultValue) }
            XCTAssertEqual(drawn(output), drawn(res.events), "defaultValue: \(defaultValue ?? "nil")")
        }
    }

    /// ifEmpty(default:) and ifEmpty(switchTo:).
    func testIfEmpty() throws {
        let lanes = try block("ifEmpty(switchTo: other)")
        let sources = lanes.filter { $0.label == "source" }.compactMap(\.segments.first)
        let outputs = lanes.filter { $0.label == "output" }.compactMap(\.segments.first)
        let other = try XCTUnwrap(lanes.first { $0.label == "other" }?.segments.first)
        XCTAssertEqual(sources.count, 2)
        XCTAssertEqual(outputs.count, 2)

        var scheduler = TestScheduler(initialClock: 0)
        var xs = cold(sources[0], scheduler)
        var res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { xs.ifEmpty(default: "d") }
        XCTAssertEqual(drawn(outputs[0]), drawn(res.events), "ifEmpty(default: d)")

        scheduler = TestScheduler(initialClock: 0)
        xs = cold(sources[1], scheduler)
        let ys = cold(other, scheduler, absolute: false)
        res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { xs.ifEmpty(switchTo: ys.asObservable()) }
        XCTAssertEqual(drawn(outputs[1]), drawn(res.events), "ifEmpty(switchTo: other)")
        XCTAssertEqual(ys.subscriptions.first?.subscribe, TestTime(other.column), "other is drawn from its subscription")
    }
}

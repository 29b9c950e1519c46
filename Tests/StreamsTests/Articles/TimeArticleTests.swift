import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time examples of the Time article (Sources/Streams/Streams.docc/Time.md), run and
/// compared with the article's text.
final class TimeArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/Time.md", testFile: #filePath) }

    /// subscribe(on:): the hot source's events and its subscription, as the block lists them.
    func testSubscribeOn_block() throws {
        let block = try article().codeBlock(containing: "start { xs.subscribe(on: scheduler) }")
        let source = try XCTUnwrap(block.first { $0.contains("xs = hot [") })
        let eventsLine = try XCTUnwrap(block.first { $0.contains("events:") })
        let subscriptionsLine = try XCTUnwrap(block.first { $0.contains("subscriptions:") })
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(try Article.recordedEvents(String(source.prefix { $0 != ";" })) { Int($0) })
        XCTAssertEqual(xs.recordedEvents.count, 2)
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(try Article.recordedEvents(eventsLine) { Int($0) }, res.events)
        let drawn = xs.subscriptions.map { "(\($0.subscribe) : \($0.unsubscribe))" }.joined(separator: ", ")
        XCTAssertEqual(subscriptionsLine.replacingOccurrences(of: "subscriptions:", with: "").trimmingCharacters(in: .whitespaces), drawn)
    }
}

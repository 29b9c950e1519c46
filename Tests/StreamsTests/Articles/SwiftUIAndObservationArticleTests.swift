#if canImport(Observation)
import Foundation
import Observation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time examples of the SwiftUIAndObservation article
/// (Sources/Streams/Streams.docc/SwiftUIAndObservation.md, section "Testing both in virtual
/// time"): its snippets, run here and compared, whitespace aside, with the article's blocks.
final class SwiftUIAndObservationArticleTests: XCTestCase {
    @Observable final class Settings {
        var query = ""
        var onlyFavourites = false
    }

    private func article() throws -> Article {
        try Article("Sources/Streams/Streams.docc/SwiftUIAndObservation.md", testFile: #filePath)
    }

    /// `observing` on a TestScheduler: a change at 300 read at 301; two changes in one action, one read.
    func testObservingSnippet() throws {
        // article:begin observing
        let scheduler = TestScheduler(initialClock: 0)
        let settings = Settings()
        _ = scheduler.scheduleAt(300) { settings.query = "swift" }
        _ = scheduler.scheduleAt(400) {
            settings.query = "rx"
            settings.query = "rxswift"
        }
        let res = scheduler.start { Observable.observing(on: scheduler) { settings.query } }
        XCTAssertEqual(res.events, [.next(200, ""), .next(301, "swift"), .next(401, "rxswift")])
        // article:end observing
        let inArticle = try article().codeBlock(containing: "Observable.observing(on: scheduler) { settings.query }")
        XCTAssertEqual(Article.compact(inArticle), Article.compact(try Article.testSnippet(in: #filePath, named: "observing")))
    }

    /// `StreamState` on a TestScheduler: each element stored one tick after the source emits it.
    func testStreamStateSnippet() throws {
        // article:begin streamState
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(230)])
        let state = StreamState(xs, initial: "", scheduler: scheduler)
        scheduler.advanceTo(210)
        XCTAssertEqual(state.value, "")  // "a" is stored at 211
        scheduler.advanceTo(211)
        XCTAssertEqual(state.value, "a")
        scheduler.start()
        XCTAssertEqual(state.value, "b")
        XCTAssertTrue(state.isCompleted)
        // article:end streamState
        let inArticle = try article().codeBlock(containing: "let state = StreamState(xs, initial: \"\", scheduler: scheduler)")
        XCTAssertEqual(Article.compact(inArticle), Article.compact(try Article.testSnippet(in: #filePath, named: "streamState")))
    }
}
#endif

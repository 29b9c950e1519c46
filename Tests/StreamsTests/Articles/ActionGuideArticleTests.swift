import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time example of the Action guide (Sources/Streams/Streams.docc/ActionGuide.md),
/// run and compared with the article: one column per tick from 0; each `work` segment is the
/// execution started by the `execute()` in its column.
final class ActionGuideArticleTests: XCTestCase {
    /// "Semantics": three calls to execute, the third while the second execution runs.
    func testSemanticsTimeline() throws {
        let article = try Article("Sources/Streams/Streams.docc/ActionGuide.md", testFile: #filePath)
        let lanes = try ArticleLanes(article, "execute():   --x")
        let scheduler = TestScheduler(initialClock: 0)
        let works = try XCTUnwrap(lanes.all["work"]).map { segment in
            scheduler.createColdObservable(ArticleToken.recordedEvents(ArticleToken.tokens(segment.marbles)))
        }
        var started = 0
        let action = Action<Void, String> { _ in
            defer { started += 1 }
            return works[started].asObservable()
        }
        let executing = scheduler.createObserver(String.self)
        let enabled = scheduler.createObserver(String.self)
        let elements = scheduler.createObserver(String.self)
        let errors = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        action.executing.map { $0 ? "t" : "f" }.subscribe(executing).disposed(by: bag)
        action.enabled.map { $0 ? "t" : "f" }.subscribe(enabled).disposed(by: bag)
        action.elements.subscribe(elements).disposed(by: bag)
        action.errors.map { error -> String in
            if case .notEnabled = error { return "N" }
            return "\(error)"
        }.subscribe(errors).disposed(by: bag)
        for call in try lanes.tokens("execute()") {
            scheduler.scheduleAt(call.time) { _ = action.execute() }
        }
        scheduler.start()

        XCTAssertEqual(try lanes.tokens("executing"), articleDrawing(executing.events))
        XCTAssertEqual(try lanes.tokens("enabled"), articleDrawing(enabled.events))
        XCTAssertEqual(try lanes.tokens("elements"), articleDrawing(elements.events))
        XCTAssertEqual(try lanes.tokens("errors"), articleDrawing(errors.events))
        for (segment, work) in zip(try XCTUnwrap(lanes.all["work"]), works) {
            XCTAssertEqual(work.subscriptions.first?.subscribe, TestTime(segment.column), "each execution is drawn from its call")
        }
    }
}

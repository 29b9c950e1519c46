import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time example of the Grammar article (Sources/Streams/Streams.docc/Grammar.md),
/// "Which sources use the trampoline", run and compared with the article's text.
final class GrammarArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/Grammar.md", testFile: #filePath) }

    /// `210:1 210:11 … 250:completed`, as the article writes recordings.
    private func recording(_ events: [Recorded<Event<Int>>]) -> String {
        events.map { recorded in
            switch recorded.value {
            case .next(let element): return "\(recorded.time):\(element)"
            case .error: return "\(recorded.time):error"
            case .completed: return "\(recorded.time):completed"
            }
        }
        .joined(separator: " ")
    }

    private func run(inner: @escaping (Int) -> Observable<Int>) -> String {
        let scheduler = TestScheduler(initialClock: 0)
        let h = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start {
            let s = h.flatMap(inner).share()
            return Observable.merge(s, s.map { $0 + 1000 }).flatMapLatest { Observable.of($0, $0 + 10) }
        }
        return recording(res.events)
    }

    func testWhichSourcesUseTheTrampoline_justAndOperatorInner() throws {
        let text = try article()
        XCTAssertTrue(text.says("`let s = h.flatMap { Observable.just($0) }.share()`"))
        let justInner = run { Observable.just($0) }
        XCTAssertTrue(text.says("records `\(justInner)`: `just` emits"), justInner)
        let operatorInner = run { Observable.just($0).map { $0 } }
        XCTAssertTrue(text.says("the same pipeline records `\(operatorInner)`"), operatorInner)
    }
}

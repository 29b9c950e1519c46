import ConfigFeatures
import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time examples of the Features-ItemList article
/// (Sources/ConfigFeatures/ConfigFeatures.docc/Features-ItemList.md, section "Semantics"), run and
/// compared with the article's text: editing the article or the view model without the other fails.
final class FeaturesItemListArticleTests: XCTestCase {
    private let article = "Sources/ConfigFeatures/ConfigFeatures.docc/Features-ItemList.md"

    private struct Item: Decodable, Equatable {
        let id: Int
        let title: String
    }

    private struct Run {
        let items: TestableObserver<[Item]>
        let isLoading: TestableObserver<Bool>
        let error: TestableObserver<String>
    }

    /// Runs the view model with `values` published at the given times and triggers at `triggers`.
    private func run(
        latency: Int, expirationDuration: TimeInterval, triggers: [TestTime], values: [(TestTime, String)], in scheduler: TestScheduler, bag: DisposeBag
    ) -> Run {
        let backend = InMemoryRemoteConfigBackend(latency: .seconds(latency), scheduler: scheduler)
        let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
        let viewModel = ItemListViewModel<Item>(remoteConfig: remoteConfig, itemsKey: "xxx_json", expirationDuration: expirationDuration, scheduler: scheduler)
        let run = Run(
            items: scheduler.createObserver([Item].self), isLoading: scheduler.createObserver(Bool.self), error: scheduler.createObserver(String.self))
        viewModel.outputs.items.subscribe(run.items).disposed(by: bag)
        viewModel.outputs.isLoading.subscribe(run.isLoading).disposed(by: bag)
        viewModel.outputs.error.map { error -> String in
            switch error {
            case .notEnabled: "N"
            case .underlyingError(let error as ItemListError):
                if case .invalidJSON = error { "E" } else { "\(error)" }
            case .underlyingError(let error): "\(error)"
            }
        }
        .subscribe(run.error).disposed(by: bag)
        for (time, json) in values { scheduler.scheduleAt(time) { backend.publish(["xxx_json": json]) } }
        for time in triggers { scheduler.scheduleAt(time) { viewModel.inputs.fetchTrigger.onNext(()) } }
        scheduler.start()
        return run
    }

    private func list(_ items: [Item]) -> String { "[" + items.map { String($0.id) }.joined(separator: ",") + "]" }

    /// Semantics, the timeline: triggers at 2, 4 (refused) and 14, latency 3, `expirationDuration: 0`.
    func testSemanticsTimeline() throws {
        let timeline = try Article(article, testFile: #filePath).timeline(containing: "fetchTrigger: -")
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let a = #"[{"id": 1, "title": "one"}, {"id": 2, "title": "two"}]"#
        let res = run(latency: 3, expirationDuration: 0, triggers: [2, 4, 14], values: [(0, a), (10, "[{oops")], in: scheduler, bag: bag)

        XCTAssertEqual(try timeline.tokens("fetchTrigger").map(\.time), [2, 4, 14])
        XCTAssertEqual(try timeline.tokens("isLoading"), ArticleToken.tokens(of: res.isLoading.events) { $0 ? "t" : "f" })
        XCTAssertEqual(try timeline.tokens("items"), ArticleToken.tokens(of: res.items.events, describe: list))
        XCTAssertEqual(try timeline.tokens("error"), ArticleToken.tokens(of: res.error.events) { $0 })
    }

    /// Semantics, the RxTest lists: latency 5, a trigger at 10, the default expiration.
    func testSemanticsEventLists() throws {
        let text = try Article(article, testFile: #filePath)
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let two = #"[{"id": 1, "title": "one"}, {"id": 2, "title": "two"}]"#
        let res = run(latency: 5, expirationDuration: 180, triggers: [10], values: [(0, two)], in: scheduler, bag: bag)

        XCTAssertEqual(try text.eventList("isLoading", in: "isLoading: [.next("), ArticleToken.eventList(res.isLoading.events) { "\($0)" })
        XCTAssertEqual(
            try text.eventList("items", in: "isLoading: [.next("),
            ArticleToken.eventList(res.items.events) { $0.isEmpty ? "[]" : "[" + $0.map { "item\($0.id)" }.joined(separator: ", ") + "]" })
        let itemsTime = try XCTUnwrap(res.items.events.last?.time)
        let loadedTime = try XCTUnwrap(res.isLoading.events.last?.time)
        XCTAssertTrue(
            text.says(
                "fetch at 10, backend answer at 15, ``RemoteConfig`` delivers at 16, the view model delivers the items at \(itemsTime) and `isLoading = false` at \(loadedTime):"
            ),
            "the sentence before the lists states other times (items at \(itemsTime), isLoading false at \(loadedTime))")
        XCTAssertEqual(res.error.events, [])
    }
}

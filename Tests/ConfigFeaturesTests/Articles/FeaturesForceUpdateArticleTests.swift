import ConfigFeatures
import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time examples of the Features-ForceUpdate article
/// (Sources/ConfigFeatures/ConfigFeatures.docc/Features-ForceUpdate.md, section "Semantics"): the
/// timeline (one column per tick) and the sentence under it, run and compared with the article's
/// text. The input lanes (startObserving, backend publish, openStoreTapped) drive the run.
final class FeaturesForceUpdateArticleTests: XCTestCase {
    private let article = "Sources/ConfigFeatures/ConfigFeatures.docc/Features-ForceUpdate.md"

    private struct Run {
        let required: TestableObserver<Bool>
        let alerts: TestableObserver<ForceUpdateAlert>
        let urls: TestableObserver<URL>
        let updates: TestableObserver<Set<String>>
        let errors: TestableObserver<String>
    }

    /// App 3.2.1, required 3.0.0, backend latency 0; 3.3.0 published at `publish`, the store
    /// tapped at `tap`; `configUpdates` also recorded from `recordUpdatesFrom`, sharing the view
    /// model's connection.
    private func run(start: TestTime, publish: TestTime, tap: TestTime, recordUpdatesFrom: TestTime, bag: DisposeBag) -> Run {
        let scheduler = TestScheduler(initialClock: 0)
        let backend = InMemoryRemoteConfigBackend(values: ["required_version": "3.0.0", "other": "1"], scheduler: scheduler)
        let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
        let viewModel = ForceUpdateViewModel(
            remoteConfig: remoteConfig, currentVersion: AppVersion("3.2.1")!, requiredVersionKey: "required_version",
            latestVersionKey: nil, storeURL: URL(string: "https://apps.apple.com/app/id1")!, scheduler: scheduler)
        let run = Run(
            required: scheduler.createObserver(Bool.self), alerts: scheduler.createObserver(ForceUpdateAlert.self),
            urls: scheduler.createObserver(URL.self), updates: scheduler.createObserver(Set<String>.self),
            errors: scheduler.createObserver(String.self))
        viewModel.outputs.isUpdateRequired.subscribe(run.required).disposed(by: bag)
        viewModel.outputs.presentAlert.subscribe(run.alerts).disposed(by: bag)
        viewModel.outputs.openStoreURL.subscribe(run.urls).disposed(by: bag)
        viewModel.outputs.error.map { "\($0)" }.subscribe(run.errors).disposed(by: bag)
        let session = SerialDisposable()
        let updates = SerialDisposable()
        scheduler.scheduleAt(start) { session.disposable = viewModel.startObserving() }
        scheduler.scheduleAt(recordUpdatesFrom) { updates.disposable = remoteConfig.configUpdates.map(\.updatedKeys).subscribe(run.updates) }
        scheduler.scheduleAt(publish) { backend.publish(["required_version": "3.3.0", "other": "2"]) }
        scheduler.scheduleAt(tap) { viewModel.inputs.openStoreTapped.onNext(()) }
        scheduler.scheduleAt(start + 1000) {
            session.dispose()
            updates.dispose()
        }
        scheduler.start()
        XCTAssertEqual(backend.realtimeConnectionCount, 1, "the recorder shares the view model's connection")
        return run
    }

    func testSemanticsTimeline() throws {
        let timeline = try Article(article, testFile: #filePath).timeline(containing: "startObserving():  ^")
        let start = try XCTUnwrap(timeline.tokens("startObserving()").first?.time)
        let publish = try XCTUnwrap(timeline.tokens("backend publish").first?.time)
        let tap = try XCTUnwrap(timeline.tokens("openStoreTapped").first?.time)
        let subscribed = try XCTUnwrap(timeline.tokens("configUpdates").first { $0.text == "^" }?.time)
        let bag = DisposeBag()
        let res = run(start: start, publish: publish, tap: tap, recordUpdatesFrom: subscribed + 1, bag: bag)

        XCTAssertEqual(try timeline.tokens("isUpdateRequired"), ArticleToken.tokens(of: res.required.events) { $0 ? "t" : "f" })
        XCTAssertEqual(try timeline.tokens("presentAlert"), ArticleToken.tokens(of: res.alerts.events) { $0.isDismissable ? "S" : "A" })
        XCTAssertEqual(try timeline.tokens("openStoreURL"), ArticleToken.tokens(of: res.urls.events) { _ in "u" })
        XCTAssertEqual(
            try timeline.tokens("configUpdates").filter { $0.text != "^" },
            ArticleToken.tokens(of: res.updates.events) { "{" + $0.sorted().joined(separator: ",") + "}" })
        // The activation the view model requests when the update arrives: subscribed as the update
        // is delivered, done one tick later (the check then reads the activated values).
        let updateTime = try XCTUnwrap(res.updates.events.first?.time)
        XCTAssertEqual(try timeline.tokens("activate()"), [ArticleToken(time: updateTime + 1, text: "(b|)")])
        XCTAssertEqual(res.errors.events, [])
    }

    func testSemanticsSentence() throws {
        let text = try Article(article, testFile: #filePath)
        let bag = DisposeBag()
        let res = run(start: 200, publish: 300, tap: 400, recordUpdatesFrom: 250, bag: bag)
        let started = try XCTUnwrap(res.required.events.first?.time)
        let updated = try XCTUnwrap(res.updates.events.first?.time)
        let required = try XCTUnwrap(res.required.events.last?.time)
        let opened = try XCTUnwrap(res.urls.events.first?.time)
        XCTAssertEqual(res.alerts.events.map(\.time), [required, opened])
        let sentence =
            "``ForceUpdateViewModel/startObserving()`` at 200 → outputs at \(started); a publish at 300 → update delivered \(updated), "
            + "activation delivered \(required - 1), outputs at \(required); a tap at 400 → outputs at \(opened)."
        XCTAssertTrue(text.says(sentence), "the article should say: \(sentence)")
    }
}

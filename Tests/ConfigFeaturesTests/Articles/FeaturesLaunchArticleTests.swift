import ConfigFeatures
import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

private struct LaunchConfig: Decodable, Equatable {
    let tabTitles: String
    let tabTitlesEn: String
}

/// The virtual-time examples of the Features-Launch article
/// (Sources/ConfigFeatures/ConfigFeatures.docc/Features-Launch.md, sections "Semantics" and
/// "Testing it"), run and compared with the article's text: editing the article or the view
/// model without the other fails.
final class FeaturesLaunchArticleTests: XCTestCase {
    private let article = "Sources/ConfigFeatures/ConfigFeatures.docc/Features-Launch.md"
    private let fresh = ["tabTitles": "ホーム", "tabTitlesEn": "home"]

    private struct Run {
        let splash: TestableObserver<Bool>
        let config: TestableObserver<String>
        let content: TestableObserver<String>
        let error: TestableObserver<String>
    }

    private func record(_ viewModel: LaunchViewModel<LaunchConfig, String>, on scheduler: TestScheduler, bag: DisposeBag) -> Run {
        let run = Run(
            splash: scheduler.createObserver(Bool.self), config: scheduler.createObserver(String.self),
            content: scheduler.createObserver(String.self), error: scheduler.createObserver(String.self))
        viewModel.outputs.isSplashVisible.subscribe(run.splash).disposed(by: bag)
        viewModel.outputs.config.map { _ in "c" }.subscribe(run.config).disposed(by: bag)
        viewModel.outputs.content.subscribe(run.content).disposed(by: bag)
        viewModel.outputs.error.map { error -> String in
            switch error {
            case .fetchTimedOut: "T"
            case .backgroundFetchFailed: "B"
            default: "\(error)"
            }
        }
        .subscribe(run.error).disposed(by: bag)
        return run
    }

    private func splash(_ value: Bool) -> String { value ? "t" : "f" }

    /// Semantics, .fetchAndActivateBeforeShowing: latency 3, timeout 10; `loadContent` is the
    /// article's cold lane.
    func testFetchAndActivate_inTime() throws {
        let timeline = try Article(article, testFile: #filePath).timeline(containing: "created at 0, backend latency 3, timeout 10:")
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let backend = InMemoryRemoteConfigBackend(values: fresh, latency: .seconds(3), scheduler: scheduler)
        let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
        // The cold observable loadContent returns, as the article draws it after its subscription `^`.
        let lane = try timeline.tokens("loadContent")
        let subscribedAt = try XCTUnwrap(lane.first { $0.text == "^" }?.time)
        let feed = scheduler.createColdObservable(
            lane.filter { $0.text != "^" }.map { $0.text == "|" ? .completed($0.time - subscribedAt) : .next($0.time - subscribedAt, $0.text) })
        let viewModel = LaunchViewModel<LaunchConfig, String>(
            remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
        ) { _ in feed.asObservable() }
        let res = record(viewModel, on: scheduler, bag: bag)
        scheduler.start()

        XCTAssertEqual(try timeline.tokens("backend"), [ArticleToken(time: 0, text: "^"), ArticleToken(time: 3, text: "a")])
        XCTAssertEqual(remoteConfig.lastFetchTime, Date(timeIntervalSince1970: 3))
        XCTAssertEqual(try timeline.tokens("isSplashVisible"), ArticleToken.tokens(of: res.splash.events, describe: splash))
        XCTAssertEqual(try timeline.tokens("config"), ArticleToken.tokens(of: res.config.events) { $0 })
        XCTAssertEqual(feed.subscriptions.map(\.subscribe), [subscribedAt])
        XCTAssertEqual(try timeline.tokens("content"), ArticleToken.tokens(of: res.content.events) { $0 })
        XCTAssertEqual(res.error.events, [])
    }

    /// Semantics, .fetchAndActivateBeforeShowing: latency 20, timeout 5.
    func testFetchAndActivate_timeout() throws {
        let timeline = try Article(article, testFile: #filePath).timeline(containing: "backend latency 20, timeout 5:")
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let backend = InMemoryRemoteConfigBackend(values: fresh, latency: .seconds(20), scheduler: scheduler)
        let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
        let viewModel = LaunchViewModel<LaunchConfig, String>(
            remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(5), scheduler: scheduler
        ) { _ in .empty() }
        remoteConfig.setDefaults(["tabTitles": "メイク", "tabTitlesEn": "make"])
        let res = record(viewModel, on: scheduler, bag: bag)
        scheduler.start()

        XCTAssertEqual(try timeline.tokens("backend"), [ArticleToken(time: 0, text: "^"), ArticleToken(time: 20, text: "a")])
        XCTAssertEqual(remoteConfig.lastFetchTime, Date(timeIntervalSince1970: 20), "stored as fetched")
        XCTAssertEqual(remoteConfig["tabTitlesEn"].stringValue, "make", "NOT activated")
        XCTAssertEqual(try timeline.tokens("isSplashVisible"), ArticleToken.tokens(of: res.splash.events, describe: splash))
        XCTAssertEqual(try timeline.tokens("config"), ArticleToken.tokens(of: res.config.events) { $0 })
        XCTAssertEqual(try timeline.tokens("error"), ArticleToken.tokens(of: res.error.events) { $0 })
    }

    /// Semantics, .activateCachedThenFetch: latency 3; the error lane from a run whose background fetch fails.
    func testActivateCachedThenFetch() throws {
        let timeline = try Article(article, testFile: #filePath).timeline(containing: "hidden at once (one tick on TestScheduler)")
        for failing in [false, true] {
            let scheduler = TestScheduler(initialClock: 0)
            let bag = DisposeBag()
            let backend = InMemoryRemoteConfigBackend(values: fresh, latency: .seconds(3), scheduler: scheduler)
            if failing { backend.failNextFetches(1, with: .network(message: "offline")) }
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            remoteConfig.setDefaults(["tabTitles": "メイク", "tabTitlesEn": "make"])
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .activateCachedThenFetch, timeout: .seconds(10), scheduler: scheduler
            ) { _ in .empty() }
            let res = record(viewModel, on: scheduler, bag: bag)
            scheduler.start()

            XCTAssertEqual(try timeline.tokens("isSplashVisible"), ArticleToken.tokens(of: res.splash.events, describe: splash))
            XCTAssertEqual(try timeline.tokens("config"), ArticleToken.tokens(of: res.config.events) { $0 })
            if failing {
                XCTAssertEqual(try timeline.tokens("error"), ArticleToken.tokens(of: res.error.events) { $0 })
            } else {
                XCTAssertEqual(res.error.events, [])
                XCTAssertEqual(try timeline.tokens("backend").last, ArticleToken(time: 4, text: "a"))
                XCTAssertEqual(remoteConfig.lastFetchTime, Date(timeIntervalSince1970: 4), "answered at 4")
                XCTAssertEqual(remoteConfig["tabTitlesEn"].stringValue, "make", "not activated now")
            }
        }
    }

    /// Testing it: the article's snippet, run here; the two must stay the same code.
    func testTestingItSnippet() throws {
        // article:begin testing-it
        let scheduler = TestScheduler(initialClock: 0)
        let backend = InMemoryRemoteConfigBackend(values: ["tabTitles": "ホーム", "tabTitlesEn": "home"], latency: .seconds(20), scheduler: scheduler)
        let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
        remoteConfig.setDefaults(["tabTitles": "メイク", "tabTitlesEn": "make"])
        let feed = scheduler.createColdObservable([.next(1, "feed"), .completed(1)])
        let viewModel = LaunchViewModel<LaunchConfig, String>(
            remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing,
            timeout: .seconds(5), scheduler: scheduler
        ) { _ in feed.asObservable() }
        let splash = scheduler.createObserver(Bool.self)
        _ = viewModel.outputs.isSplashVisible.subscribe(splash)
        scheduler.start()
        XCTAssertEqual(splash.events, [.next(0, true), .next(5, false)])  // hidden at the timeout
        XCTAssertEqual(feed.subscriptions, [Subscription(5, 6)])  // requested at once
        // article:end testing-it
        viewModel.dispose()
        let inArticle = try Article(article, testFile: #filePath).codeBlock(containing: "XCTAssertEqual(splash.events")
        XCTAssertEqual(Article.compact(inArticle), Article.compact(try Article.testSnippet(in: #filePath, named: "testing-it")))
    }
}

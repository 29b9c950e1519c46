import ConfigFeatures
import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time examples of the RemoteConfigGuide article
/// (Sources/ConfigFeatures/ConfigFeatures.docc/RemoteConfigGuide.md, sections "Fetching",
/// "Throttling", "Realtime updates" and "Testing"), run and compared with the article's text: one
/// column per tick, 1 tick = 1 s.
final class RemoteConfigGuideArticleTests: XCTestCase {
    private let path = "Sources/ConfigFeatures/ConfigFeatures.docc/RemoteConfigGuide.md"

    private func article() throws -> Article { try Article(path, testFile: #filePath) }

    /// A lane's events after its `^`, with times counted from the `^`.
    private func afterSubscription(_ marbles: String) throws -> [ArticleToken] {
        let tokens = ArticleToken.tokens(marbles.replacingOccurrences(of: ".", with: "-"))
        let subscription = try XCTUnwrap(tokens.first { $0.text == "^" }, "no ^ in \(marbles)")
        return tokens.filter { $0.time > subscription.time }.map { ArticleToken(time: $0.time - subscription.time, text: $0.text) }
    }

    private func drawn(_ events: [Recorded<Event<RemoteConfigFetchStatus>>], subscribed: TestTime) -> [ArticleToken] {
        ArticleToken.tokens(of: events, origin: subscribed) { $0 == .success ? "s" : "\($0)" }
    }

    /// Fetching: a fetch that calls the backend (latency 5), one served from the last fetch, one that fails.
    func testFetchingTimeline() throws {
        let timeline = try article().timeline(containing: "fetch (latency 5):")

        // A fetch that calls the backend, which answers 5 ticks later.
        var scheduler = TestScheduler(initialClock: 0)
        var backend = InMemoryRemoteConfigBackend(values: ["a": "1"], latency: .seconds(5), scheduler: scheduler)
        var remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
        let fetched = scheduler.start { remoteConfig.fetch().asObservable() }
        XCTAssertEqual(try afterSubscription(try lane(timeline, "fetch (latency 5)")), drawn(fetched.events, subscribed: 200))
        XCTAssertEqual(backend.fetchCount, 1)

        // A fetch within the interval of the last successful one: no backend call.
        scheduler = TestScheduler(initialClock: 0)
        backend = InMemoryRemoteConfigBackend(values: ["a": "1"], latency: .seconds(5), scheduler: scheduler)
        remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
        _ = scheduler.recordEvents(subscribed: 100) { remoteConfig.fetch().asObservable() }
        scheduler.advanceTo(150)
        let cached = scheduler.start { remoteConfig.fetch().asObservable() }
        XCTAssertEqual(try afterSubscription(try lane(timeline, "cached")), drawn(cached.events, subscribed: 200))
        XCTAssertEqual(backend.fetchCount, 1, "served from the last fetch")

        // A fetch whose backend call fails.
        scheduler = TestScheduler(initialClock: 0)
        backend = InMemoryRemoteConfigBackend(values: ["a": "1"], latency: .seconds(5), scheduler: scheduler)
        remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
        backend.failNextFetches(1, with: .network(message: "offline"))
        let failed = scheduler.start { remoteConfig.fetch().asObservable() }
        XCTAssertEqual(try afterSubscription(try lane(timeline, "failure")), drawn(failed.events, subscribed: 200))
        XCTAssertEqual(remoteConfig.lastFetchStatus, .failure)
    }

    private func lane(_ timeline: Timeline, _ label: String) throws -> String {
        try XCTUnwrap(timeline.lanes.first { $0.label == label }?.marbles, "no lane \(label)")
    }

    /// Throttling: a 429, a fetch that fails fast, and the first fetch at `until`, which calls the
    /// backend again (a second 429: the interval doubles). Latency 1, `r = 0.5`; the dots are the
    /// wait until `until`, not to scale.
    func testThrottlingTimeline() throws {
        let block = try article().codeBlock(containing: "(until = t+120, then +240")
        let lanes = Article.lanes(of: block)
        let fetchSegments = try XCTUnwrap(lanes.first { $0.label == "fetch" }?.segments)
        let fetches = fetchSegments.map(\.marbles)
        XCTAssertEqual(fetches.count, 3)
        // The backend answers (429) one tick after the first and the third request.
        let answers = try XCTUnwrap(lanes.first { $0.label == "backend" }?.segments)
        let requests = fetchSegments.map { $0.column + (Array($0.marbles).firstIndex(of: "^") ?? 0) }
        XCTAssertEqual(answers.map(\.column), [requests[0] + 1, requests[2] + 1])
        XCTAssertEqual(answers.map(\.marbles), ["429", "429"])
        let scheduler = TestScheduler(initialClock: 0)
        let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], latency: .seconds(1), scheduler: scheduler)
        let remoteConfig = RemoteConfig(
            backend: backend, settings: RemoteConfigSettings(minimumFetchInterval: 0), scheduler: scheduler, randomSource: { 0.5 })
        backend.failNextFetches(2, with: .rateLimited)
        let first = scheduler.recordEvents(subscribed: 100) { remoteConfig.fetch().asObservable() }
        let fast = scheduler.recordEvents(subscribed: 110) { remoteConfig.fetch().asObservable() }
        scheduler.advanceTo(111)
        let until = try XCTUnwrap(remoteConfig.throttledUntil)
        let atUntil = TestTime(until.timeIntervalSince1970)
        let third = scheduler.recordEvents(subscribed: atUntil) { remoteConfig.fetch().asObservable() }
        scheduler.start()

        XCTAssertEqual(try afterSubscription(fetches[0]), drawn(first.events, subscribed: 100), "the first fetch")
        XCTAssertEqual(try afterSubscription(fetches[1]), drawn(fast.events, subscribed: 110), "the fetch that fails fast")
        XCTAssertEqual(try afterSubscription(fetches[2]), drawn(third.events, subscribed: atUntil), "the fetch at until")
        XCTAssertEqual(backend.fetchCount, 2, "the throttled fetch made no backend call")
        // t is the backend's answer (latency 1 after the request).
        XCTAssertEqual(first.events, [.error(102, RemoteConfigError.throttled(until: Date(timeIntervalSince1970: 101 + 120)))])
        XCTAssertEqual(third.events, [.error(atUntil + 2, RemoteConfigError.throttled(until: Date(timeIntervalSince1970: Double(atUntil + 1 + 240))))])
    }

    /// Realtime updates: three publications, nothing activated (latency 0).
    func testRealtimeTimeline() throws {
        let timeline = try article().timeline(containing: "backend publish:")
        let scheduler = TestScheduler(initialClock: 0)
        let backend = InMemoryRemoteConfigBackend(values: ["a": "1", "b": "1", "c": "1"], scheduler: scheduler)
        let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
        _ = scheduler.recordEvents(subscribed: 10) { remoteConfig.fetchAndActivate().asObservable() }
        scheduler.advanceTo(50)
        let origin: TestTime = 100
        let templates: [String: [String: String]] = [
            "2": ["a": "1", "b": "2", "c": "2"], "3": ["a": "1", "b": "2", "c": "2"], "4": ["a": "2", "b": "2", "c": "2"],
        ]
        for token in try timeline.tokens("backend publish") {
            let values = try XCTUnwrap(templates[token.text], "publication \(token.text)")
            scheduler.scheduleAt(origin + token.time) { backend.publish(values) }
        }
        let res = scheduler.start(created: 50, subscribed: origin, disposed: 1_000) { remoteConfig.configUpdates }
        let subscription = try XCTUnwrap(try timeline.tokens("configUpdates").first)
        XCTAssertEqual(subscription.text, "^")
        XCTAssertEqual(
            Array(try timeline.tokens("configUpdates").dropFirst()),
            ArticleToken.tokens(of: res.events, origin: origin) { "{" + $0.updatedKeys.sorted().joined(separator: ",") + "}" })
        XCTAssertEqual(backend.templateVersion, 4)
    }

    /// Testing: the article's snippet, run here.
    func testTestingSnippet() throws {
        // article:begin testing
        let scheduler = TestScheduler(initialClock: 0)
        let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], latency: .seconds(5), scheduler: scheduler)
        let remoteConfig = RemoteConfig(
            backend: backend, settings: RemoteConfigSettings(minimumFetchInterval: 0),
            scheduler: scheduler, randomSource: { 0.5 })
        backend.failNextFetches(1, with: .rateLimited)
        let res = scheduler.start { remoteConfig.fetch() }
        XCTAssertEqual(res.events, [.error(206, RemoteConfigError.throttled(until: Date(timeIntervalSince1970: 325)))])
        XCTAssertEqual(backend.fetchCount, 1)
        // article:end testing
        let inArticle = try article().codeBlock(containing: "backend.failNextFetches(1, with: .rateLimited)")
        XCTAssertEqual(Article.compact(inArticle), Article.compact(try Article.testSnippet(in: #filePath, named: "testing")))
    }
}

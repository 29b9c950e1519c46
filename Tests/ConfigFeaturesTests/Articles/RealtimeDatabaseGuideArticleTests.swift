import ConfigFeatures
import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time examples of the RealtimeDatabaseGuide article
/// (Sources/ConfigFeatures/ConfigFeatures.docc/RealtimeDatabaseGuide.md, sections
/// "observeValue(at:)", "Testing with InMemoryRealtimeDatabase" and the local-first
/// acknowledgement timeline), run and compared with the article's text.
final class RealtimeDatabaseGuideArticleTests: XCTestCase {
    private let article = "Sources/ConfigFeatures/ConfigFeatures.docc/RealtimeDatabaseGuide.md"

    /// observeValue(at:): the writes lane drives the run; the line under it is what the observer gets.
    func testObserveValueTimeline() throws {
        let block = try Article(article, testFile: #filePath).codeBlock(containing: "writes (TestScheduler):")
        let writes = try XCTUnwrap(block.first { $0.hasPrefix("writes") })
        let received = try XCTUnwrap(block.last)
        let scheduler = TestScheduler(initialClock: 0)
        let database = InMemoryRealtimeDatabase(scheduler: scheduler)
        let parsed = writes.matches(of: /@(\d+) set (\w+)=(\d+)/)
        XCTAssertEqual(parsed.count, 4)
        for write in parsed {
            let (path, value) = (String(write.2), JSONValue.number(Double(write.3)!))
            scheduler.scheduleAt(TestTime(write.1)!) { try? database.setValue(value, at: path) }
        }
        let res = scheduler.start { database.observeValue(at: "x") }
        let drawn = res.events.compactMap { recorded -> String? in
            guard case .next(let value) = recorded.value else { return nil }
            switch value {
            case .null: return "\(recorded.time): null"
            case .number(let number): return "\(recorded.time): \(Int(number))"
            default: return "\(recorded.time): \(value)"
            }
        }
        let documented = received.matches(of: /(\d+: \S+)/).map { String($0.1) }
        XCTAssertEqual(documented, drawn)
    }

    /// Testing with InMemoryRealtimeDatabase: the article's snippet, run here.
    func testTestingSnippet() throws {
        // article:begin testing
        let scheduler = TestScheduler(initialClock: 0)
        let database = InMemoryRealtimeDatabase(scheduler: scheduler)
        try database.setValue("a", at: "x")
        scheduler.scheduleAt(300) { try? database.setValue("b", at: "x") }
        let res = scheduler.start { database.observeValue(at: "x") }
        XCTAssertEqual(res.events, [.next(201, "a"), .next(301, "b")])
        XCTAssertEqual(database.activeObserverCount, 0)  // start() disposed the subscription at 1000
        // article:end testing
        let inArticle = try Article(article, testFile: #filePath).codeBlock(containing: "let database = InMemoryRealtimeDatabase(scheduler: scheduler)")
        XCTAssertEqual(Article.compact(inArticle), Article.compact(try Article.testSnippet(in: #filePath, named: "testing")))
    }

    /// Persistence: the article's restart snippet, run here.
    func testPersistenceSnippet() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("RealtimeDatabaseGuideArticleTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scheduler = TestScheduler(initialClock: 0)
        let server = InMemoryRealtimeDatabase(scheduler: scheduler)
        // article:begin persistence
        let first = LocalFirstRealtimeDatabase(remote: server, persistence: .file(directory: folder, maximumCacheSize: 10_000_000), scheduler: scheduler)
        first.goOffline()
        _ = first.setValue("hello", at: "greeting").subscribe()  // on disk, not sent
        // ... the process ends; a new one creates the database on the same folder:
        let second = LocalFirstRealtimeDatabase(remote: server, persistence: .file(directory: folder, maximumCacheSize: 10_000_000), scheduler: scheduler)
        let pending = scheduler.recordEvents(subscribed: 100, disposed: 1000) { second.pendingWriteCount }
        scheduler.start()
        XCTAssertEqual(pending.events, [.next(101, 0)])  // sent at once on creation, acknowledged by 101
        XCTAssertEqual(try server.value(at: "greeting"), "hello")
        // article:end persistence
        let inArticle = try Article(article, testFile: #filePath).codeBlock(containing: "let first = LocalFirstRealtimeDatabase(")
        XCTAssertEqual(Article.compact(inArticle), Article.compact(try Article.testSnippet(in: #filePath, named: "persistence")))
    }

    /// Local-first writes and offline: the acknowledgement that overtakes the server's data.
    func testLocalFirstAcknowledgementTimeline() throws {
        let block = try Article(article, testFile: #filePath).codeBlock(containing: "reads arrive 30 ticks late")
        XCTAssertEqual(block.count, 3)
        let scheduler = TestScheduler(initialClock: 0)
        let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1])
        let database = LocalFirstRealtimeDatabase(
            remote: DelayedLinkDatabase(base: server, scheduler: scheduler, reads: 30), scheduler: scheduler,
            reconnectBackoff: BackoffPolicy(initialDelay: 10, jitter: 0))
        let values = scheduler.recordEvents(subscribed: 200, disposed: 1000) { database.observeValue(at: "x") }
        let write = scheduler.recordEvents(subscribed: 310, disposed: 1000) { database.setValue(2, at: "x") }
        scheduler.scheduleAt(300) { database.goOffline() }
        scheduler.scheduleAt(400) { database.goOnline() }
        scheduler.start()
        let drawn = values.events.compactMap { recorded -> String? in
            guard case .number(let number)? = recorded.value.element else { return nil }
            return "\(recorded.time): \(Int(number))"
        }
        XCTAssertEqual(block[1].matches(of: /(\d+: \d+)/).map { String($0.1) }, drawn)
        XCTAssertEqual(block[2].matches(of: /(\d+): \(\) \|/).map { TestTime($0.1)! }, write.events.filter { $0.value.isCompleted }.map(\.time))
    }

    /// Adding latency in tests: the article's copy of `DelayedLinkDatabase` is the test support
    /// file's code (Tests/ConfigFeaturesTests/Support/DelayedLinkDatabase.swift).
    func testDelayedLinkDatabaseCopyIsTheTestSupportCode() throws {
        let inArticle = try Article(article, testFile: #filePath).codeBlock(containing: "final class DelayedLinkDatabase: RealtimeDatabase")
        let support = Article.packageRoot(from: #filePath).appendingPathComponent("Tests/ConfigFeaturesTests/Support/DelayedLinkDatabase.swift")
        let inTests = try Article.testSnippet(in: support.path, named: "delayed-link")
        XCTAssertGreaterThan(inTests.count, 20)
        XCTAssertEqual(Article.compact(inArticle), Article.compact(inTests))
    }

    /// Local-first writes and offline, "When queued writes go": a write queued while the server is
    /// unreachable goes at the next backoff probe after the server is back, not when it is back.
    func testReconnectTimeline() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let server = InMemoryRealtimeDatabase(scheduler: scheduler)
        server.connectivity = .offline
        let link = SendLog(base: server, scheduler: scheduler)
        let database = LocalFirstRealtimeDatabase(
            remote: link, scheduler: scheduler, reconnectBackoff: BackoffPolicy(initialDelay: 10, multiplier: 2, jitter: 0))
        let connected = scheduler.recordEvents(subscribed: 200, disposed: 1000) { database.observeValue(at: ".info/connected") }
        let write = scheduler.recordEvents(subscribed: 200, disposed: 1000) { database.setValue(1, at: "x") }
        scheduler.scheduleAt(250) { server.connectivity = .online }
        scheduler.start()
        let block = try Article(article, testFile: #filePath).codeBlock(containing: "server unreachable until 250")
        XCTAssertEqual(block.count, 4)
        let drawn = connected.events.compactMap { recorded -> String? in
            guard case .bool(let value)? = recorded.value.element else { return nil }
            return "\(recorded.time): \(value)"
        }
        XCTAssertEqual(block[2].matches(of: /(\d+: (?:true|false))/).map { String($0.1) }, drawn)
        XCTAssertEqual(block[3].matches(of: /(\d+): \(\) \|/).map { TestTime($0.1)! }, write.events.filter { $0.value.isCompleted }.map(\.time))
        XCTAssertEqual(try server.value(at: "x"), 1)
        XCTAssertEqual(link.sent.withLock { $0 }, [200, 211, 232, 273])  // the write, then a probe after 10, 20 and 40 ticks
        XCTAssertTrue(try Article(article, testFile: #filePath).says("probes fail @212 and @233"))
        XCTAssertTrue(try Article(article, testFile: #filePath).says("the next probe is due at 273"))
    }
}

/// A server whose write requests are logged with the virtual time they are sent.
private final class SendLog: RealtimeDatabase, @unchecked Sendable {
    // Safety: immutable references to thread-safe objects; `sent` is a LockedState.
    let base: InMemoryRealtimeDatabase
    let scheduler: TestScheduler
    let sent = LockedState<[TestTime]>([])

    init(base: InMemoryRealtimeDatabase, scheduler: TestScheduler) {
        self.base = base
        self.scheduler = scheduler
    }

    func observeValue(at path: String) -> Observable<JSONValue> { base.observeValue(at: path) }
    func getValue(at path: String) -> Observable<JSONValue> { base.getValue(at: path) }
    func childByAutoId() -> String { base.childByAutoId() }
    func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> {
        Observable.deferred { [base, scheduler, sent] in
            sent.withLock { $0.append(scheduler.clock) }
            return base.perform(write)
        }
    }
}

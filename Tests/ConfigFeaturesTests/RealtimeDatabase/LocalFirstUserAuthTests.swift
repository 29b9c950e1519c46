import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// `LocalFirstRealtimeDatabase` over a `FirebaseRESTDatabase` signed in through a
/// `FirebaseAuth`: the cache and the pending writes belong to one user.
final class LocalFirstUserAuthTests: XCTestCase {
    private var directory: URL!
    private let base = URL(string: "https://db.test")!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("LocalFirstUserAuthTests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func rest(_ transport: FakeHTTPTransport, _ scheduler: TestScheduler, auth: FirebaseAuth) -> FirebaseRESTDatabase {
        FirebaseRESTDatabase(
            databaseURL: base, auth: .user(auth), scheduler: scheduler, reconnectBackoff: BackoffPolicy(initialDelay: 10, maximumDelay: 40), requestTimeout: 9,
            randomSource: { 0.5 }, transport: transport)
    }

    private func local(_ remote: FirebaseRESTDatabase, _ scheduler: TestScheduler, persistence: RealtimeDatabasePersistence? = nil)
        -> LocalFirstRealtimeDatabase
    {
        LocalFirstRealtimeDatabase(
            remote: remote, persistence: persistence ?? .file(directory: directory, maximumCacheSize: 1_000_000), scheduler: scheduler,
            reconnectBackoff: BackoffPolicy(initialDelay: 10, multiplier: 2, maximumDelay: 40, jitter: 0), random: { 0.5 })
    }

    /// The `auth=` parameter of a request (`nil` without one).
    private func token(of request: WireRequest) -> String? {
        URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "auth" }?.value
    }

    /// The writes sent (method, path, the token's user), oldest first.
    private func writes(_ transport: FakeHTTPTransport) -> [String] {
        transport.sentRequests.filter { $0.request.method != .get }.map { sent in
            let user = token(of: sent.request).flatMap(FirebaseRESTDatabase.Core.tokenUserID) ?? "nobody"
            return "\(sent.request.method.rawValue.uppercased()) \(sent.request.url.path) as \(user)"
        }
    }

    func testUsers_aQueuedWriteIsNeverSentAsAnotherUserAndWaitsForItsOwn() throws {
        weak var weakDatabase: LocalFirstRealtimeDatabase?
        weak var weakAuth: FirebaseAuth?
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler, signedInAs: "alice")
            authTransport.reply(.signedIn("bob"), .signedIn("alice", 2))
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.json(.null), .json(.null))
            let database = local(rest(transport, scheduler, auth: auth), scheduler)
            weakDatabase = database
            weakAuth = auth
            scheduler.scheduleAt(100) { database.goOffline() }
            let alicesWrite = scheduler.recordEvents(subscribed: 110) { database.setValue("from alice", at: "x") }
            let count = scheduler.recordEvents(subscribed: 120, disposed: 900) { database.pendingWriteCount.distinctUntilChanged() }
            scheduler.scheduleAt(200) { auth.signOut() }
            _ = scheduler.recordEvents(subscribed: 210) { auth.signIn(email: "bob@example.com", password: "pw") }
            scheduler.scheduleAt(300) { database.goOnline() }
            let bobsWrite = scheduler.recordEvents(subscribed: 310) { database.setValue("from bob", at: "y") }
            _ = scheduler.recordEvents(subscribed: 400) { auth.signIn(email: "alice@example.com", password: "pw") }
            scheduler.advanceTo(1000)
            XCTAssertEqual(writes(transport), ["PUT /y.json as bob", "PUT /x.json as alice"], "alice's write waited for alice")
            XCTAssertEqual(bobsWrite.events.count, 2)
            XCTAssertEqual(alicesWrite.events.count, 2, "completed once acknowledged, after alice signed in again")
            XCTAssertGreaterThan(try XCTUnwrap(alicesWrite.events.first?.time), 400)
            XCTAssertEqual(count.events.map(\.value.element), [1, 0, 1, 0, 1, 0], "each user's own count: alice 1, signed out 0, bob 1 then 0, alice 1 then 0")
            database.goOffline()
        }
        XCTAssertNil(weakDatabase)
        XCTAssertNil(weakAuth)
    }

    func testUsers_anotherUserNeverSeesTheCacheAndRelaunchesKeepEachUsersOwn() throws {
        // Launch 1, alice: her data is cached, and a write waits offline.
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, _) = try makeTestAuth(scheduler, signedInAs: "alice")
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let database = local(rest(transport, scheduler, auth: auth), scheduler)
            scheduler.scheduleAt(150) {
                transport.stream(0)?.open()
                transport.stream(0)?.send(ssePut("/", "alice's"))
            }
            let seen = scheduler.recordEvents(subscribed: 100, disposed: 300) { database.observeValue(at: "x") }
            scheduler.scheduleAt(400) { database.goOffline() }
            _ = scheduler.recordEvents(subscribed: 410, disposed: 420) { database.setValue("queued", at: "y") }
            scheduler.advanceTo(500)
            XCTAssertEqual(seen.events.map(\.value), [.next("alice's")])
            XCTAssertNil(database.persistenceError)
        }
        // Launch 2, bob: alice's cache is not shown, her write is not sent.
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, _) = try makeTestAuth(scheduler, signedInAs: "bob")
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let database = local(rest(transport, scheduler, auth: auth), scheduler)
            scheduler.scheduleAt(150) {
                transport.stream(0)?.open()
                transport.stream(0)?.send(ssePut("/", "bob's"))
            }
            let seen = scheduler.recordEvents(subscribed: 100, disposed: 300) { database.observeValue(at: "x") }
            let count = scheduler.recordEvents(subscribed: 100, disposed: 300) { database.pendingWriteCount }
            scheduler.advanceTo(500)
            XCTAssertEqual(seen.events.map(\.value), [.next("bob's")], "nothing before the server's answer: alice's cache is hers")
            XCTAssertEqual(count.events.map(\.value.element), [0])
            XCTAssertEqual(writes(transport), [])
            XCTAssertEqual(transport.streams.map { token(of: $0.request) }, [testIDToken("bob", 1)])
            database.goOffline()
        }
        // Launch 3, alice again: her cache shows at once and her write is sent, as her.
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, _) = try makeTestAuth(scheduler, signedInAs: "alice")
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.json(.null))
            let database = local(rest(transport, scheduler, auth: auth), scheduler)
            let seen = scheduler.recordEvents(subscribed: 100, disposed: 300) { database.observeValue(at: "x") }
            scheduler.advanceTo(500)
            XCTAssertEqual(seen.events.map(\.value), [.next("alice's")], "from the cache: the server never answers in this launch")
            XCTAssertEqual(writes(transport), ["PUT /y.json as alice"])
            database.goOffline()
        }
    }

    func testUsers_aUserSigningInWhileTheAppIsOfflineWaitsForGoOnline() throws {
        // Launch 1, alice: a write waits on disk.
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, _) = try makeTestAuth(scheduler, signedInAs: "alice")
            let database = local(rest(FakeHTTPTransport(scheduler: scheduler), scheduler, auth: auth), scheduler)
            database.goOffline()
            _ = database.setValue("queued", at: "y").subscribe()
            scheduler.advanceTo(10)
        }
        // Launch 2, bob, offline; alice signs in: her database opens offline, and sends at goOnline().
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, authTransport) = try makeTestAuth(scheduler, signedInAs: "bob")
            authTransport.reply(.signedIn("alice", 2))
            let transport = FakeHTTPTransport(scheduler: scheduler)
            transport.reply(.json(.null))
            let database = local(rest(transport, scheduler, auth: auth), scheduler)
            let connected = scheduler.recordEvents(subscribed: 50, disposed: 900) { database.observeValue(at: ".info/connected").distinctUntilChanged() }
            scheduler.scheduleAt(100) { database.goOffline() }
            _ = scheduler.recordEvents(subscribed: 200) { auth.signIn(email: "alice@example.com", password: "pw") }
            scheduler.advanceTo(300)
            XCTAssertEqual(writes(transport), [], "offline: alice's restored write waits")
            database.goOnline()
            scheduler.advanceTo(1000)
            XCTAssertEqual(writes(transport), ["PUT /y.json as alice"])
            XCTAssertEqual(connected.events.map(\.value.element), [true, false, true])
            database.goOffline()
        }
    }

    func testUsers_theFilesRecordWhoseTheyAre() throws {
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, _) = try makeTestAuth(scheduler, signedInAs: "alice")
            let database = local(rest(FakeHTTPTransport(scheduler: scheduler), scheduler, auth: auth), scheduler)
            database.goOffline()
            _ = database.setValue(1, at: "x").subscribe()
            scheduler.advanceTo(10)
        }
        let users = directory.appendingPathComponent("users")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: users.path), ["user-alice"])
        XCTAssertEqual(
            try JSONValue(parsing: Data(contentsOf: users.appendingPathComponent("user-alice/owner.json"))), ["uid": "alice"])
        // Alice's files put where bob's belong are refused, and left alone.
        try FileManager.default.moveItem(at: users.appendingPathComponent("user-alice"), to: users.appendingPathComponent("user-bob"))
        let scheduler = TestScheduler(initialClock: 0)
        let (auth, _) = try makeTestAuth(scheduler, signedInAs: "bob")
        let transport = FakeHTTPTransport(scheduler: scheduler)
        let database = local(rest(transport, scheduler, auth: auth), scheduler)
        guard case .foreignFile(_, let reason)? = database.persistenceError else { return XCTFail("\(String(describing: database.persistenceError))") }
        XCTAssertEqual(reason, "the files of another user")
        let read = scheduler.recordEvents(subscribed: 100) { database.observeValue(at: "x") }
        scheduler.advanceTo(200)
        guard case .error(RealtimeDatabasePersistenceError.foreignFile)? = read.events.first?.value else { return XCTFail("\(read.events)") }
        XCTAssertEqual(writes(transport), [])
        // A database without a FirebaseAuth does not use a user's files either.
        let plain = LocalFirstRealtimeDatabase(
            remote: InMemoryRealtimeDatabase(scheduler: scheduler),
            persistence: .file(directory: users.appendingPathComponent("user-bob"), maximumCacheSize: 1000),
            scheduler: scheduler)
        guard case .foreignFile? = plain.persistenceError else { return XCTFail("\(String(describing: plain.persistenceError))") }
        // discardFiles removes every user's files.
        try RealtimeDatabasePersistence.discardFiles(in: directory)
        XCTAssertFalse(FileManager.default.fileExists(atPath: users.path))
    }

    func testUsers_observersMoveToTheNewUsersData() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let (auth, _) = try makeTestAuth(scheduler, signedInAs: "alice")
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let database = local(rest(transport, scheduler, auth: auth), scheduler, persistence: RealtimeDatabasePersistence.none)
            scheduler.scheduleAt(150) {
                transport.stream(0)?.open()
                transport.stream(0)?.send(ssePut("/", "alice's"))
            }
            scheduler.scheduleAt(200) { auth.signOut() }
            scheduler.scheduleAt(250) {
                transport.stream(1)?.open()
                transport.stream(1)?.send(ssePut("/", "public"))
            }
            let seen = scheduler.recordEvents(subscribed: 100, disposed: 300) { database.observeValue(at: "x") }
            scheduler.advanceTo(400)
            XCTAssertEqual(seen.events.map(\.value), [.next("alice's"), .next("public")])
            XCTAssertEqual(transport.streams.map { token(of: $0.request) }, [testIDToken("alice", 1), nil])
            XCTAssertEqual(transport.streams.map(\.isDisposed), [true, true])
        }
    }
}

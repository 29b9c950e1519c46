import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// The group chat under `GroupCommentsListener.securityRules` on the loopback server, with real
/// `FirebaseAuth` users: who is let in and who is not, for each rule.
///
/// ann belongs to g1; bob to g1 and g2. g1 holds ann's comment c1; g2 holds a comment the admin
/// stored as a string (the seed's layout).
final class GroupCommentsRulesTests: FirebaseTestServerTestCase {
    private struct User {
        let auth: FirebaseAuth
        let uid: String
        let database: FirebaseRESTDatabase
    }

    private var ann: User!
    private var bob: User!

    override func setUpWithError() throws {
        try super.setUpWithError()
        ann = try signUp("ann@example.com")
        bob = try signUp("bob@example.com")
        try server.setDatabaseValue(
            [
                "Users": .object([ann.uid: ["g1": true], bob.uid: ["g1": true, "g2": true]]),
                "Groups": [
                    "g1": ["c1": ["author": .string(ann.uid), "text": "hello", "timestamp": 1]],
                    "g2": ["from the admin"],
                ],
            ], at: "/")
        try server.setDatabaseRules(GroupCommentsListener.securityRules)
    }

    override func tearDown() {
        ann = nil
        bob = nil
        super.tearDown()
    }

    private func signUp(_ email: String) throws -> User {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rules-\(email)")
        let auth = FirebaseAuth(apiKey: server.apiKey, endpoints: server.endpoints, scheduler: scheduler, requestTimeout: networkTimeout)
        let user = try auth.createUser(email: email, password: "secret1").toBlocking(timeout: networkTimeout).single()
        let database = try FirebaseRESTDatabase(
            endpoints: server.endpoints, auth: .user(auth), scheduler: scheduler,
            reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2), requestTimeout: networkTimeout)
        return User(auth: auth, uid: user.uid, database: database)
    }

    /// `nil` when `source` completes, else its error.
    private func outcome<Element>(_ source: Observable<Element>) -> Error? {
        switch source.toBlocking(timeout: networkTimeout).materialize() {
        case .completed: return nil
        case .failed(_, let error): return error
        }
    }

    private func outcome(_ completable: Completable) -> Error? {
        outcome(completable.asObservable())
    }

    private func assertAllowed(_ error: Error?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(error, "\(what) should be allowed", file: file, line: line)
    }

    private func assertDenied(_ error: Error?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        guard case .permissionDenied? = error as? FirebaseRESTDatabaseError else {
            return XCTFail("\(what) should be denied, got \(String(describing: error))", file: file, line: line)
        }
    }

    // MARK: - Loading

    func testSecurityRules_loadIntoTheTestServerAsTheyAre() throws {
        XCTAssertEqual(server.databaseRules, GroupCommentsListener.securityRules)
        let admin = ["Authorization": "Bearer owner"]
        let url = server.databaseURL("/.settings/rules")
        XCTAssertEqual(
            try client.send("PUT", url, body: Data(GroupCommentsListener.securityRules.utf8), headers: admin).status, 200, "as Firebase's REST API deploys it")
        XCTAssertEqual(try client.send("GET", url, headers: admin).text, GroupCommentsListener.securityRules)
    }

    // MARK: - Reading

    func testReading_aUserReadsTheirOwnMembershipAndTheirGroupsOnly() throws {
        assertAllowed(outcome(ann.database.getValue(at: "Users/\(ann.uid)")), "ann reading her membership")
        XCTAssertEqual(try ann.database.getValue(at: "Users/\(ann.uid)").toBlocking(timeout: networkTimeout).single(), ["g1": true])
        assertDenied(outcome(ann.database.getValue(at: "Users/\(bob.uid)")), "ann reading bob's membership")
        assertDenied(outcome(ann.database.getValue(at: "Users")), "ann reading every membership")

        assertAllowed(outcome(ann.database.getValue(at: "Groups/g1")), "ann reading g1, her group")
        assertAllowed(outcome(bob.database.getValue(at: "Groups/g1")), "bob reading g1, his group")
        assertAllowed(outcome(bob.database.getValue(at: "Groups/g2")), "bob reading g2, his group")
        assertDenied(outcome(ann.database.getValue(at: "Groups/g2")), "ann reading g2 (not a member)")
        assertDenied(outcome(ann.database.getValue(at: "Groups")), "ann reading every group")

        let nobody = try FirebaseRESTDatabase(
            endpoints: server.endpoints, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "rules-nobody"), requestTimeout: networkTimeout)
        assertDenied(outcome(nobody.getValue(at: "Groups/g1")), "a client with no one signed in reading g1")
        assertDenied(outcome(nobody.getValue(at: "Users/\(ann.uid)")), "a client with no one signed in reading ann's membership")
    }

    func testReading_theListenerMergesTheGroupsTheUserMayRead() throws {
        XCTAssertNoLeaksEventually {
            let listener = GroupCommentsListener(database: bob.database)
            let comments = EventRecorder(listener.listen(user: bob.uid))
            XCTAssertTrue(comments.wait { $0.last == .next(["g1": ["hello"], "g2": ["from the admin"]]) }, "\(comments.events)")
            comments.dispose()
        }
    }

    // MARK: - Writing

    func testWriting_aMemberPostsAsThemselvesOnly() throws {
        let annListener = GroupCommentsListener(database: ann.database)
        assertAllowed(outcome(annListener.post("hi all", to: "g1", as: ann.uid)), "ann posting to g1 as herself")
        let g1 = try XCTUnwrap(try server.databaseValue(at: "Groups/g1").objectValue)
        let posted = try XCTUnwrap(g1.first { $0.key != "c1" }?.value)
        XCTAssertEqual(posted["author"]?.stringValue, ann.uid)
        XCTAssertEqual(posted["text"], "hi all")
        XCTAssertNotNil(posted["timestamp"]?.numberValue, "the server's timestamp")

        assertDenied(outcome(annListener.post("I am bob", to: "g1", as: bob.uid)), "ann posting to g1 as bob")
        assertDenied(outcome(annListener.post("let me in", to: "g2", as: ann.uid)), "ann posting to g2 (not a member)")
        let anonymous = GroupCommentsListener(
            database: try FirebaseRESTDatabase(endpoints: server.endpoints, scheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "rules-nobody")))
        assertDenied(outcome(anonymous.post("hi", to: "g1", as: ann.uid)), "a client with no one signed in posting")

        // Another member's comment is theirs: bob cannot change or delete it; ann can.
        let edit: JSONValue = ["author": .string(bob.uid), "text": "edited", "timestamp": RealtimeDatabaseServerValue.timestamp]
        assertDenied(outcome(bob.database.setValue(edit, at: "Groups/g1/c1")), "bob overwriting ann's comment")
        assertDenied(outcome(bob.database.setValue("edited", at: "Groups/g1/c1/text")), "bob editing ann's comment's text")
        assertDenied(outcome(bob.database.removeValue(at: "Groups/g1/c1")), "bob deleting ann's comment")
        assertAllowed(outcome(ann.database.setValue("hello, edited", at: "Groups/g1/c1/text")), "ann editing her comment's text")
        assertAllowed(outcome(ann.database.removeValue(at: "Groups/g1/c1")), "ann deleting her comment")

        // Nobody but the admin writes a whole group or a membership.
        assertDenied(outcome(bob.database.setValue(["x": edit], at: "Groups/g2")), "bob replacing the whole of g2")
        assertDenied(outcome(ann.database.setValue(true, at: "Users/\(ann.uid)/g2")), "ann adding herself to g2")
        assertDenied(outcome(ann.database.removeValue(at: "Users/\(ann.uid)/g1")), "ann removing herself from g1")
        XCTAssertEqual(try server.databaseValue(at: "Users/\(ann.uid)"), ["g1": true])
        XCTAssertEqual(try server.databaseValue(at: "Groups/g2"), ["from the admin"])
    }

    func testWriting_aMalformedCommentIsRefusedByValidate() throws {
        let now = RealtimeDatabaseServerValue.timestamp
        let author = JSONValue.string(ann.uid)
        func post(_ comment: JSONValue) -> Error? { outcome(ann.database.push(comment, at: "Groups/g1")) }

        assertAllowed(post(["author": author, "text": "ok", "timestamp": now]), "a well-formed comment")
        assertAllowed(post(["author": author, "text": .string(String(repeating: "a", count: 1000)), "timestamp": now]), "1,000 characters")
        assertDenied(post(["author": author, "text": .string(String(repeating: "a", count: 1001)), "timestamp": now]), "1,001 characters")
        assertDenied(post(["author": author, "text": "", "timestamp": now]), "an empty text")
        assertDenied(post(["author": author, "text": 42, "timestamp": now]), "a number as text")
        assertDenied(post(["author": author, "timestamp": now]), "no text")
        assertDenied(post(["text": "ok", "timestamp": now]), "no author")
        assertDenied(post(["author": author, "text": "ok"]), "no timestamp")
        assertDenied(post(["author": author, "text": "ok", "timestamp": 1]), "a timestamp in the past")
        assertDenied(post(["author": author, "text": "ok", "timestamp": 99_999_999_999_999]), "a timestamp in the future")
        assertDenied(post(["author": author, "text": "ok", "timestamp": "now"]), "a string as timestamp")
        assertDenied(post(["author": author, "text": "ok", "timestamp": now, "pinned": true]), "an extra field")
        assertDenied(post("a bare string"), "a string comment (the seed's, admin only)")
        XCTAssertEqual(try server.databaseValue(at: "Groups/g1").objectValue?.count, 3, "c1 and the two accepted comments")
    }

    func testAdmin_bypassesTheRules() throws {
        let admin = ["Authorization": "Bearer owner"]
        XCTAssertEqual(try client.send("GET", server.databaseURL("/Users"), headers: admin).status, 200)
        XCTAssertEqual(try client.send("PUT", server.databaseURL("/Users/\(ann.uid)/g2"), json: true, headers: admin).status, 200, "the admin adds ann to g2")
        XCTAssertEqual(
            try client.send("POST", server.databaseURL("/Groups/g2"), json: "a bare string", headers: admin).status, 200, "no .validate for the admin")
        assertAllowed(outcome(ann.database.getValue(at: "Groups/g2")), "ann reading g2 once the admin added her")
        try server.removeDatabaseValue(at: "Users/\(ann.uid)/g2")
        assertDenied(outcome(ann.database.getValue(at: "Groups/g2")), "ann reading g2 once the admin removed her")
    }

    // MARK: - The listener when a member is removed

    /// The admin removes bob from g1: the server cancels bob's listen of g1, g1 leaves bob's
    /// merged stream, g2 keeps flowing, and nothing fails.
    func testRemovedMember_theGroupLeavesTheMergedStreamAndTheOthersKeepFlowing() throws {
        try XCTAssertNoLeaksEventually {
            let listener = GroupCommentsListener(database: bob.database)
            let comments = EventRecorder(listener.listen(user: bob.uid))
            XCTAssertTrue(comments.wait { $0.last == .next(["g1": ["hello"], "g2": ["from the admin"]]) }, "\(comments.events)")
            XCTAssertTrue(server.waitForOpenStreams(3, route: .database))

            try server.removeDatabaseValue(at: "Users/\(bob.uid)/g1")
            XCTAssertTrue(comments.wait { $0.last == .next(["g2": ["from the admin"]]) }, "\(comments.events)")
            XCTAssertTrue(server.waitForOpenStreams(2, route: .database), "bob's membership and g2")

            try server.setDatabaseValue("still here", at: "Groups/g2/1")
            XCTAssertTrue(comments.wait { $0.last == .next(["g2": ["from the admin", "still here"]]) }, "\(comments.events)")
            XCTAssertFalse(comments.isTerminated, "the merged stream goes on")
            XCTAssertEqual(bob.database.activeObserverCount, 2)
            comments.dispose()
        }
    }

    /// With a membership list the server does not update (it still names g1), the cancelled
    /// listen alone takes g1 out: reported as `groupAccessDenied`, never as a failure.
    func testRemovedMember_theCancelledListenAloneTakesTheGroupOutQuietly() throws {
        try XCTAssertNoLeaksEventually {
            let listener = GroupCommentsListener(database: bob.database)
            let diagnostics = EventRecorder(listener.diagnostics)
            let membership = BehaviorSubject(value: ["g1", "g2"])
            let comments = EventRecorder(listener.listen(membership.asObservable()))
            XCTAssertTrue(comments.wait { $0.last == .next(["g1": ["hello"], "g2": ["from the admin"]]) }, "\(comments.events)")

            try server.removeDatabaseValue(at: "Users/\(bob.uid)/g1")
            XCTAssertTrue(comments.wait { $0.last == .next(["g2": ["from the admin"]]) }, "\(comments.events)")
            XCTAssertTrue(diagnostics.wait { $0.contains(.next(.groupAccessDenied(groupID: "g1"))) }, "\(diagnostics.events)")
            try server.setDatabaseValue("still here", at: "Groups/g2/1")
            XCTAssertTrue(comments.wait { $0.last == .next(["g2": ["from the admin", "still here"]]) }, "\(comments.events)")

            // Added back by the admin, and named again by the membership: observed again.
            try server.setDatabaseValue(true, at: "Users/\(bob.uid)/g1")
            membership.onNext(["g1", "g2"])
            XCTAssertTrue(comments.wait { $0.last == .next(["g1": ["hello"], "g2": ["from the admin", "still here"]]) }, "\(comments.events)")
            XCTAssertNil(comments.error)
            comments.dispose()
            diagnostics.dispose()
        }
    }

    // MARK: - Local-first

    /// A comment the rules refuse, queued while offline: shown at once, sent once when back
    /// online, then reverted and reported with the typed error; not retried, not lost silently.
    func testLocalFirst_aRefusedQueuedPostIsRevertedAndReported() throws {
        try XCTAssertNoLeaksEventually {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rules-local-first")
            let database = LocalFirstRealtimeDatabase(
                remote: ann.database, scheduler: scheduler, reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2, jitter: 0))
            let listener = GroupCommentsListener(database: database)
            let comments = EventRecorder(listener.listen(BehaviorSubject(value: ["g1"]).asObservable()))
            let pending = EventRecorder(database.pendingWriteCount)
            XCTAssertTrue(comments.wait { $0.last == .next(["g1": ["hello"]]) }, "\(comments.events)")

            database.goOffline()
            let refused = EventRecorder(listener.post("I am bob", to: "g1", as: bob.uid).asObservable())
            let accepted = EventRecorder(listener.post("I am ann", to: "g1", as: ann.uid).asObservable())
            XCTAssertTrue(comments.wait { $0.last == .next(["g1": ["I am bob", "I am ann", "hello"]]) }, "shown at once: \(comments.events)")
            XCTAssertTrue(pending.wait { $0.last == .next(2) })
            database.goOnline()

            XCTAssertTrue(refused.waitForTermination())
            guard case .permissionDenied? = refused.error as? FirebaseRESTDatabaseError else {
                return XCTFail("expected permissionDenied, got \(refused.events)")
            }
            XCTAssertTrue(accepted.waitForTermination())
            XCTAssertNil(accepted.error)
            XCTAssertTrue(comments.wait { $0.last == .next(["g1": ["I am ann", "hello"]]) }, "the refused comment is reverted: \(comments.events)")
            XCTAssertTrue(pending.wait { $0.last == .next(0) }, "nothing left queued")
            // The refused post went out once (a 401 "Permission denied" is the rules' answer, not
            // a stale token: no refresh, no retry); then the queue moved on to ann's post, in
            // order: it is never sent again.
            let puts = server.requests(on: .database).filter { $0.method == "PUT" && $0.path.hasPrefix("/Groups/g1/") }.map(\.body)
            XCTAssertEqual(puts.count, 2)
            XCTAssertEqual(puts.filter { String(decoding: $0, as: UTF8.self).contains("I am bob") }.count, 1)
            XCTAssertTrue(String(decoding: try XCTUnwrap(puts.last), as: UTF8.self).contains("I am ann"))
            XCTAssertEqual(server.requests(on: .authTokenRefresh).count, 0)
            XCTAssertEqual(try server.databaseValue(at: "Groups/g1").objectValue?.count, 2)
            comments.dispose()
            pending.dispose()
        }
    }
}

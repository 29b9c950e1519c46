// group-comments-demo: the group chat of the user's seed article (004) on the embedded Realtime Database.
//
// user1 belongs to group0 and group1; comments arrive; user1 joins group2, a comment arrives
// there; user1 leaves group0 and its comments disappear; a malformed group shows up as a
// diagnostic. After each change the demo prints how many database listeners are active, and
// at the end it disposes the subscription and shows that none is left. Then user1 posts while
// offline from a local-first client (GroupCommentsOfflineDemo.swift): the comment shows on the
// phone at once and reaches user2's client when the phone is back online. Then the app keeps its
// database in files and is relaunched with no network (GroupCommentsRelaunchDemo.swift): the last
// comments show at once, from the files, and the post made before closing it is sent, once, when
// the network is back. On the embedded
// database it then shows the chat-scale mode: a group of 10,000 comments followed through a
// window of its 5 newest, where a new comment moves one row (GroupCommentsChatScaleDemo.swift). With `--local-server`
// the database is the loopback server, read over REST and Server-Sent Events (one stream per
// listener) and written through its Swift API; the server requires database auth, so user1
// signs in with email and password and user2 anonymously (FirebaseAuth against the server's
// Auth emulator), a client with no one signed in is refused, and after the server's clock moves
// an hour user1's client refreshes its expired ID token by itself; then the server loads the group
// chat's Security Rules (GroupCommentsRulesDemo.swift): each user reads only their groups, user2 is
// refused reading and posting where the rules say no, and when the admin removes user1 from a
// group, that group leaves user1's stream and the other keeps flowing. With `--database-url` the live variant follows
// `Users/user1` and its groups in the real database (see Guides/Networking.md).
//
// Run: swift run group-comments-demo
import Foundation
import ConfigFeatures
import ConfigFeaturesTestServer
import Streams

/// The seed's database.json.
private let seedDatabaseJSON = """
    {
      "Groups" : {
        "group0" : [ "comment0-0", "comment0-1", "comment0-2" ],
        "group1" : [ "comment1-0", "comment1-1", "comment1-2" ],
        "group2" : [ "comment2-0", "comment2-1", "comment2-2" ]
      },
      "Users" : {
        "user1" : [ "group0", "group1" ]
      }
    }
    """

private func describe(_ snapshot: [String: [String]]) -> String {
    if snapshot.isEmpty { return "(no groups)" }
    return snapshot.keys.sorted().map { group in
        "\n              \(group): \(snapshot[group]!.isEmpty ? "(none)" : snapshot[group]!.joined(separator: ", "))"
    }.joined()
}

/// Runs the seed-004 group comments demo on the embedded database and returns when it is done.
public func runGroupCommentsDemo() {
    runGroupCommentsDemo(backends: .embedded)
}

/// Runs the group comments demo for `options` (starting and stopping a loopback server for
/// `--local-server`).
///
/// - Throws: `FirebaseTestServerError` when the loopback server cannot start.
public func runGroupCommentsDemo(options: DemoOptions) throws(FirebaseTestServerError) {
    let backends = try DemoBackends(options: options)
    defer { backends.stop() }
    runGroupCommentsDemo(backends: backends)
}

/// Runs the group comments demo on `backends`: the scripted storyline (embedded or loopback
/// server), or the live variant against a real database.
public func runGroupCommentsDemo(backends: DemoBackends) {
    if case .project(let database) = backends.database {
        runLiveGroupCommentsDemo(database: database, backends: backends)
        return
    }
    if let note = backends.databaseNote { print(note) }
    let timeline = DemoTimeline()
    let queue = DispatchQueue(label: "group-comments-demo.database")
    let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
    var signedIn: (users: DemoUsers, user1: FirebaseUser, user2: FirebaseUser)?
    if let server = backends.server, backends.database == .localServer {
        server.requireDatabaseAuth()
        switch backends.signInLocalUsers(scheduler: scheduler) {
        case .success(let result): signedIn = result
        case .failure(let error):
            print("Could not sign the users in: \(error)")
            server.allowUnauthenticatedDatabaseAccess()
            return
        }
    }
    // The other demos of a run on the same server read without a user.
    defer { if signedIn != nil { backends.server?.allowUnauthenticatedDatabaseAccess() } }
    let store: ScriptedDatabase
    do {
        store = try backends.scriptedDatabase(
            seed: JSONValue(parsing: seedDatabaseJSON), latency: .milliseconds(30), scheduler: scheduler, users: signedIn?.users)
    } catch {
        print("Could not seed the database: \(error)")
        return
    }
    let listener = GroupCommentsListener(database: store.database)
    let pause: TimeInterval = 0.15

    // Over HTTP a snapshot may take longer than the pause on a busy machine: there, each step
    // first waits (bounded) for the snapshot it causes, so the timeline keeps its order.
    let snapshots = DispatchSemaphore(value: 0)
    func awaitSnapshot() {
        if store.isLocalServer, snapshots.wait(timeout: .now() + 10) == .timedOut { timeline.log("(no snapshot within 10 s)") }
    }

    func step(_ text: String, snapshot: Bool = true, _ write: () throws -> Void) {
        timeline.log(text)
        do { try write() } catch { timeline.log("write failed: \(error)") }
        if snapshot { awaitSnapshot() }
        Thread.sleep(forTimeInterval: pause)
        timeline.log("active listeners: \(store.activeListenerCount)")
    }

    if store.isLocalServer {
        print("Group comments: the database is the loopback server, read over REST and Server-Sent Events.")
    } else {
        print("Group comments: the database delivers on a serial queue with 30 ms latency.")
    }
    timeline.log("seeded the database with the seed's database.json")
    if let signedIn, let server = backends.server {
        runSignInSection(server: server, user1: signedIn.user1, user2: signedIn.user2, scheduler: scheduler, timeline: timeline)
    }

    let diagnostics = listener.diagnostics.named("groupComments.diagnostics").subscribe(onNext: { diagnostic in
        timeline.log("diagnostic: \(diagnostic)")
    })
    timeline.log("user1 starts listening to the comments of their groups (Users/user1)")
    let subscription = listener.listen(user: "user1").named("groupComments.comments").subscribe(onNext: { snapshot in
        timeline.log("comments:\(describe(snapshot))")
        snapshots.signal()
    })
    awaitSnapshot()
    Thread.sleep(forTimeInterval: pause)
    timeline.log("active listeners: \(store.activeListenerCount) (Users/user1, group0, group1)")

    step("a comment arrives in group0") { try store.setValue("comment0-3", at: "Groups/group0/3") }
    step("a comment arrives in group1") { try store.setValue("comment1-3", at: "Groups/group1/3") }
    step("user1 joins group2 (group0 and group1 keep their listeners)") { try store.setValue("group2", at: "Users/user1/2") }
    step("a comment arrives in group2") { try store.setValue("comment2-3", at: "Groups/group2/3") }
    step("user1 leaves group0 (its comments disappear)") { try store.setValue(["group1", "group2"], at: "Users/user1") }
    step("a comment arrives in group0 (nobody listens: no output)", snapshot: false) { try store.setValue("comment0-4", at: "Groups/group0/4") }
    step("group1 is overwritten with a number (shown empty, with a diagnostic)") { try store.setValue(42, at: "Groups/group1") }
    step("group1 is repaired") { try store.setValue(["comment1-0", "comment1-1"], at: "Groups/group1") }

    subscription.dispose()
    diagnostics.dispose()
    queue.sync {}
    timeline.log("disposed: active listeners: \(store.activeListenerCount)")
    if let streams = store.serverStreams(settlingAt: 0) {
        timeline.log("SSE streams still open on the server: \(streams)")
    }
    if signedIn != nil, let server = backends.server {
        runTokenRefreshSection(server: server, store: store, timeline: timeline)
    }
    runPostingWhileOfflineSection(store: store, scheduler: scheduler, timeline: timeline)
    if let streams = store.serverStreams(settlingAt: 0) {
        timeline.log("SSE streams still open on the server: \(streams)")
    }
    runRelaunchOfflineSection(store: store, scheduler: scheduler, timeline: timeline)
    if let streams = store.serverStreams(settlingAt: 0) {
        timeline.log("SSE streams still open on the server: \(streams)")
    }
    if let signedIn, let server = backends.server {
        runRulesSection(server: server, store: store, user1: signedIn.user1, user2: signedIn.user2, timeline: timeline)
        if let streams = store.serverStreams(settlingAt: 0) {
            timeline.log("SSE streams still open on the server: \(streams)")
        }
    }
    if !store.isLocalServer { runChatScaleSection(timeline: timeline) }
}

/// Shows who is signed in, and that the server refuses a client with no one signed in.
private func runSignInSection(
    server: FirebaseTestServer, user1: FirebaseUser, user2: FirebaseUser, scheduler: SerialDispatchQueueScheduler, timeline: DemoTimeline
) {
    timeline.log("the server requires database auth (requireDatabaseAuth())")
    timeline.log("user1 signs in with email and password: \(describeSignedIn(user1))")
    timeline.log("user2 signs in anonymously: \(describeSignedIn(user2))")
    do {
        let nobody = try FirebaseRESTDatabase(endpoints: server.endpoints, scheduler: scheduler, requestTimeout: 10)
        switch awaitResult(nobody.getValue(at: "Users/user1").asSingle()) {
        case .success: timeline.log("a client with no one signed in read Users/user1 (unexpected: the server requires auth)")
        case .failure(let error):
            if case .permissionDenied? = error as? FirebaseRESTDatabaseError {
                timeline.log("a client with no one signed in reads Users/user1: refused, permission denied")
            } else {
                timeline.log("a client with no one signed in reads Users/user1: \(error)")
            }
        }
    } catch {
        timeline.log("could not create a client without a user: \(error)")
    }
}

/// Moves the server's auth clock past the ID tokens' lifetime and shows each user's client
/// refreshing its token by itself on its next read.
private func runTokenRefreshSection(server: FirebaseTestServer, store: ScriptedDatabase, timeline: DemoTimeline) {
    let refreshes = server.requests(on: .authTokenRefresh).count
    server.advanceAuthClock(by: 3600)
    timeline.log("the server's auth clock moves on an hour: the users' ID tokens have expired")
    for (name, database) in [("user1", store.database), ("user2", store.otherUserDatabase)] {
        switch awaitResult(database.getValue(at: "Users/user1").asSingle()) {
        case .success:
            let refreshed = server.requests(on: .authTokenRefresh).count - refreshes
            timeline.log(
                "\(name) reads Users/user1: the expired token is refused, \(name)'s client refreshes it by itself (token refreshes: \(refreshed)) and the read succeeds"
            )
        case .failure(let error):
            timeline.log("\(name)'s read after the hour failed: \(error)")
        }
    }
}

/// The live group comments: follows `Users/user1` and the groups it lists in the real
/// database for the duration, printing every snapshot and diagnostic.
private func runLiveGroupCommentsDemo(database target: DemoOptions.DatabaseProject, backends: DemoBackends) {
    let timeline = LiveTimeline(backends: backends)
    if let note = backends.databaseNote { timeline.say(note) }
    timeline.say("Live: follows Users/user1 (a list of group IDs) and Groups/<id> (a list of comment strings).")
    let queue = DispatchQueue(label: "group-comments-demo.live")
    let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
    var user: FirebaseAuth?
    if case .signIn(let method, let apiKey) = target.credential {
        switch backends.signInToProject(method, apiKey: apiKey, authBaseURL: target.authBaseURL, scheduler: scheduler) {
        case .success(let (auth, signedIn)):
            timeline.log("signed in to the project (\(describeSignedIn(signedIn))); the database requests carry its ID token")
            user = auth
        case .failure(let error):
            timeline.log("signing in failed: \(error)")
            return
        }
    }
    let database = backends.projectDatabase(target, user: user, scheduler: scheduler)
    let listener = GroupCommentsListener(database: database)
    let finished = DispatchSemaphore(value: 0)

    // One plain read first: it shows what the database holds and surfaces a refused
    // credential or an unreachable host (the listener reports those only as diagnostics).
    let read = DispatchSemaphore(value: 0)
    let probe = database.getValue(at: "Users/user1").subscribe(
        onNext: { value in timeline.log("Users/user1 = \(value)") },
        onError: { error in
            timeline.log("reading Users/user1 failed: \(error)")
            if case .permissionDenied? = error as? FirebaseRESTDatabaseError {
                timeline.log(
                    "hint: the rules refuse the read; sign in (--api-key with --anonymous or --email/--password), or pass --auth-token or --access-token")
            }
            read.signal()
        },
        onCompleted: { read.signal() }
    )
    if read.wait(timeout: .now() + 25) == .timedOut { timeline.log("reading Users/user1 took longer than 25 s") }
    probe.dispose()

    let diagnostics = listener.diagnostics.subscribe(onNext: { diagnostic in
        timeline.log("diagnostic: \(diagnostic)")
    })
    timeline.log("user1 starts listening to the comments of their groups (Users/user1)")
    let subscription = listener.listen(user: "user1").subscribe(
        onNext: { snapshot in
            timeline.log("comments:\(describe(snapshot))  [active listeners: \(database.activeObserverCount)]")
        },
        onError: { error in
            timeline.log("listening failed: \(error)")
            finished.signal()
        },
        onCompleted: {
            timeline.log("listening ended")
            finished.signal()
        }
    )
    timeline.listen(for: "database changes", until: finished)
    subscription.dispose()
    diagnostics.dispose()
    queue.sync {}
    timeline.log("disposed: active listeners: \(database.activeObserverCount)")
}

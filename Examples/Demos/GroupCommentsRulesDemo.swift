// The group chat under Security Rules (`--local-server` only): the loopback server loads
// `GroupCommentsListener.securityRules`; user1 and user2 (signed in with FirebaseAuth) each follow
// the groups they belong to, user2 is refused reading and posting where the rules say no (the
// typed error printed), posts as themselves where they say yes, and when the admin removes user1
// from a group the server cancels that group's listen: the group leaves user1's merged stream
// and the other group keeps flowing. The server's previous rules are restored at the end.
import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams

/// The latest snapshot of one listener, and a bounded wait for the one a step causes, so the
/// demo prints in storyline order whatever the network's timing.
private final class SnapshotWatch: Sendable {
    private let latest = LockedState<[String: [String]]?>(nil)
    private let changed = DispatchSemaphore(value: 0)

    func record(_ snapshot: [String: [String]]) {
        latest.withLock { $0 = snapshot }
        changed.signal()
    }

    /// Waits (at most 10 s) until the latest snapshot satisfies `expected`; returns it.
    func wait(until expected: ([String: [String]]) -> Bool) -> [String: [String]]? {
        let deadline = DispatchTime.now() + 10
        while true {
            if let snapshot = latest.withLock({ $0 }), expected(snapshot) { return snapshot }
            if changed.wait(timeout: deadline) == .timedOut { return nil }
        }
    }
}

private func describeGroups(_ snapshot: [String: [String]]?) -> String {
    guard let snapshot else { return "(no snapshot within 10 s)" }
    if snapshot.isEmpty { return "(no groups)" }
    return snapshot.keys.sorted().map { "\($0): \(snapshot[$0]!.joined(separator: ", "))" }.joined(separator: " · ")
}

/// Blocks (bounded) until `completable` ends; its error, if any.
private func awaitCompletion(_ completable: Completable) -> (any Error)? {
    switch awaitResult(completable.andThen(Single.just(()))) {
    case .success: return nil
    case .failure(let error): return error
    }
}

/// What the demo prints about a refusal: the typed error when it is the rules'.
private func describeRefusal(_ error: (any Error)?) -> String {
    guard let error else { return "allowed" }
    if case .permissionDenied? = error as? FirebaseRESTDatabaseError { return "refused: FirebaseRESTDatabaseError.permissionDenied (\(error))" }
    return "failed: \(error)"
}

/// Runs the Security Rules section on the loopback server with the storyline's signed-in users.
func runRulesSection(server: FirebaseTestServer, store: ScriptedDatabase, user1: FirebaseUser, user2: FirebaseUser, timeline: DemoTimeline) {
    let previousRules = server.databaseRules
    defer {
        do { try server.setDatabaseRules(previousRules) } catch { timeline.log("could not restore the previous rules: \(error)") }
    }
    do {
        try server.setDatabaseValue(["groupA": true, "groupB": true], at: "Users/\(user1.uid)")
        try server.setDatabaseValue(["groupB": true], at: "Users/\(user2.uid)")
        try server.setDatabaseValue(["hello from A"], at: "Groups/groupA")
        try server.setDatabaseValue(["hello from B"], at: "Groups/groupB")
        try server.setDatabaseRules(GroupCommentsListener.securityRules)
    } catch {
        timeline.log("could not set up the rules section: \(error)")
        return
    }
    timeline.log("the server loads GroupCommentsListener.securityRules: members read their groups and post as themselves")
    timeline.log("the admin makes user1 a member of groupA and groupB, user2 of groupB (Users/<uid>: {\"groupB\": true})")

    let listener1 = GroupCommentsListener(database: store.database)
    let listener2 = GroupCommentsListener(database: store.otherUserDatabase)
    let watch1 = SnapshotWatch()
    let watch2 = SnapshotWatch()
    let subscription1 = listener1.listen(user: user1.uid).subscribe(onNext: watch1.record)
    let subscription2 = listener2.listen(user: user2.uid).subscribe(onNext: watch2.record)
    defer {
        subscription1.dispose()
        subscription2.dispose()
    }
    timeline.log("user1 reads their groups: \(describeGroups(watch1.wait { $0.count == 2 }))")
    timeline.log("user2 reads their groups: \(describeGroups(watch2.wait { $0.count == 1 }))")

    switch awaitResult(store.otherUserDatabase.getValue(at: "Groups/groupA").asSingle()) {
    case .success(let value): timeline.log("user2 reads Groups/groupA (not a member): allowed (unexpected: \(value))")
    case .failure(let error): timeline.log("user2 reads Groups/groupA (not a member): \(describeRefusal(error))")
    }
    timeline.log("user2 posts to groupA (not a member): \(describeRefusal(awaitCompletion(listener2.post("let me in", to: "groupA", as: user2.uid))))")
    timeline.log("user2 posts to groupB as user1: \(describeRefusal(awaitCompletion(listener2.post("I am user1", to: "groupB", as: user1.uid))))")
    timeline.log("user2 posts to groupB as themselves: \(describeRefusal(awaitCompletion(listener2.post("hi, it's user2", to: "groupB", as: user2.uid))))")
    let hasPost: ([String: [String]]) -> Bool = { $0["groupB"]?.contains("hi, it's user2") == true }
    timeline.log("user1 sees it: \(describeGroups(watch1.wait(until: hasPost)))")

    do {
        try server.removeDatabaseValue(at: "Users/\(user1.uid)/groupB")
    } catch {
        timeline.log("could not remove user1 from groupB: \(error)")
        return
    }
    timeline.log("the admin removes user1 from groupB: the server cancels user1's listen of groupB")
    timeline.log("user1's comments, without failing: \(describeGroups(watch1.wait { $0["groupB"] == nil }))")
    do { try server.setDatabaseValue("still flowing", at: "Groups/groupA/1") } catch { timeline.log("write failed: \(error)") }
    timeline.log("a comment arrives in groupA: \(describeGroups(watch1.wait { $0["groupA"]?.contains("still flowing") == true }))")
    timeline.log("user1's active listeners: \(store.activeListenerCount) (Users/<user1>, groupA)")
}

// The "relaunch offline" part of group-comments-demo: user1's app keeps its database in files
// (RealtimeDatabasePersistence.file, in a temporary folder the demo creates and removes at the
// end). The app shows group2, goes offline, user1 posts, and the app is closed (its database
// released); user2 posts while it is closed; the app is opened again with no network, and the
// last comments, user1's post included, show at once, from the files. When the network is back
// the app gets user2's comment and sends the post, once. Runs on the embedded database and,
// with --local-server, over REST and SSE against the loopback server.
import Foundation
import ConfigFeatures
import Streams

/// The phone's network, in front of its connection to the server: while it is down, every
/// request fails at once with `RealtimeDatabaseError.network`, as on a phone without a network
/// (the server is never reached). Observations already open are not cut: the demo switches the
/// network off only while the app is closed.
final class PhoneNetwork: RealtimeDatabase, Sendable {
    private let base: any RealtimeDatabase
    private let up = LockedState(true)

    /// A network in front of `base`, up.
    init(base: any RealtimeDatabase) {
        self.base = base
    }

    /// Whether requests reach the server.
    var isUp: Bool {
        get { up.withLock { $0 } }
        set { up.withLock { $0 = newValue } }
    }

    private func through<Element>(_ request: @escaping () -> Observable<Element>) -> Observable<Element> {
        Observable.deferred { [up] in
            up.withLock { $0 } ? request() : .error(RealtimeDatabaseError.network(message: "no network on the phone"))
        }
    }

    func observeValue(at path: String) -> Observable<JSONValue> { through { [base] in base.observeValue(at: path) } }
    func getValue(at path: String) -> Observable<JSONValue> { through { [base] in base.getValue(at: path) } }
    func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> { through { [base] in base.perform(write) } }
    func childByAutoId() -> String { base.childByAutoId() }
}

/// The latest value of one stream (a client's group2, the pending writes), and a bounded wait
/// for one that satisfies a condition.
private final class Latest<Value> {
    private let latest = LockedState<Value?>(nil)
    private let changed = DispatchSemaphore(value: 0)

    func update(_ value: Value) {
        latest.withLock { $0 = value }
        changed.signal()
    }

    var value: Value? { latest.withLock { $0 } }

    /// Whether a value satisfying `condition` came within 10 s.
    func wait(until condition: (Value) -> Bool = { _ in true }) -> Bool {
        let deadline = DispatchTime.now() + 10
        while true {
            if let value, condition(value) { return true }
            if changed.wait(timeout: deadline) == .timedOut { return value.map(condition) ?? false }
        }
    }
}

/// Runs the relaunch-offline section on `store`'s server and prints it on `timeline`.
func runRelaunchOfflineSection(store: ScriptedDatabase, scheduler: SerialDispatchQueueScheduler, timeline: DemoTimeline) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("group-comments-demo-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let network: PhoneNetwork
    do {
        network = PhoneNetwork(base: try store.serverConnection(scheduler: scheduler))
    } catch {
        timeline.log("could not connect the app to the server: \(error)")
        return
    }
    func launch() -> LocalFirstRealtimeDatabase {
        let database = LocalFirstRealtimeDatabase(
            remote: network, persistence: .file(directory: folder, maximumCacheSize: 10_000_000), scheduler: scheduler,
            reconnectBackoff: BackoffPolicy(initialDelay: 0.1, maximumDelay: 1))
        if let error = database.persistenceError { timeline.log("the app's files cannot be used: \(error)") }
        return database
    }
    func line(_ comments: [String]) -> String { "group2: " + comments.joined(separator: ", ") }
    func check(_ arrived: Bool, _ what: String) {
        if !arrived { timeline.log("(\(what) did not come within 10 s)") }
    }
    let mine = "running late", theirs = "where are you?"

    timeline.log("relaunch offline: user1's app keeps its database in files (a temporary folder, removed at the end)")
    let other = Latest<[String]>()
    let onOther = GroupCommentsListener(database: store.otherUserDatabase).listen(Observable.just(["group2"])).compactMap { $0["group2"] }
        .subscribe(onNext: { comments in
            if other.value != nil { timeline.log("user2: \(line(comments))") }
            other.update(comments)
        })

    // The first launch: the app reads group2 from the server, goes offline, user1 posts, and
    // the app is closed with the post not sent.
    var app: LocalFirstRealtimeDatabase? = launch()
    let shown = Latest<[String]>()
    let onApp = GroupCommentsListener(database: app!).listen(user: "user1").compactMap { $0["group2"] }.subscribe(onNext: { comments in
        timeline.log("user1's app: \(line(comments))")
        shown.update(comments)
    })
    check(shown.wait(), "the app's comments")
    check(other.wait(), "user2's comments")
    app?.goOffline()
    timeline.log("user1's app goes offline; user1 posts \"\(mine)\" to group2")
    let firstPost = GroupCommentsListener(database: app!).post(mine, to: "group2").subscribe()
    check(shown.wait { $0.last == mine }, "the app's own comment")
    onApp.dispose()
    firstPost.dispose()
    weak let closed = app
    app = nil
    drain(scheduler)  // work the app had queued on the scheduler ends first
    timeline.log(
        closed == nil
            ? "user1 closes the app: its database is released, the post waits in the files"
            : "(the first database is still alive: two would share the folder)")

    timeline.log("user2 posts \"\(theirs)\" while the app is closed")
    do {
        try store.setValue(.string(theirs), at: "Groups/group2/\(store.database.childByAutoId())")
    } catch {
        timeline.log("user2's comment could not be written: \(error)")
    }
    check(other.wait { $0.contains(theirs) }, "user2's comment")

    // The relaunch, with no network.
    network.isUp = false
    timeline.log("the phone has no network; user1 opens the app again")
    let launched = DispatchTime.now()
    let relaunched = launch()
    let pending = Latest<Int>()
    let onPending = relaunched.pendingWriteCount.subscribe(onNext: pending.update)
    let shownAgain = Latest<[String]>()
    let onRelaunched = GroupCommentsListener(database: relaunched).listen(user: "user1").compactMap { $0["group2"] }
        .subscribe(onNext: { comments in
            let note =
                shownAgain.value == nil
                ? "  (\((DispatchTime.now().uptimeNanoseconds - launched.uptimeNanoseconds) / 1_000_000) ms after the launch, from the files, no network)" : ""
            timeline.log("user1's app: \(line(comments))\(note)")
            shownAgain.update(comments)
        })
    check(shownAgain.wait(), "the cached comments")
    Thread.sleep(forTimeInterval: 0.5)
    let (waiting, early) = (pending.value ?? 0, shownAgain.value?.contains(theirs) ?? false)
    timeline.log(
        early
            ? "user2's comment is already shown (unexpected with no network)"
            : "0.5 s later, still no network: \"\(theirs)\" is not shown yet, the post still waits (pending writes: \(waiting))")

    network.isUp = true
    timeline.log("the network is back: the app reconnects on its next retry")
    check(shownAgain.wait { $0.contains(theirs) }, "user2's comment on the app")
    check(other.wait { $0.contains(mine) }, "the post at user2's")
    check(pending.wait { $0 == 0 }, "the acknowledgement")
    timeline.log("the server acknowledged the post (pending writes: \(pending.value ?? 0))")

    onRelaunched.dispose()
    onPending.dispose()
    onOther.dispose()
}

/// Returns once the work queued on `scheduler` before the call has run (bounded: 10 s).
private func drain(_ scheduler: SerialDispatchQueueScheduler) {
    let done = DispatchSemaphore(value: 0)
    _ = scheduler.schedule(()) { _ in
        done.signal()
        return Disposables.create()
    }
    _ = done.wait(timeout: .now() + 10)
}

// The "posting while offline" part of group-comments-demo: user1's phone reads and writes
// through a LocalFirstRealtimeDatabase over the same server, user2 follows group2 from another
// client. The phone goes offline (goOffline()), user1 posts, the comment shows on the phone at
// once and not at user2's; back online (goOnline()), it is sent and user2 gets it. Runs on the
// embedded database and, with --local-server, over REST and SSE against the loopback server.
import Foundation
import ConfigFeatures
import Streams

/// What the section waits for: each client's latest group2 and the phone's pending writes.
private struct OfflineSectionState {
    var phone: [String]?
    var other: [String]?
    var pendingWrites = 0
}

/// Runs the posting-while-offline section on `store`'s server and prints it on `timeline`.
func runPostingWhileOfflineSection(store: ScriptedDatabase, scheduler: SerialDispatchQueueScheduler, timeline: DemoTimeline) {
    let phone: LocalFirstRealtimeDatabase
    do {
        phone = try store.localFirstClient(scheduler: scheduler)
    } catch {
        timeline.log("could not create the phone's client: \(error)")
        return
    }
    let phoneListener = GroupCommentsListener(database: phone)
    let otherListener = GroupCommentsListener(database: store.otherUserDatabase)
    let state = LockedState(OfflineSectionState())
    let phoneSnapshots = DispatchSemaphore(value: 0)
    let otherSnapshots = DispatchSemaphore(value: 0)
    let acknowledged = DispatchSemaphore(value: 0)
    let drained = DispatchSemaphore(value: 0)
    func wait(_ semaphore: DispatchSemaphore, for what: String) {
        if semaphore.wait(timeout: .now() + 10) == .timedOut { timeline.log("(\(what) did not come within 10 s)") }
    }
    func line(_ comments: [String]) -> String { "group2: " + comments.joined(separator: ", ") }

    timeline.log("posting while offline: user1's phone reads and writes through a LocalFirstRealtimeDatabase; user2 follows group2 from another client")
    let pending = phone.pendingWriteCount.subscribe(onNext: { count in
        let isDrained = state.withLock { state -> Bool in
            defer { state.pendingWrites = count }
            return count == 0 && state.pendingWrites > 0
        }
        if isDrained { drained.signal() }
    })
    let onPhone = phoneListener.listen(user: "user1").compactMap { $0["group2"] }.subscribe(onNext: { comments in
        state.withLock { $0.phone = comments }
        timeline.log("user1's phone: \(line(comments))")
        phoneSnapshots.signal()
    })
    let onOther = otherListener.listen(Observable.just(["group2"])).compactMap { $0["group2"] }.subscribe(onNext: { comments in
        state.withLock { $0.other = comments }
        timeline.log("user2: \(line(comments))")
        otherSnapshots.signal()
    })
    wait(phoneSnapshots, for: "the phone's comments")
    wait(otherSnapshots, for: "user2's comments")

    phone.goOffline()
    timeline.log("user1's phone goes offline (goOffline())")
    let text = "see you at 8"
    timeline.log("user1 posts \"\(text)\" to group2")
    let post = phoneListener.post(text, to: "group2").subscribe(
        onCompleted: { acknowledged.signal() },
        onError: { error in
            timeline.log("the post failed: \(error)")
            acknowledged.signal()
        })
    wait(phoneSnapshots, for: "the phone's own comment")
    Thread.sleep(forTimeInterval: 0.3)
    let (seen, waiting) = state.withLock { ($0.other?.contains(text) ?? false, $0.pendingWrites) }
    timeline.log(seen ? "user2 already has it (unexpected while offline)" : "user2 does not have it: the post waits on the phone (pending writes: \(waiting))")

    phone.goOnline()
    timeline.log("user1's phone is back online (goOnline()): the queued post is sent")
    wait(otherSnapshots, for: "user2's new comment")
    wait(acknowledged, for: "the server's acknowledgement")
    wait(drained, for: "the phone's empty write queue")
    timeline.log("the server acknowledged the post (pending writes: \(state.withLock { $0.pendingWrites }))")

    post.dispose()
    onPhone.dispose()
    onOther.dispose()
    pending.dispose()
}

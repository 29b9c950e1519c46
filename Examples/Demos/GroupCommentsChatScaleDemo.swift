// The chat-scale part of group-comments-demo: a group with 10,000 comments, followed through a
// window of its 5 newest (GroupCommentsListener.listenChanges(_:window:)). A new comment is one
// row out and one row in; the demo then times new comments in the window mode against the
// seed's whole-group mode, with histories of 2,000 and 10,000 comments (strings keyed in push
// order, windows by key), on the embedded database. The timing runs with the inspector's
// recording paused, so `--timeline` does not change the figures, and says which build ran it.
import Foundation
import ConfigFeatures
import Streams
import StreamsInspector

/// A group of `count` comments keyed `c00000`…: objects `{text, time}` (times 0…count-1), or
/// plain strings, as the seed stores them (the whole-group mode reads only those).
private func history(_ count: Int, asObjects: Bool = true) -> JSONValue {
    var comments: [String: JSONValue] = [:]
    comments.reserveCapacity(count)
    for index in 0..<count {
        let text = JSONValue.string("comment \(index)")
        comments[String(format: "c%05d", index)] = asObjects ? ["text": text, "time": .number(Double(index))] : text
    }
    return .object(comments)
}

/// Runs the chat-scale section and prints it on `timeline`.
func runChatScaleSection(timeline: DemoTimeline) {
    let queue = DispatchQueue(label: "group-comments-demo.chat")
    let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
    let database = InMemoryRealtimeDatabase(scheduler: scheduler)
    do {
        try database.setValue(["chat": history(10_000)], at: "Groups")
    } catch {
        timeline.log("could not seed the chat group: \(error)")
        return
    }
    let listener = GroupCommentsListener(database: database)
    let window = GroupCommentsWindow(last: 5, orderedBy: .child("time"))
    timeline.log("chat scale: Groups/chat holds 10,000 comments; the listener follows its last 5 by time")
    let subscription = listener.listenChanges(Observable.just(["chat"]), window: window).subscribe(onNext: { change in
        if case .joined(_, let comments) = change {
            timeline.log("\(change): \(comments.map(\.text).joined(separator: ", "))")
        } else {
            timeline.log("\(change)")
        }
    })
    queue.sync {}
    timeline.log("a new comment arrives (one row out, one row in):")
    do {
        try database.setValue(["text": "hello from 10,000", "time": 10_000], at: "Groups/chat/c10000")
    } catch {
        timeline.log("write failed: \(error)")
    }
    queue.sync {}
    subscription.dispose()

    timeline.log("why the window matters: the time from writing a comment to the listener's new snapshot, per comment,")
    timeline.log("  following the whole group (listen(_:), which re-reads every comment) vs a window of the last 5")
    timeline.log("  (listen(_:window:), which reads 5); measured here, so the figures vary with the machine:")
    timeline.log("  measured by a \(chatScaleBuild), so --timeline changes none of them")
    let byKey = GroupCommentsWindow(last: 5)
    for size in [2_000, 10_000] {
        let (whole, windowed) = withoutRecording {
            (
                timePerComment(history: size, comments: 5) { listener, membership in listener.listen(membership) },
                timePerComment(history: size, comments: 100) { listener, membership in listener.listen(membership, window: byKey) }
            )
        }
        timeline.log(
            String(
                format: "  a group of %6d comments: whole group %9.0f µs · window %5.0f µs (the window is %.0f× faster)", size, whole, windowed,
                whole / windowed))
    }
}

/// Which build measures the figures: debug or release, with the inspector compiled in (its
/// recording paused while timing) or out.
private var chatScaleBuild: String {
    #if DEBUG
    let build = "debug build"
    #else
    let build = "release build"
    #endif
    #if Inspector
    return build + " with the stream inspector compiled in and not recording while timing"
    #else
    return build + " with the stream inspector compiled out"
    #endif
}

/// Runs `body` with the stream inspector's recording paused (the timeline's, with `--timeline`),
/// so that the times it measures are the same with the timeline on or off.
private func withoutRecording<Result>(_ body: () -> Result) -> Result {
    #if Inspector
    return Inspector.withRecordingPaused(body)
    #else
    return body()
    #endif
}

/// The mean time from writing a comment to its snapshot, over `comments` string comments
/// appended (in key order) to a group of `history` comments, for the listener mode `listen`.
private func timePerComment(history size: Int, comments: Int, _ listen: (GroupCommentsListener, Observable<[String]>) -> Observable<[String: [String]]>)
    -> Double
{
    let queue = DispatchQueue(label: "group-comments-demo.timing")
    let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
    let database = InMemoryRealtimeDatabase(scheduler: scheduler)
    guard (try? database.setValue(["chat": history(size, asObjects: false)], at: "Groups")) != nil else { return .nan }
    let listener = GroupCommentsListener(database: database)
    let snapshots = DispatchSemaphore(value: 0)
    let subscription = listen(listener, Observable.just(["chat"])).subscribe(onNext: { _ in snapshots.signal() })
    snapshots.wait()
    let start = DispatchTime.now()
    for index in size..<size + comments {
        try? database.setValue(.string("new \(index)"), at: "Groups/chat/\(String(format: "c%05d", index))")
        snapshots.wait()
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000
    subscription.dispose()
    return elapsed / Double(comments)
}

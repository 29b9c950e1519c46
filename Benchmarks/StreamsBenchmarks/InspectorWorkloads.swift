import ConfigFeatures
import Foundation
import Streams
import StreamsInspector

/// The inspector's cost (issue 39): each workload twice, with the inspector recording
/// (`_inspector_on`) and not (`_inspector_off`), so the factor is read from two adjacent rows.
///
/// - `map_filter_pump_inspector_*`: `map_filter_pump` (a subject, map, filter, map): on, each of
///   its four places records each event (kind, time, thread, a bounded description).
/// - `chat_window_2k_inspector_*`, `chat_window_10k_inspector_*`: the group-comments demo's
///   chat-scale window (Examples/Demos/GroupCommentsChatScaleDemo.swift): a group of 2,000 or
///   10,000 comments on the embedded database, followed by `listen(_:window:)` with a window of
///   its last 5; one unit is a comment written and its snapshot received. Seeding and the first
///   snapshot are untimed.
///
/// The inspector records with its default configuration but without call stacks (see
/// `benchConfiguration`). With the `Inspector` trait off there is nothing to record: the
/// workloads are left out.
func inspectorWorkloads() -> [Workload] {
    #if Inspector
    let million = 1_000_000
    var workloads: [Workload] = []
    for recording in [false, true] {
        let suffix = recording ? "_inspector_on" : "_inspector_off"
        workloads.append(
            Workload(name: "map_filter_pump" + suffix, unit: "event", baseSize: million, events: { $0 }, expected: mapFilterModel) { n in
                if recording { Inspector.start(benchConfiguration) }
                defer { stopInspector(recording) }
                return mapFilterPump(n)
            })
    }
    for history in [2_000, 10_000] {
        for recording in [false, true] {
            workloads.append(chatWindow(history: history, recording: recording))
        }
    }
    return workloads
    #else
    return []
    #endif
}

#if Inspector
/// The default configuration without call stacks: a chain's call stack is captured once, at its
/// first subscription (nothing per event), and capturing it under valgrind crashes in the Swift
/// runtime's image reader, so the instruction counts could not be taken with it.
private let benchConfiguration = Inspector.Configuration(capturesCallStacks: false)

private func stopInspector(_ recording: Bool) {
    guard recording else { return }
    Inspector.stop()
    Inspector.reset()
}

/// `n` comments appended (keys `c<history>`… in order) to a group of `history` comments, each
/// waited for in the window's snapshot. The checksum sums the index of each comment that arrived
/// as the window's newest.
private func chatWindow(history: Int, recording: Bool) -> Workload {
    let name = "chat_window_\(history / 1_000)k_inspector_" + (recording ? "on" : "off")
    return Workload(
        name: name, unit: "comment", baseSize: 500, events: { $0 },
        expected: { n in (history..<history + n).reduce(0, &+) }
    ) { n in
        if recording { Inspector.start(benchConfiguration) }
        let queue = DispatchQueue(label: "streams-bench.chat")
        let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
        let database = InMemoryRealtimeDatabase(scheduler: scheduler)
        let comments = Dictionary(uniqueKeysWithValues: (0..<history).map { (commentKey($0), JSONValue.string("comment \($0)")) })
        guard (try? database.setValue(["chat": .object(comments)], at: "Groups")) != nil else {
            fatalError("\(name): the seed is invalid")
        }
        let listener = GroupCommentsListener(database: database)
        let snapshots = DispatchSemaphore(value: 0)
        let sum = Tally()
        let subscription = listener.listen(Observable.just(["chat"]), window: GroupCommentsWindow(last: 5)).subscribe(onNext: { groups in
            if let newest = groups["chat"]?.last, newest.hasPrefix("new "), let index = Int(newest.dropFirst(4)) { sum.add(index) }
            snapshots.signal()
        })
        snapshots.wait()
        return {
            for index in history..<history + n {
                try? database.setValue(.string("new \(index)"), at: "Groups/chat/\(commentKey(index))")
                snapshots.wait()
            }
            subscription.dispose()
            queue.sync {}
            stopInspector(recording)
            defer { sum.free() }
            return sum.value
        }
    }
}

/// `c00042`: keys in push order.
private func commentKey(_ index: Int) -> String {
    let digits = String(index)
    return "c" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
}
#endif

#if Inspector
#if canImport(CDispatch)
import CDispatch
#endif
import Dispatch
import Foundation

/// Readable names for the threads the inspector sees.
enum InspectorThreads {
    /// The name of the calling thread, for the inspector's records.
    ///
    /// On a dispatch queue, the queue's label (`com.example.worker`, also inside `sync` from
    /// another thread); `main` on the main thread or queue; on a global queue, `global queue (default QoS)` and the thread's identifier; otherwise the
    /// name the thread was given, or its identifier. A libdispatch worker's own name (Linux keeps
    /// the last 15 bytes of its root queue's label, `-qos.overcommit`) is never shown.
    ///
    /// Worked out at the thread's first recorded event on each queue, then kept per thread (its
    /// queue's label is read on every event): a thread renamed later keeps its first name.
    static func current() -> String {
        let label = currentQueueLabel()
        return names.withCurrent { cache in
            if cache.label == label, let name = cache.name { return name }
            let name = name(onQueueLabelled: label)
            cache.label = label
            cache.name = name
            return name
        }
    }

    /// The last name worked out on a thread, and the queue label it was worked out for.
    private final class NameCache {
        var label = ""
        var name: String?
    }

    private static let names = ThreadLocalObject { NameCache() }

    /// The name of the calling thread, running on the queue labelled `label`.
    private static func name(onQueueLabelled label: String) -> String {
        let rootPrefix = "com.apple.root."
        if !label.isEmpty, !label.hasPrefix(rootPrefix), label != "com.apple.main-thread" { return label }
        if Thread.isMainThread { return "main" }
        let identifier = String(currentThreadID(), radix: 16)
        if let name = givenNames().first(where: { isOwnName($0, queueLabel: label) }) { return name }
        if label.hasPrefix(rootPrefix), isWorkerThread(queueLabel: label) {
            return "global queue (\(qualityOfService(ofRootQueue: label)) QoS), thread \(identifier)"
        }
        return "thread \(identifier)"
    }

    /// The names the calling thread may have been given: Foundation's, then (on Linux) the
    /// kernel's, which `pthread_setname_np` sets (Foundation's `Thread.name` belongs to a `Thread`
    /// object; a thread may also be named by C code).
    private static func givenNames() -> [String] {
        var names: [String] = []
        if let name = Thread.current.name, !name.isEmpty { names.append(name) }
        #if os(Linux)
        // The kernel's name of this thread (what pthread_setname_np set); read only when
        // recording, which is for debugging.
        if let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) {
            let name = comm.trimmingCharacters(in: .whitespacesAndNewlines)
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        #endif
        return names
    }

    /// Whether `name` is one a thread was given, not libdispatch's or the process's inherited one.
    static func isOwnName(_ name: String, queueLabel: String) -> Bool {
        guard !name.isEmpty else { return false }
        // Linux keeps the last 15 bytes of a worker's root queue label, and a new thread inherits
        // the process's name.
        if !queueLabel.isEmpty, queueLabel.hasSuffix(name) { return false }
        let process = ProcessInfo.processInfo.processName
        return name != process && !process.hasPrefix(name)
    }

    /// `user-initiated` for `com.apple.root.user-initiated-qos.overcommit`.
    static func qualityOfService(ofRootQueue label: String) -> String {
        var name = label.dropFirst("com.apple.root.".count)
        if name.hasSuffix(".overcommit") { name = name.dropLast(".overcommit".count) }
        if name.hasSuffix("-qos") { name = name.dropLast("-qos".count) }
        return name.isEmpty ? "default" : String(name)
    }

    /// Whether this thread is a dispatch worker: a thread outside any queue reports the default
    /// root queue's label too, so tell them apart by the worker's name libdispatch gave it.
    private static func isWorkerThread(queueLabel: String) -> Bool {
        #if os(Linux)
        guard let name = Thread.current.name, !name.isEmpty else { return false }
        return queueLabel.hasSuffix(name) || name.hasSuffix("qos.overcommit") || name.hasSuffix("-qos")
        #else
        return true
        #endif
    }

    /// The label of the queue running the calling code ("" when unknown).
    static func currentQueueLabel() -> String {
        #if canImport(CDispatch)
        return String(cString: dispatch_queue_get_label(nil))
        #elseif canImport(Darwin)
        return String(cString: __dispatch_queue_get_label(nil))
        #else
        return ""
        #endif
    }
}
#endif

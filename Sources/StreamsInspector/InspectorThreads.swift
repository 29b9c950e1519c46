#if Inspector
import Streams
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
        name(of: currentID())
    }

    /// The calling thread's name (``current()``) as a small identifier, for logged events: the
    /// name is worked out when the thread's queue changes, and read back with ``names(_:)``.
    @inline(__always)
    static func currentID() -> UInt32 {
        let label = currentQueueLabelPointer()
        return caches.withCurrent { cache in
            // The label's bytes are compared, not its address: a freed queue's address may be
            // reused by a queue labelled otherwise.
            if cache.id != 0 {
                switch (label, cache.labelBytes) {
                case (let label?, let known?): if strcmp(known, label) == 0 { return cache.id }
                case (nil, nil): return cache.id
                default: break
                }
            }
            return cache.update(label: label)
        }
    }

    /// The names of thread identifiers (``currentID()``).
    static func names<Identifiers: Sequence<UInt32>>(_ identifiers: Identifiers) -> [UInt32: String] {
        table.withLock { table in
            var names: [UInt32: String] = [:]
            for id in identifiers where names[id] == nil && id > 0 && Int(id) <= table.names.count {
                names[id] = table.names[Int(id) - 1]
            }
            return names
        }
    }

    /// The name of a thread identifier (``currentID()``).
    static func name(of id: UInt32) -> String {
        names(CollectionOfOne(id))[id] ?? ""
    }

    /// Every thread name seen, each with its identifier (from 1): a name is added once, so the
    /// table grows with the distinct names of the process's threads and queues, not with events.
    private struct NameTable {
        var names: [String] = []
        var ids: [String: UInt32] = [:]
    }

    private static let table = LockedState(NameTable())

    private static func id(ofName name: String) -> UInt32 {
        table.withLock { table in
            if let id = table.ids[name] { return id }
            table.names.append(name)
            let id = UInt32(table.names.count)
            table.ids[name] = id
            return id
        }
    }

    /// The last name worked out on a thread, and the queue label it was worked out for.
    private final class NameCache {
        var label = ""
        /// A copy of the label's bytes, compared with the queue's on each event.
        var labelBytes: UnsafeMutablePointer<CChar>?
        /// The name's identifier, 0 before the first.
        var id: UInt32 = 0

        /// Works the name out for the queue labelled `bytes` (unless it is the label the name was
        /// worked out for: a thread renamed later keeps its first name).
        func update(label bytes: UnsafePointer<CChar>?) -> UInt32 {
            let label = bytes.map { String(cString: $0) } ?? ""
            if id == 0 || label != self.label {
                id = InspectorThreads.id(ofName: InspectorThreads.name(onQueueLabelled: label))
                self.label = label
            }
            free(labelBytes)
            labelBytes = bytes.flatMap { strdup($0) }
            return id
        }

        deinit { free(labelBytes) }
    }

    private static let caches = ThreadLocalObject { NameCache() }

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
        currentQueueLabelPointer().map { String(cString: $0) } ?? ""
    }

    /// The label of the queue running the calling code, as libdispatch keeps it, or `nil`.
    @inline(__always)
    static func currentQueueLabelPointer() -> UnsafePointer<CChar>? {
        #if canImport(CDispatch)
        return dispatch_queue_get_label(nil)
        #elseif canImport(Darwin)
        return __dispatch_queue_get_label(nil)
        #else
        return nil
        #endif
    }
}
#endif

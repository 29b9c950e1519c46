#if Inspector
@_spi(StreamsInspectorSupport) import Streams
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
        locals.withCurrent { $0.threadID() }
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

    /// The inspector's state of one thread, in one thread-local object so that an event looks
    /// it up once: the record being served (``InspectorContext``), and the last name worked out
    /// on the thread with the queue label it was worked out for.
    final class Local {
        /// The subscription being made or served (``InspectorContext``). Not retained: a record
        /// is set only for the duration of `InspectorContext.with`, whose caller holds it (an
        /// event's record holds its parent), so no retain and release per event.
        var record: Unmanaged<InspectorRecord>?
        /// The label as libdispatch returned it, and whether that address always holds that
        /// label (a root queue's, which libdispatch keeps in its own image and never frees):
        /// then the next event compares only the address.
        private var labelPointer: UnsafePointer<CChar>?
        private var labelIsPermanent = false
        /// A copy of the label the name was worked out for, compared with the queue's when the
        /// address may have been reused (a queue's own label is freed with the queue, and its
        /// address may then hold another queue's label).
        private var labelBytes: UnsafeMutablePointer<CChar>?
        /// The name's identifier, 0 before the first.
        private var id: UInt32 = 0

        /// The calling thread's name identifier (``InspectorThreads/currentID()``).
        @inline(__always)
        func threadID() -> UInt32 {
            let label = InspectorThreads.currentQueueLabelPointer()
            if id != 0 {
                if label == labelPointer, labelIsPermanent { return id }
                switch (label, labelBytes) {
                case (let label?, let known?): if strcmp(known, label) == 0 { return id }
                case (nil, nil): return id
                default: break
                }
            }
            return update(label: label)
        }

        /// Works the name out for the queue labelled `bytes` (unless it is the label the name was
        /// worked out for: a thread renamed later keeps its first name).
        @inline(never)
        private func update(label bytes: UnsafePointer<CChar>?) -> UInt32 {
            if id == 0 || !Self.sameLabel(bytes, labelBytes) {
                let label = bytes.map { String(cString: $0) } ?? ""
                id = InspectorThreads.id(ofName: InspectorThreads.name(onQueueLabelled: label))
            }
            free(labelBytes)
            labelBytes = bytes.flatMap { strdup($0) }
            labelPointer = bytes
            labelIsPermanent = bytes.map(InspectorThreads.isInDispatchImage) ?? false
            return id
        }

        /// Whether two labels read the same (no label reads as the empty one).
        private static func sameLabel(_ a: UnsafePointer<CChar>?, _ b: UnsafePointer<CChar>?) -> Bool {
            switch (a, b) {
            case (let a?, let b?): strcmp(a, b) == 0
            case (let label?, nil), (nil, let label?): label.pointee == 0
            case (nil, nil): true
            }
        }

        deinit { free(labelBytes) }
    }

    /// The inspector's state of each thread.
    static let locals = ThreadLocalObject { Local() }

    /// Whether `label` lies in libdispatch's own image (a root queue's label: static, never
    /// freed), not on the heap (a queue's own label, freed with the queue). Known on Linux; on
    /// other systems `false`, so every label's bytes are compared.
    static func isInDispatchImage(_ label: UnsafePointer<CChar>) -> Bool {
        #if os(Linux)
        let address = UInt(bitPattern: label)
        return dispatchImage.contains { $0.contains(address) }
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// The address ranges libdispatch's shared library is mapped at (none when it is linked
    /// statically: then every label's bytes are compared), read once from `/proc/self/maps`.
    private static let dispatchImage: [Range<UInt>] = {
        guard let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        var ranges: [Range<UInt>] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        // `start-end perms offset device inode path`, in hexadecimal.
        while getline(&line, &capacity, maps) > 0, let line {
            guard strstr(line, "/libdispatch.so") != nil else { continue }
            var end: UnsafeMutablePointer<CChar>?
            let start = UInt(strtoul(line, &end, 16))
            guard let dash = end, dash.pointee == CChar(UInt8(ascii: "-")) else { continue }
            let stop = UInt(strtoul(dash + 1, nil, 16))
            if start < stop { ranges.append(start..<stop) }
        }
        return ranges
    }()
    #endif

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

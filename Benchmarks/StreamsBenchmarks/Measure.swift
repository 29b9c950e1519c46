import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds on the monotonic clock.
public func monotonicNanoseconds() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// Resets the kernel's peak-RSS mark (Linux: writing 5 to /proc/self/clear_refs), so the next
/// `peakResidentMegabytes()` reports the peak of the coming workload only. Returns whether
/// the reset worked; when it did not, the peak is the process's so far.
@discardableResult
public func resetPeakResident() -> Bool {
    #if os(Linux)
    guard let file = fopen("/proc/self/clear_refs", "w") else { return false }
    let written = fputs("5", file)
    return fclose(file) == 0 && written >= 0
    #else
    return false
    #endif
}

/// Peak resident set size in MB: VmHWM from /proc/self/status on Linux, else getrusage.
public func peakResidentMegabytes() -> Double {
    #if os(Linux)
    if let file = fopen("/proc/self/status", "r") {
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if line.hasPrefix("VmHWM:") {
                let digits = line.dropFirst(6).filter { $0.isNumber }
                if let kilobytes = Double(String(digits)) { return kilobytes / 1024 }
            }
        }
    }
    #endif
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / (1024 * 1024)  // bytes on Darwin
    #else
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
    #endif
}

/// The closure a thread started by `startThread` runs (passed to it retained, released by it).
private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Starts a POSIX thread (1 MB stack) running `body`; nil if it could not be created. The
/// thread releases `body` before it ends, so after `joinThread` nothing it captured is retained
/// by it (a Foundation `Thread` keeps its block until it has exited, later).
func startThread(_ body: @escaping () -> Void) -> pthread_t? {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, 1 << 20)
    #if canImport(Glibc)
    var thread = pthread_t()
    let status = pthread_create(
        &thread, &attributes,
        { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
    #else
    var thread: pthread_t?
    let status = pthread_create(
        &thread, &attributes,
        { context in
            Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
    #endif
    guard status == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        return nil
    }
    return thread
}

/// Waits for a thread from `startThread` to end; returns whether the join worked.
@discardableResult
func joinThread(_ thread: pthread_t) -> Bool {
    pthread_join(thread, nil) == 0
}

/// Starts one thread and joins it, so the process is multi-threaded from here on, as every app
/// is: once a thread has been created, glibc's `pthread_mutex_lock` and malloc stop taking
/// their single-thread fast paths (no `lock`-prefixed atomics), for good. Returns whether the
/// thread was created and joined.
@discardableResult
public func becomeMultiThreaded() -> Bool {
    guard let thread = startThread({}) else { return false }
    return joinThread(thread)
}

/// Whether glibc still considers the process single-threaded (`__libc_single_threaded`,
/// glibc 2.32+, looked up with dlsym); nil where that cannot be read.
public func processIsSingleThreaded() -> Bool? {
    #if os(Linux)
    guard let symbol = dlsym(nil, "__libc_single_threaded") else { return nil }
    return symbol.assumingMemoryBound(to: CChar.self).pointee != 0
    #else
    return nil
    #endif
}

/// The measured outcome of one workload.
public struct BenchmarkResult: Sendable {
    /// The workload's name.
    public let name: String
    /// What one counted event is ("event", "delivery", "chain", "subscription", "element").
    public let unit: String
    /// The size each timed run received.
    public let size: Int
    /// How many units each run performed.
    public let events: Int
    /// The fastest run's wall time, in seconds.
    public let best: Double
    /// The median run's wall time, in seconds.
    public let median: Double
    /// Every timed run's wall time, in seconds, in run order.
    public let times: [Double]
    /// The peak resident set size of the timed runs (the largest of the per-run peaks), in MB.
    public let peakResidentMB: Double
    /// The checksum every run produced (equal to the model's when `checked`).
    public let checksum: Int
    /// Whether the checksum was compared with a plain-loop model (false: "unchecked").
    public let checked: Bool
    /// Whether glibc considered the process single-threaded when the timed runs began (nil
    /// where unknown).
    public let startedSingleThreaded: Bool?
    /// Nanoseconds per event of the fastest run.
    public var nanosecondsPerEvent: Double { best * 1e9 / Double(max(events, 1)) }
    /// Nanoseconds per event of the median run.
    public var medianNanosecondsPerEvent: Double { median * 1e9 / Double(max(events, 1)) }
}

/// Runs `workload` once untimed at `warmupSize` (if given), then `runs` timed times at size
/// `size` (each after the workload's untimed preparation, if it has one), resetting the peak-RSS mark before each timed run. Every run's checksum must equal
/// the model's, or (for a workload without a model) the first run's; otherwise this prints why
/// and returns nil.
public func measure(_ workload: Workload, size: Int, runs: Int, warmupSize: Int? = nil) -> BenchmarkResult? {
    let expected = workload.expected(size: size)
    if let warmupSize, warmupSize > 0 {
        _ = workload.run(size: warmupSize)
    }
    let singleThreaded = processIsSingleThreaded()
    var seconds: [Double] = []
    var peak = 0.0
    var first: Int?
    for run in 1...max(runs, 1) {
        let timed = workload.prepare(size: size)
        resetPeakResident()
        let start = monotonicNanoseconds()
        let checksum = timed()
        let end = monotonicNanoseconds()
        peak = max(peak, peakResidentMegabytes())
        if let expected, checksum != expected {
            printError("FAIL \(workload.name): run \(run) checksum \(checksum), expected \(expected)")
            return nil
        }
        if let first, checksum != first {
            printError("FAIL \(workload.name): run \(run) checksum \(checksum), run 1 gave \(first) (unchecked workload)")
            return nil
        }
        first = first ?? checksum
        seconds.append(Double(end - start) / 1e9)
    }
    let times = seconds
    seconds.sort()
    let median =
        seconds.count % 2 == 1
        ? seconds[seconds.count / 2]
        : (seconds[seconds.count / 2 - 1] + seconds[seconds.count / 2]) / 2
    return BenchmarkResult(
        name: workload.name, unit: workload.unit, size: size, events: workload.events(size: size),
        best: seconds[0], median: median, times: times, peakResidentMB: peak,
        checksum: first ?? 0, checked: expected != nil,
        startedSingleThreaded: singleThreaded)
}

/// Writes `message` and a newline to standard error.
public func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

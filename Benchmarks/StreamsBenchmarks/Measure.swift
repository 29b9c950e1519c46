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

/// The measured outcome of one workload.
public struct BenchmarkResult: Sendable {
    /// The workload's name.
    public let name: String
    /// What one counted event is ("event", "delivery", "chain").
    public let unit: String
    /// How many units each run performed.
    public let events: Int
    /// The fastest run's wall time, in seconds.
    public let best: Double
    /// The median run's wall time, in seconds.
    public let median: Double
    /// The peak resident set size during the workload, in MB.
    public let peakResidentMB: Double
    /// The checksum every run produced (equal to the expected one).
    public let checksum: Int
    /// Nanoseconds per event of the fastest run.
    public var nanosecondsPerEvent: Double { best * 1e9 / Double(max(events, 1)) }
    /// Nanoseconds per event of the median run.
    public var medianNanosecondsPerEvent: Double { median * 1e9 / Double(max(events, 1)) }
}

/// Runs `workload` `runs` times at size `size`; nil (after printing why) when a checksum is wrong.
public func measure(_ workload: Workload, size: Int, runs: Int) -> BenchmarkResult? {
    let expected = workload.expected(size: size)
    resetPeakResident()
    var seconds: [Double] = []
    for run in 1...runs {
        let start = monotonicNanoseconds()
        let checksum = workload.run(size: size)
        let end = monotonicNanoseconds()
        if checksum != expected {
            printError("FAIL \(workload.name): run \(run) checksum \(checksum), expected \(expected)")
            return nil
        }
        seconds.append(Double(end - start) / 1e9)
    }
    seconds.sort()
    let median = seconds.count % 2 == 1
        ? seconds[seconds.count / 2]
        : (seconds[seconds.count / 2 - 1] + seconds[seconds.count / 2]) / 2
    return BenchmarkResult(name: workload.name, unit: workload.unit, events: workload.events(size: size),
                           best: seconds[0], median: median, peakResidentMB: peakResidentMegabytes(),
                           checksum: expected)
}

/// Writes `message` and a newline to standard error.
public func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

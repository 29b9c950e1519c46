// streams-bench: the workloads of issues 6 and 12, measured from a module that imports Streams
// as an app does. See Guides/Performance.md.
//
//   swift run -c release streams-bench [--filter NAME]... [--exact] [--json] [--runs N]
//       [--scale F | --size N] [--warmup-scale F] [--single-threaded] [--list]
//
// Threading: by default, before any workload, the process starts and joins one thread, so
// glibc's mutexes and malloc run in multi-threaded mode as in every app ("threading=mt").
// `--single-threaded` skips that ("st", for an extra column only: glibc then skips the atomics
// in `pthread_mutex_lock`, and workloads that start threads themselves, such as the observeOn_*
// and merge4_threads ones, turn the process multi-threaded for every workload after them).
//
// Per workload: an optional untimed warm-up run at --warmup-scale times the size (default 0:
// none), then --runs timed runs, each with the peak-RSS mark reset first; best, median, the peak
// RSS of the timed runs and the checksum are reported. A checksum that differs from the
// workload's plain-loop model (or, for an "unchecked" workload without one, from the first
// run's) fails the workload, and the process exits 1 after the others.
import Foundation
import StreamsBenchmarks

let usage = """
    usage: streams-bench [--filter NAME]... [--exact] [--json] [--runs N] [--scale F | --size N]
                         [--warmup-scale F] [--single-threaded] [--list]
      --filter NAME       run only workloads whose name contains NAME (repeatable)
      --exact             --filter names must match a workload's whole name
      --json              print machine-readable results (one JSON array) instead of a table
      --runs N            timed runs per workload (default 5); best and median are reported
      --scale F           multiply every workload's size by F (e.g. 0.01 for a smoke run)
      --size N            give every selected workload exactly size N (overrides --scale), e.g.
                          --filter many_subs_dispose_lifo --size 50000
      --warmup-scale F    one untimed warm-up run at F times the size first (default 0: none)
      --single-threaded   do not start and join a thread before the workloads (default: do, so
                          glibc runs multi-threaded as in an app); reported as threading=st
      --list              print the workload names and exit
    """

var filters: [String] = []
var exact = false
var json = false
var runs = 5
var scale = 1.0
var fixedSize: Int?
var warmupScale = 0.0
var singleThreaded = false
var list = false

var arguments = CommandLine.arguments.dropFirst()
@MainActor func value(for flag: String) -> String {
    guard let value = arguments.popFirst() else {
        printError("missing value for \(flag)\n\(usage)")
        exit(2)
    }
    return value
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--filter": filters.append(value(for: argument))
    case "--exact": exact = true
    case "--json": json = true
    case "--runs":
        guard let n = Int(value(for: argument)), n > 0 else { printError("--runs needs a positive integer"); exit(2) }
        runs = n
    case "--scale":
        guard let f = Double(value(for: argument)), f > 0 else { printError("--scale needs a positive number"); exit(2) }
        scale = f
    case "--size":
        guard let n = Int(value(for: argument)), n > 0 else { printError("--size needs a positive integer"); exit(2) }
        fixedSize = n
    case "--warmup-scale":
        guard let f = Double(value(for: argument)), f >= 0 else { printError("--warmup-scale needs a number >= 0"); exit(2) }
        warmupScale = f
    case "--single-threaded": singleThreaded = true
    case "--list": list = true
    case "-h", "--help": print(usage); exit(0)
    default: printError("unknown argument \(argument)\n\(usage)"); exit(2)
    }
}

let selected = allWorkloads().filter { workload in
    filters.isEmpty || filters.contains { exact ? workload.name == $0 : workload.name.contains($0) }
}
if list {
    selected.forEach { print($0.name) }
    exit(0)
}
if selected.isEmpty {
    printError("no workload matches \(filters)")
    exit(2)
}

#if DEBUG
if !json { printError("warning: debug build; use `swift run -c release streams-bench` for real figures") }
#endif

let threading = singleThreaded ? "st" : "mt"
if !singleThreaded && !becomeMultiThreaded() {
    printError("could not start and join a thread; the figures are not multi-threaded ones")
    exit(1)
}
if singleThreaded && processIsSingleThreaded() == false {
    printError("warning: --single-threaded, but the process is already multi-threaded")
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}

/// The width of the name column: the longest selected workload's name, at least 30.
let nameWidth = selected.map(\.name.count).reduce(30) { max($0, $1 + 1) }

if !json {
    print(
        "streams-bench: threading=\(threading) runs=\(runs) "
            + (fixedSize.map { "size=\($0)" } ?? "scale=\(scale)") + " warmup-scale=\(warmupScale)")
    print(
        pad("workload", nameWidth, left: true) + pad("events", 12) + pad("best s", 10) + pad("median s", 10)
            + pad("ns/ev best", 12) + pad("ns/ev med", 11) + pad("peak MB", 9) + "  checksum")
}

var results: [BenchmarkResult] = []
var failed: [String] = []
for workload in selected {
    let size = fixedSize ?? workload.size(at: scale)
    let warmupSize = warmupScale > 0 ? max(1, Int((Double(size) * warmupScale).rounded())) : nil
    guard let result = measure(workload, size: size, runs: runs, warmupSize: warmupSize) else {
        failed.append(workload.name)
        continue
    }
    results.append(result)
    if !json {
        var notes: [String] = []
        if !result.checked { notes.append("unchecked") }
        if result.unit != "event" { notes.append("per \(result.unit)") }
        if singleThreaded && result.startedSingleThreaded == false { notes.append("process already multi-threaded") }
        print(
            pad(result.name, nameWidth, left: true)
                + pad("\(result.events)", 12)
                + pad(String(format: "%.4f", result.best), 10)
                + pad(String(format: "%.4f", result.median), 10)
                + pad(String(format: "%.1f", result.nanosecondsPerEvent), 12)
                + pad(String(format: "%.1f", result.medianNanosecondsPerEvent), 11)
                + pad(String(format: "%.1f", result.peakResidentMB), 9)
                + "  \(result.checksum)" + (notes.isEmpty ? "" : "  (\(notes.joined(separator: ", ")))"))
    }
}

if json {
    let objects = results.map { result in
        "  {\"name\": \"\(result.name)\", \"unit\": \"\(result.unit)\", \"threading\": \"\(threading)\", "
            + "\"size\": \(result.size), \"events\": \(result.events), "
            + "\"best_s\": \(result.best), \"median_s\": \(result.median), "
            + "\"times\": [\(result.times.map { "\($0)" }.joined(separator: ", "))], "
            + "\"ns_per_event\": \(String(format: "%.3f", result.nanosecondsPerEvent)), "
            + "\"median_ns_per_event\": \(String(format: "%.3f", result.medianNanosecondsPerEvent)), "
            + "\"peak_rss_mb\": \(String(format: "%.2f", result.peakResidentMB)), \"checksum\": \(result.checksum), "
            + "\"checked\": \(result.checked), "
            + "\"single_threaded_at_start\": \(result.startedSingleThreaded.map { "\($0)" } ?? "null")}"
    }
    print("[\n" + objects.joined(separator: ",\n") + "\n]")
}

if !failed.isEmpty {
    printError("checksum failures: \(failed.joined(separator: ", "))")
    exit(1)
}

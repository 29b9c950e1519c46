// streams-bench: the workloads of issue 6, measured from a module that imports Streams as an
// app does. See Guides/Performance.md.
//
//   swift run -c release streams-bench [--filter NAME] [--exact] [--json] [--runs N] [--scale F] [--list]
import Foundation
import StreamsBenchmarks

let usage = """
    usage: streams-bench [--filter NAME] [--exact] [--json] [--runs N] [--scale F] [--list]
      --filter NAME  run only workloads whose name contains NAME (repeatable)
      --exact        --filter names must match a workload's whole name
      --json         print machine-readable results (one JSON array) instead of a table
      --runs N       timed runs per workload (default 5); best and median are reported
      --scale F      multiply every workload's size by F (e.g. 0.01 for a smoke run)
      --list         print the workload names and exit
    """

var filters: [String] = []
var exact = false
var json = false
var runs = 5
var scale = 1.0
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

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}

if !json {
    print("streams-bench: runs=\(runs) scale=\(scale)")
    print(pad("workload", 30, left: true) + pad("events", 12) + pad("best s", 10) + pad("median s", 10)
          + pad("ns/ev best", 12) + pad("ns/ev med", 11) + pad("peak MB", 9) + "  checksum")
}

var results: [BenchmarkResult] = []
var failed: [String] = []
for workload in selected {
    let size = workload.size(at: scale)
    guard let result = measure(workload, size: size, runs: runs) else {
        failed.append(workload.name)
        continue
    }
    results.append(result)
    if !json {
        print(pad(result.name, 30, left: true)
              + pad("\(result.events)", 12)
              + pad(String(format: "%.4f", result.best), 10)
              + pad(String(format: "%.4f", result.median), 10)
              + pad(String(format: "%.1f", result.nanosecondsPerEvent), 12)
              + pad(String(format: "%.1f", result.medianNanosecondsPerEvent), 11)
              + pad(String(format: "%.1f", result.peakResidentMB), 9)
              + "  \(result.checksum)" + (result.unit == "event" ? "" : "  (per \(result.unit))"))
    }
}

if json {
    let objects = results.map { result in
        "  {\"name\": \"\(result.name)\", \"unit\": \"\(result.unit)\", \"events\": \(result.events), "
            + "\"best_s\": \(result.best), \"median_s\": \(result.median), "
            + "\"ns_per_event\": \(String(format: "%.3f", result.nanosecondsPerEvent)), "
            + "\"median_ns_per_event\": \(String(format: "%.3f", result.medianNanosecondsPerEvent)), "
            + "\"peak_rss_mb\": \(String(format: "%.2f", result.peakResidentMB)), \"checksum\": \(result.checksum)}"
    }
    print("[\n" + objects.joined(separator: ",\n") + "\n]")
}

if !failed.isEmpty {
    printError("checksum failures: \(failed.joined(separator: ", "))")
    exit(1)
}

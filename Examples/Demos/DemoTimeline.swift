import Foundation

/// Prints demo lines prefixed with the time since the demo started: `[+  120 ms] text`.
public struct DemoTimeline: Sendable {
    private let start = DispatchTime.now()

    /// Starts the clock now.
    public init() {}

    /// Prints `text` with the elapsed time.
    public func log(_ text: String) {
        let milliseconds = Int((DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000)
        let time = String(milliseconds)
        print("[+\(String(repeating: " ", count: max(0, 5 - time.count)))\(time) ms] \(text)")
    }
}

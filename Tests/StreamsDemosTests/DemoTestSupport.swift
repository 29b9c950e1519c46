import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a demo or a server condition may take before a test gives up.
let demoTimeout: TimeInterval = 60

/// A demo running on its own thread; `wait()` blocks (bounded) until it returned.
final class BackgroundDemo: @unchecked Sendable {
    // Safety: `finished` is a semaphore (thread-safe); nothing else is stored.
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread at once.
    init(_ body: @escaping @Sendable () -> Void) {
        let finished = finished
        let thread = Thread {
            body()
            finished.signal()
        }
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// Whether the demo returned within `timeout` seconds.
    func wait(timeout: TimeInterval = demoTimeout) -> Bool {
        finished.wait(timeout: .now() + timeout) == .success
    }
}

/// Blocks until `condition` holds or `timeout` passes (polling a few milliseconds apart);
/// whether it held.
func waitUntil(timeout: TimeInterval = demoTimeout, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return condition() }
        _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.005))
    }
    return true
}

/// The standard output captured by `capturingStandardOutput(_:)`.
final class CapturedOutput: Sendable {
    let url: URL

    init(url: URL) { self.url = url }

    /// Everything printed so far (flushing the process's buffered output first).
    var text: String {
        fflush(nil)
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    /// Blocks until the output contains `expected`, or `timeout` passes; whether it did.
    func waitFor(_ expected: String, timeout: TimeInterval = demoTimeout) -> Bool {
        waitUntil(timeout: timeout) { text.contains(expected) }
    }
}

/// Runs `body` with the process's standard output going to a temporary file, and returns what
/// was written (every demo line printed while `body` ran, from any thread). `body` may wait
/// for lines with `CapturedOutput.waitFor(_:timeout:)`.
func capturingStandardOutput(_ body: (CapturedOutput) throws -> Void) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("streams-demo-\(UUID().uuidString).txt")
    XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
    defer { try? FileManager.default.removeItem(at: url) }
    let file = try FileHandle(forWritingTo: url)
    fflush(nil)
    let saved = dup(STDOUT_FILENO)
    dup2(file.fileDescriptor, STDOUT_FILENO)
    defer {
        fflush(nil)
        dup2(saved, STDOUT_FILENO)
        close(saved)
        try? file.close()
    }
    let output = CapturedOutput(url: url)
    try body(output)
    return output.text
}

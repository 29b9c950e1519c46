import Foundation
import XCTest

/// `StreamsBlocking` is usable from a command-line tool or an app without the test framework:
/// the `blocking-demo` executable, which imports StreamsBlocking alone, runs and links no XCTest.
final class StreamsBlockingLinkTests: XCTestCase {
    /// The executable built next to this test bundle (`swift build` / `swift test` build it).
    private func demoExecutable() throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [bundle.deletingLastPathComponent(), Bundle(for: Self.self).bundleURL.deletingLastPathComponent()]
        for folder in candidates {
            let url = folder.appendingPathComponent("blocking-demo")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        // `swift test` builds every executable of the package, so a missing one is a failure.
        throw MissingExecutable(folders: candidates.map(\.path))
    }

    private struct MissingExecutable: Error, CustomStringConvertible {
        let folders: [String]
        var description: String { "blocking-demo is not built next to the tests (looked in \(folders))" }
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testBlockingDemo_runsAndAnswers() throws {
        let demo = try demoExecutable()
        let result = try run(demo.path, [])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("toArray: [10, 20, 30]"), result.output)
        XCTAssertTrue(result.output.contains("blocking-demo: every answer as expected"), result.output)
    }

    #if os(Linux)
    /// The dynamic loader's view (`ldd`) and the executable's own list of needed libraries
    /// (`readelf -d`): Streams' and Foundation's libraries, never libXCTest.
    func testBlockingDemo_linksNoXCTest() throws {
        let demo = try demoExecutable()
        let ldd = try run("/usr/bin/ldd", [demo.path])
        XCTAssertEqual(ldd.status, 0, ldd.output)
        XCTAssertTrue(ldd.output.contains("libFoundation"), "ldd should list Foundation:\n\(ldd.output)")
        XCTAssertFalse(ldd.output.lowercased().contains("xctest"), "blocking-demo links XCTest:\n\(ldd.output)")
        XCTAssertFalse(ldd.output.contains("libTesting"), "blocking-demo links Swift Testing:\n\(ldd.output)")
        let needed = try run("/usr/bin/readelf", ["-d", demo.path])
        XCTAssertEqual(needed.status, 0, needed.output)
        let libraries = needed.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        XCTAssertFalse(libraries.isEmpty, needed.output)
        XCTAssertFalse(libraries.contains { $0.lowercased().contains("xctest") }, libraries.joined(separator: "\n"))
    }
    #endif
}

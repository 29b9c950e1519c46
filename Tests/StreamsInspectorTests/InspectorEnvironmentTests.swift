import Foundation
import XCTest

/// What linking StreamsInspector changes in an executable, seen from outside the process:
/// `STREAMS_INSPECTOR=1` starts the recorder before `main` (StreamsInspectorStartup's constructor),
/// and only an executable that links StreamsInspector needs `libswiftRuntime` (call-site
/// symbolication); one that uses Streams alone (`blocking-demo`) does not.
final class InspectorEnvironmentTests: XCTestCase {
    /// `name`, built next to this test bundle (`swift build` / `swift test` build every executable).
    private func executable(_ name: String) throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [bundle.deletingLastPathComponent(), Bundle(for: Self.self).bundleURL.deletingLastPathComponent()]
        for folder in candidates {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw MissingExecutable(name: name, folders: candidates.map(\.path))
    }

    private struct MissingExecutable: Error, CustomStringConvertible {
        let name: String
        let folders: [String]
        var description: String { "\(name) is not built next to the tests (looked in \(folders))" }
    }

    private func run(_ executable: URL, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        var inherited = ProcessInfo.processInfo.environment
        inherited["STREAMS_INSPECTOR"] = nil
        process.environment = inherited.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    #if Inspector
    func testEnvironmentVariable_recordsFromTheFirstSubscriptionWithoutStart() throws {
        let result = try run(executable("inspector-environment-demo"), environment: ["STREAMS_INSPECTOR": "1"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("answer: 30"), result.output)
        XCTAssertTrue(result.output.contains("recording: true"), result.output)
        XCTAssertTrue(result.output.contains(#"logged for "answers": next(10) next(20) next(30) completed()"#), result.output)
    }

    func testWithoutTheVariable_nothingIsRecorded() throws {
        for value in [nil, "0", "yes"] {
            let result = try run(executable("inspector-environment-demo"), environment: value.map { ["STREAMS_INSPECTOR": $0] } ?? [:])
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertTrue(result.output.contains("answer: 30"), result.output)
            XCTAssertTrue(result.output.contains("recording: false"), result.output)
            XCTAssertTrue(result.output.contains(#"logged for "answers": "#) && result.output.contains("chains: 0"), result.output)
        }
    }
    #endif

    #if os(Linux)
    /// The libraries an ELF executable needs (`readelf -d`).
    private func neededLibraries(_ executable: URL) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
        process.arguments = ["-d", executable.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").filter { $0.contains("(NEEDED)") }.map(String.init)
    }

    func testOnlyAnExecutableLinkingStreamsInspectorNeedsLibswiftRuntime() throws {
        let streamsOnly = try neededLibraries(executable("blocking-demo"))
        XCTAssertFalse(streamsOnly.isEmpty)
        XCTAssertFalse(streamsOnly.contains { $0.contains("libswiftRuntime") }, streamsOnly.joined(separator: "\n"))
        #if Inspector
        let inspecting = try neededLibraries(executable("inspector-environment-demo"))
        XCTAssertTrue(inspecting.contains { $0.contains("libswiftRuntime") }, inspecting.joined(separator: "\n"))
        #endif
    }
    #endif
}

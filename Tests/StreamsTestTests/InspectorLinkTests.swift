import Foundation
import XCTest

/// What linking StreamsInspector changes in an executable, seen from outside the process:
/// `STREAMS_INSPECTOR=1` starts the recorder before `main` (StreamsInspectorStartup's constructor),
/// and only an executable that links StreamsInspector needs `libswiftRuntime` (call-site
/// symbolication); one that uses Streams alone (`blocking-demo`) does not.
final class InspectorLinkTests: XCTestCase {
    private func executable(_ name: String) throws -> String { try BuiltExecutables.url(name, near: Self.self).path }

    #if Inspector
    func testEnvironmentVariable_recordsFromTheFirstSubscriptionWithoutStart() throws {
        let result = try BuiltExecutables.run(executable("inspector-environment-demo"), environment: ["STREAMS_INSPECTOR": "1"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("answer: 30"), result.output)
        XCTAssertTrue(result.output.contains("recording: true"), result.output)
        XCTAssertTrue(result.output.contains(#"logged for "answers": next(10) next(20) next(30) completed()"#), result.output)
    }

    func testWithoutTheVariable_nothingIsRecorded() throws {
        for value in [nil, "0", "yes"] {
            let result = try BuiltExecutables.run(executable("inspector-environment-demo"), environment: ["STREAMS_INSPECTOR": value])
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertTrue(result.output.contains("answer: 30"), result.output)
            XCTAssertTrue(result.output.contains("recording: false"), result.output)
            XCTAssertTrue(result.output.contains(#"logged for "answers": "#) && result.output.contains("chains: 0"), result.output)
        }
    }
    #endif

    #if os(Linux)
    /// The libraries an ELF executable needs (`readelf -d`).
    private func neededLibraries(_ executable: String) throws -> [String] {
        let result = try BuiltExecutables.run("/usr/bin/readelf", ["-d", executable])
        XCTAssertEqual(result.status, 0, result.output)
        return result.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }.map(String.init)
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

import Foundation
import XCTest

/// `StreamsBlocking` is usable from a command-line tool or an app without the test framework:
/// the `blocking-demo` executable, which imports StreamsBlocking alone, runs and links no XCTest.
final class StreamsBlockingLinkTests: XCTestCase {
    private func demoExecutable() throws -> URL { try BuiltExecutables.url("blocking-demo", near: Self.self) }

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try BuiltExecutables.run(executable, arguments)
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

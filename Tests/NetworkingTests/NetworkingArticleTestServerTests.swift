import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import StreamsTest
import XCTest

/// Networking's "The loopback test server": the snippet that seeds the database as the admin and
/// reads the request log, compiled and run here, and compared with the article's block.
final class NetworkingArticleTestServerTests: XCTestCase {
    func testSeedingAndRequestLogSnippetRunsAsTheArticleSays() throws {
        XCTAssertTrue(try Self.compact(Self.article()).contains(Self.compact(Self.snippet())), "keep the article's block in step")

        let server = try FirebaseTestServer()
        defer { server.stop() }
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "article")
        let database = try FirebaseRESTDatabase(endpoints: server.endpoints, scheduler: scheduler)
        // article:begin seed-and-log
        try server.setDatabaseValue(["title": "Launch", "members": ["u1": true]], at: "groups/g1")
        try server.updateDatabaseChildren(["members/u2": true], at: "groups/g1")  // as a PATCH
        try server.removeDatabaseValue(at: "groups/g1/members/u1")  // as a DELETE

        let group = try database.getValue(at: "groups/g1").toBlocking(timeout: 10).single()  // the code under test
        let reads = server.requests(on: .database)
        XCTAssertEqual(reads.map(\.method), ["GET"])  // the seeding is not in the log
        XCTAssertEqual(reads.first?.path, "/groups/g1.json")
        XCTAssertEqual(try server.databaseValue(at: "groups/g1"), group)
        server.clearRequestLog()
        // article:end seed-and-log
        XCTAssertEqual(group, ["title": "Launch", "members": ["u2": true]])
        XCTAssertEqual(server.requests, [])
    }

    private static func compact(_ text: String) -> String { String(text.filter { !$0.isWhitespace }) }

    private static func article() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Sources/ConfigFeatures/ConfigFeatures.docc/Networking.md"), encoding: .utf8)
    }

    /// This file's lines between `// article:begin seed-and-log` and `// article:end seed-and-log`.
    private static func snippet() throws -> String {
        let lines = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8).components(separatedBy: "\n")
        let begin = try XCTUnwrap(lines.firstIndex { $0.hasSuffix("// article:begin seed-and-log") })
        let end = try XCTUnwrap(lines.firstIndex { $0.hasSuffix("// article:end seed-and-log") })
        return lines[(begin + 1)..<end].joined(separator: "\n")
    }
}

import XCTest
import ConfigFeatures

final class RealtimeDatabaseStreamEventTests: XCTestCase {
    private func decode(_ type: String, _ data: String) throws -> RealtimeDatabaseStreamEvent? {
        try RealtimeDatabaseStreamEvent.decode(ServerSentEvent(type: type, data: data))
    }

    private func path(_ text: String) throws -> RealtimeDatabasePath { try RealtimeDatabasePath(text) }

    private func assertInvalid(_ type: String, _ data: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try decode(type, data), file: file, line: line) { error in
            guard case .invalidResponse? = error as? FirebaseRESTDatabaseError else {
                return XCTFail("\(error)", file: file, line: line)
            }
        }
    }

    func testRealtimeDatabaseStreamEvent_decodesPut() throws {
        XCTAssertEqual(try decode("put", #"{"path":"/","data":{"a":1,"b":[true,null]}}"#), .put(path: .root, data: ["a": 1, "b": [true, nil]]))
        XCTAssertEqual(try decode("put", #"{"path":"/a/b","data":null}"#), .put(path: try path("a/b"), data: nil))
        XCTAssertEqual(try decode("put", #"{"data":"x","path":"/ユーザー/😀 x"}"#), .put(path: try path("ユーザー/😀 x"), data: "x"))
    }

    func testRealtimeDatabaseStreamEvent_decodesPatch() throws {
        XCTAssertEqual(
            try decode("patch", #"{"path":"/g","data":{"a":1,"b/c":null,"/d/":"x"}}"#),
            .patch(path: try path("g"), data: ["a": 1, "b/c": nil, "/d/": "x"])
        )
        XCTAssertEqual(try decode("patch", #"{"path":"/","data":{}}"#), .patch(path: .root, data: [:]))
    }

    func testRealtimeDatabaseStreamEvent_decodesControlEvents() throws {
        XCTAssertEqual(try decode("keep-alive", "null"), .keepAlive)
        XCTAssertEqual(try decode("keep-alive", ""), .keepAlive)
        XCTAssertEqual(try decode("cancel", "null"), .cancel(reason: nil))
        XCTAssertEqual(try decode("cancel", #""Permission denied""#), .cancel(reason: "Permission denied"))
        XCTAssertEqual(try decode("auth_revoked", #""credential is no longer valid""#), .authRevoked(reason: "credential is no longer valid"))
        XCTAssertEqual(try decode("auth_revoked", "token expired"), .authRevoked(reason: "token expired"), "raw text when not JSON")
        XCTAssertEqual(try decode("auth_revoked", #"{"code":1}"#), .authRevoked(reason: #"{"code":1}"#))
        XCTAssertEqual(try decode("auth_revoked", "  "), .authRevoked(reason: nil))
    }

    func testRealtimeDatabaseStreamEvent_unknownTypesAreIgnored() throws {
        XCTAssertNil(try decode("message", #"{"path":"/","data":1}"#))
        XCTAssertNil(try decode("rules_debug", "garbage{"))
        XCTAssertNil(try decode("PUT", #"{"path":"/","data":1}"#), "types are case-sensitive")
    }

    func testRealtimeDatabaseStreamEvent_malformedPayloadsThrow() {
        assertInvalid("put", "")
        assertInvalid("put", "not json")
        assertInvalid("put", "null")
        assertInvalid("put", "[1]")
        assertInvalid("put", #"{"data":1}"#)
        assertInvalid("put", #"{"path":"/a"}"#)
        assertInvalid("put", #"{"path":3,"data":1}"#)
        assertInvalid("put", #"{"path":"/a//b","data":1}"#)
        assertInvalid("put", #"{"path":"/a.b","data":1}"#)
        assertInvalid("patch", #"{"path":"/","data":1}"#)
        assertInvalid("patch", #"{"path":"/","data":null}"#)
        assertInvalid("patch", #"{"path":"/","data":{"":1}}"#)
        assertInvalid("patch", #"{"path":"/","data":{"a//b":1}}"#)
        assertInvalid("patch", #"{"path":"/","data":{"a$":1}}"#)
    }

    func testRealtimeDatabaseStreamEvent_decodesWhatTheParserProduces() throws {
        var parser = ServerSentEventParser()
        let events = parser.feed("event: put\ndata: {\"path\": \"/\", \"data\": {\"a\": 1}}\n\nevent: keep-alive\ndata: null\n\n".utf8)
        XCTAssertEqual(try events.map { try RealtimeDatabaseStreamEvent.decode($0) }, [.put(path: .root, data: ["a": 1]), .keepAlive])
    }
}

import Foundation
import XCTest
import ConfigFeatures
import StreamsTest

final class RealtimeDatabaseRESTWireTests: XCTestCase {
    private let database = URL(string: "https://demo-db.firebaseio.com")!

    private func path(_ text: String) throws -> RealtimeDatabasePath { try RealtimeDatabasePath(text) }

    private func json(_ data: Data?) throws -> JSONValue { try JSONValue(parsing: try XCTUnwrap(data)) }

    private func response(_ status: Int, _ body: String) -> WireResponse {
        WireResponse(statusCode: status, body: Data(body.utf8))
    }

    // MARK: - URLs

    func testRealtimeDatabaseRESTWire_urlsEndInJSONAndEncodeSegments() throws {
        let wire = RealtimeDatabaseRESTWire(databaseURL: database)
        XCTAssertEqual(wire.url(for: .root).absoluteString, "https://demo-db.firebaseio.com/.json")
        XCTAssertEqual(wire.url(for: try path("Groups/group0/1")).absoluteString, "https://demo-db.firebaseio.com/Groups/group0/1.json")
        XCTAssertEqual(wire.url(for: try path("a b/ü?&=+%/😀")).absoluteString, "https://demo-db.firebaseio.com/a%20b/%C3%BC%3F%26%3D%2B%25/%F0%9F%98%80.json")
        XCTAssertEqual(
            RealtimeDatabaseRESTWire(databaseURL: URL(string: "http://127.0.0.1:9000/prefix/")!).url(for: try path("x")).absoluteString,
            "http://127.0.0.1:9000/prefix/x.json")
    }

    func testRealtimeDatabaseRESTWire_authQuery() throws {
        let location = try path("a")
        XCTAssertEqual(
            RealtimeDatabaseRESTWire(databaseURL: database, auth: .idToken("id.tok-en_1")).url(for: location).absoluteString,
            "https://demo-db.firebaseio.com/a.json?auth=id.tok-en_1")
        XCTAssertEqual(
            RealtimeDatabaseRESTWire(databaseURL: database, auth: .accessToken("ya29.a+b/c=")).url(for: location).absoluteString,
            "https://demo-db.firebaseio.com/a.json?access_token=ya29.a%2Bb%2Fc%3D")
        let emulator = RealtimeDatabaseRESTWire(databaseURL: URL(string: "http://127.0.0.1:9000?ns=demo")!, auth: .idToken("t"))
        XCTAssertEqual(emulator.url(for: location).absoluteString, "http://127.0.0.1:9000/a.json?ns=demo&auth=t")
    }

    func testFirebaseRESTAuth_descriptionHidesTheToken() {
        XCTAssertEqual(FirebaseRESTAuth.none.description, "none")
        XCTAssertEqual(FirebaseRESTAuth.idToken("secret").description, "idToken(<redacted>)")
        XCTAssertEqual("\(FirebaseRESTAuth.accessToken("secret"))", "accessToken(<redacted>)")
    }

    // MARK: - Requests

    func testRealtimeDatabaseRESTWire_readAndStreamRequests() throws {
        let wire = RealtimeDatabaseRESTWire(databaseURL: database)
        let read = wire.readRequest(at: try path("a"))
        XCTAssertEqual(read.method, .get)
        XCTAssertEqual(read.url.absoluteString, "https://demo-db.firebaseio.com/a.json")
        XCTAssertNil(read.body)
        let stream = wire.streamRequest(at: try path("a"))
        XCTAssertEqual(stream.method, .get)
        XCTAssertEqual(stream.header("accept"), "text/event-stream")
        XCTAssertNil(stream.body)
    }

    func testRealtimeDatabaseRESTWire_writeRequests() throws {
        let wire = RealtimeDatabaseRESTWire(databaseURL: database, auth: .idToken("t"))
        let set = try wire.request(for: .setValue(["b": 1, "c": nil], at: "/a/"))
        XCTAssertEqual(set.method, .put)
        XCTAssertEqual(set.url.absoluteString, "https://demo-db.firebaseio.com/a.json?auth=t")
        XCTAssertEqual(set.header("Content-Type"), "application/json")
        XCTAssertEqual(try json(set.body), ["b": 1], "normalized")

        let delete = try wire.request(for: .setValue(nil, at: "a"))
        XCTAssertEqual(delete.method, .put)
        XCTAssertEqual(String(decoding: try XCTUnwrap(delete.body), as: UTF8.self), "null")

        let update = try wire.request(for: .updateChildValues(["x": 1, "/y/z/": nil, "w": ["k": nil]], at: "a"))
        XCTAssertEqual(update.method, .patch)
        XCTAssertEqual(update.url.absoluteString, "https://demo-db.firebaseio.com/a.json?auth=t")
        XCTAssertEqual(String(decoding: try XCTUnwrap(update.body), as: UTF8.self), #"{"w":null,"x":1,"y/z":null}"#, "nulls kept: they delete")

        let remove = try wire.request(for: .removeValue(at: "a/b"))
        XCTAssertEqual(remove.method, .delete)
        XCTAssertEqual(remove.url.absoluteString, "https://demo-db.firebaseio.com/a/b.json?auth=t")
        XCTAssertNil(remove.body)

        let push = try wire.pushRequest(["t": "hi"], at: "messages")
        XCTAssertEqual(push.method, .post)
        XCTAssertEqual(push.url.absoluteString, "https://demo-db.firebaseio.com/messages.json?auth=t")
        XCTAssertEqual(try json(push.body), ["t": "hi"])
    }

    func testRealtimeDatabaseRESTWire_invalidWritesThrowTheDatabasesErrors() {
        let wire = RealtimeDatabaseRESTWire(databaseURL: database)
        XCTAssertThrowsError(try wire.request(for: .setValue(1, at: "a//b"))) {
            XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidPath("a//b", reason: "empty segment"))
        }
        XCTAssertThrowsError(try wire.request(for: .removeValue(at: "a.b"))) {
            guard case .invalidPath? = $0 as? RealtimeDatabaseError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try wire.request(for: .setValue(["a.b": 1], at: "x"))) {
            guard case .invalidValue? = $0 as? RealtimeDatabaseError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try wire.request(for: .setValue(.number(.infinity), at: "x"))) {
            guard case .invalidValue? = $0 as? RealtimeDatabaseError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try wire.request(for: .updateChildValues(["": 1], at: "x"))) {
            XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidUpdate(path: "x", reason: "empty key"))
        }
        XCTAssertThrowsError(try wire.request(for: .updateChildValues(["a": 1, "a/b": 2], at: "x"))) {
            XCTAssertEqual($0 as? RealtimeDatabaseError, .invalidUpdate(path: "x", reason: "\"/x/a\" overlaps \"/x/a/b\""))
        }
        XCTAssertThrowsError(try wire.request(for: .updateChildValues(["a$": 1], at: "x"))) {
            guard case .invalidPath? = $0 as? RealtimeDatabaseError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try wire.pushRequest(1, at: "a]"))
    }

    func testRealtimeDatabaseRESTWire_rejectsWhatTheInMemoryDatabaseRejects() throws {
        let wire = RealtimeDatabaseRESTWire(databaseURL: database)
        let memory = InMemoryRealtimeDatabase(scheduler: TestScheduler(initialClock: 0))
        let updates: [[String: JSONValue]] = [
            ["": 1], ["/": 1], ["a": 1, "/a/": 2], ["a/b": 1, "a": nil], ["a": 1, "a/b/c": 2], ["a#": 1], ["k": ["x/y": 1]],
        ]
        for update in updates {
            let wireError = thrownError { _ = try wire.request(for: .updateChildValues(update, at: "p")) } as? RealtimeDatabaseError
            let memoryError = thrownError { try memory.updateChildValues(update, at: "p") } as? RealtimeDatabaseError
            XCTAssertNotNil(wireError, "\(update)")
            XCTAssertEqual(wireError, memoryError, "\(update)")
        }
    }

    // MARK: - Responses

    func testRealtimeDatabaseRESTWire_decodesSuccessfulResponses() throws {
        XCTAssertEqual(try RealtimeDatabaseRESTWire.decodeResponse(response(200, #"{"a":[1,2]}"#)), ["a": [1, 2]])
        XCTAssertEqual(try RealtimeDatabaseRESTWire.decodeResponse(response(200, "null")), nil)
        XCTAssertEqual(try RealtimeDatabaseRESTWire.decodeResponse(response(200, #""text""#)), "text")
        XCTAssertEqual(try RealtimeDatabaseRESTWire.decodeResponse(response(204, "")), nil)
        XCTAssertEqual(try RealtimeDatabaseRESTWire.decodeResponse(response(200, #"{"name":"-Nabc"}"#))["name"], "-Nabc")
    }

    func testRealtimeDatabaseRESTWire_mapsErrorStatuses() {
        let cases: [(WireResponse, FirebaseRESTDatabaseError)] = [
            (response(401, #"{"error" : "Permission denied"}"#), .permissionDenied(message: "Permission denied")),
            (response(403, ""), .permissionDenied(message: "no details")),
            (response(400, #"{"error":"Invalid data; couldn't parse JSON object."}"#), .invalidData(message: "Invalid data; couldn't parse JSON object.")),
            (response(500, "Internal error"), .unavailable(statusCode: 500, message: "Internal error")),
            (response(503, #"{"error":{"message":"backend down"}}"#), .unavailable(statusCode: 503, message: "backend down")),
            (response(404, #"{"error":"Not found"}"#), .http(statusCode: 404, message: "Not found")),
            (response(429, ""), .http(statusCode: 429, message: "no details")),
            (response(307, ""), .http(statusCode: 307, message: "no details")),
        ]
        for (response, expected) in cases {
            XCTAssertEqual(RealtimeDatabaseRESTWire.error(for: response), expected)
            XCTAssertThrowsError(try RealtimeDatabaseRESTWire.decodeResponse(response)) {
                XCTAssertEqual($0 as? FirebaseRESTDatabaseError, expected)
            }
        }
        XCTAssertNil(RealtimeDatabaseRESTWire.error(for: response(200, "{")))
    }

    func testRealtimeDatabaseRESTWire_malformedBodyIsAnInvalidResponse() {
        XCTAssertThrowsError(try RealtimeDatabaseRESTWire.decodeResponse(response(200, "{nope"))) {
            guard case .invalidResponse? = $0 as? FirebaseRESTDatabaseError else { return XCTFail("\($0)") }
        }
    }

    func testFirebaseRESTDatabaseError_retryabilityAndDescriptions() {
        XCTAssertTrue(FirebaseRESTDatabaseError.unavailable(statusCode: 503, message: "m").isRetryable)
        XCTAssertTrue(FirebaseRESTDatabaseError.network(message: "reset").isRetryable)
        XCTAssertTrue(FirebaseRESTDatabaseError.http(statusCode: 429, message: "m").isRetryable)
        XCTAssertFalse(FirebaseRESTDatabaseError.http(statusCode: 404, message: "m").isRetryable)
        XCTAssertFalse(FirebaseRESTDatabaseError.permissionDenied(message: "m").isRetryable)
        XCTAssertFalse(FirebaseRESTDatabaseError.invalidData(message: "m").isRetryable)
        XCTAssertFalse(FirebaseRESTDatabaseError.authRevoked(message: "m").isRetryable)
        XCTAssertFalse(FirebaseRESTDatabaseError.invalidResponse(message: "m").isRetryable)
        XCTAssertEqual(FirebaseRESTDatabaseError.permissionDenied(message: "Permission denied").description, "permission denied: Permission denied")
        XCTAssertEqual(FirebaseRESTDatabaseError.unavailable(statusCode: 503, message: "x").description, "service unavailable (HTTP 503): x")
    }
}

/// The error `body` throws, `nil` when it succeeds.
private func thrownError(_ body: () throws -> Void) -> Error? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

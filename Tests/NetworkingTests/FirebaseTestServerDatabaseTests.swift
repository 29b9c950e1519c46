import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

final class FirebaseTestServerDatabaseTests: FirebaseTestServerTestCase {
    // MARK: REST

    func testGet_absentIsNull() throws {
        let result = try client.send("GET", server.databaseURL("/nothing/here"))
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.text, "null")
    }

    func testGet_valueAndRoot() throws {
        try server.setDatabaseValue(["group0": ["c0", "c1"], "title": "x"], at: "Groups")
        XCTAssertEqual(try client.send("GET", server.databaseURL("/Groups/group0")).json, ["c0", "c1"])
        XCTAssertEqual(try client.send("GET", server.databaseURL("/Groups/group0/1")).json, "c1")
        XCTAssertEqual(try client.send("GET", server.databaseURL("/")).json, ["Groups": ["group0": ["c0", "c1"], "title": "x"]])
    }

    func testPut_replacesAndEchoes() throws {
        let result = try client.send("PUT", server.databaseURL("/users/u1"), json: ["name": "Ada", "age": 36])
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.json, ["name": "Ada", "age": 36])
        XCTAssertEqual(try server.databaseValue(at: "users/u1/name"), "Ada")
        _ = try client.send("PUT", server.databaseURL("/users/u1"), json: ["name": "Grace"])
        XCTAssertEqual(try server.databaseValue(at: "users"), ["u1": ["name": "Grace"]])
    }

    func testPatch_updatesChildrenWithSlashKeys() throws {
        try server.setDatabaseValue(["u1": ["name": "Ada", "age": 36], "u2": ["name": "Bob"]], at: "users")
        let patch: JSONValue = ["u1/age": 37, "u2": nil, "u3/name": "Cy"]
        let result = try client.send("PATCH", server.databaseURL("/users"), json: patch)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.json, patch)
        XCTAssertEqual(try server.databaseValue(at: "users"), ["u1": ["name": "Ada", "age": 37], "u3": ["name": "Cy"]])
    }

    func testPatch_rejectsNonObjectsAndOverlaps() throws {
        XCTAssertEqual(try client.send("PATCH", server.databaseURL("/a"), json: [1, 2]).status, 400)
        let overlap = try client.send("PATCH", server.databaseURL("/a"), json: ["b": 1, "b/c": 2])
        XCTAssertEqual(overlap.status, 400)
        XCTAssertNotNil(overlap.json?["error"]?.stringValue)
        XCTAssertEqual(try server.databaseValue(at: "/"), nil)
    }

    func testPost_storesUnderAPushID() throws {
        let first = try client.send("POST", server.databaseURL("/messages"), json: ["text": "one"])
        let second = try client.send("POST", server.databaseURL("/messages"), json: ["text": "two"])
        XCTAssertEqual(first.status, 200)
        let firstKey = try XCTUnwrap(first.json?["name"]?.stringValue)
        let secondKey = try XCTUnwrap(second.json?["name"]?.stringValue)
        XCTAssertEqual(firstKey.count, 20)
        XCTAssertLessThan(firstKey, secondKey)
        XCTAssertNotNil(PushIDGenerator.timestamp(ofPushID: firstKey))
        XCTAssertEqual(try server.databaseValue(at: "messages"), [firstKey: ["text": "one"], secondKey: ["text": "two"]])
    }

    func testDelete_removesAndPrunes() throws {
        try server.setDatabaseValue(["b": ["c": 1]], at: "a")
        let result = try client.send("DELETE", server.databaseURL("/a/b/c"))
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.text, "null")
        XCTAssertEqual(try server.databaseValue(at: "/"), nil)
    }

    func testPrintSilentAndPretty() throws {
        let silent = try client.send("PUT", server.databaseURL("/a", query: ["print": "silent"]), json: ["b": 1])
        XCTAssertEqual(silent.status, 204)
        XCTAssertEqual(silent.body, Data())
        let pretty = try client.send("GET", server.databaseURL("/a", query: ["print": "pretty"]))
        XCTAssertTrue(pretty.text.contains("\n"), pretty.text)
        XCTAssertEqual(pretty.json, ["b": 1])
    }

    func testInvalidJSONIs400() throws {
        let result = try client.send("PUT", server.databaseURL("/a"), body: Data("{nope".utf8))
        XCTAssertEqual(result.status, 400)
        XCTAssertEqual(result.json?["error"]?.stringValue?.hasPrefix("Invalid data; couldn't parse JSON object"), true)
        XCTAssertEqual(try server.databaseValue(at: "a"), nil)
    }

    func testInvalidPathAndValueAre400() throws {
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a$b")).status, 400)
        XCTAssertEqual(try client.send("PUT", server.databaseURL("/a"), json: ["bad.key": 1]).status, 400)
    }

    func testUnknownPathIs404AndOtherMethodsAre405() throws {
        XCTAssertEqual(try client.send("GET", server.baseURL.appendingPathComponent("no-suffix")).status, 404)
        XCTAssertEqual(try client.send("OPTIONS", server.databaseURL("/a")).status, 405)
    }

    func testPercentEncodedPath() throws {
        try server.setDatabaseValue("v", at: "with space/ü")
        let url = URL(string: "\(server.baseURL)/with%20space/%C3%BC.json")!
        XCTAssertEqual(try client.send("GET", url).json, "v")
        XCTAssertEqual(server.requests.last?.path, "/with space/ü.json")
    }

    // MARK: Auth

    func testAuth_requiredTokens() throws {
        try server.setDatabaseValue(1, at: "a")
        server.requireDatabaseAuth(validTokens: ["good", "also"])
        let denied = try client.send("GET", server.databaseURL("/a"))
        XCTAssertEqual(denied.status, 401)
        XCTAssertEqual(denied.text, #"{"error":"Permission denied"}"#)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": "bad"])).status, 401)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": "good"])).json, 1)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["access_token": "also"])).json, 1)
        server.allowUnauthenticatedDatabaseAccess()
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a")).status, 200)
    }

    func testAuth_revokedTokenIsRefusedEvenWithoutRequiredAuth() throws {
        server.revokeAuth("old")
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": "old"])).status, 401)
        XCTAssertEqual(try client.send("GET", server.databaseURL("/a", query: ["auth": "new"])).status, 200)
    }

    // MARK: Streaming

    func testSSE_firstPutIsTheValue() throws {
        try server.setDatabaseValue(["c0", "c1"], at: "Groups/group0")
        let stream = openSSE("/Groups")
        XCTAssertEqual(stream.snapshot.status, 200)
        XCTAssertEqual(stream.snapshot.headers["content-type"], "text/event-stream; charset=utf-8")
        XCTAssertEqual(stream.events, [SSEEvent(event: "put", data: #"{"path":"/","data":{"group0":["c0","c1"]}}"#)])
        XCTAssertEqual(server.openStreamCount(route: .database), 1)
    }

    func testSSE_firstPutOfAbsentDataIsNull() throws {
        let stream = openSSE("/missing")
        XCTAssertEqual(stream.events.first?.json, ["path": "/", "data": nil])
    }

    func testSSE_laterWritesArriveWithRelativePaths() throws {
        try server.setDatabaseValue(["title": "t"], at: "Groups/g0")
        let stream = openSSE("/Groups")
        _ = try client.send("PUT", server.databaseURL("/Groups/g0/title"), json: "t2")  // below: put /g0/title
        _ = try client.send("PATCH", server.databaseURL("/Groups/g0"), json: ["a": 1, "b/c": 2])  // below: patch /g0
        _ = try client.send("PUT", server.databaseURL("/Groups"), json: ["x": 1])  // at: put /
        _ = try client.send("PUT", server.databaseURL("/Other"), json: 5)  // elsewhere: nothing
        _ = try client.send("DELETE", server.databaseURL("/Groups/x"))  // below: put /x null
        wait(for: [stream.expectEvents(5)], timeout: networkTimeout)
        XCTAssertEqual(stream.events.map(\.event), ["put", "put", "patch", "put", "put"])
        XCTAssertEqual(
            stream.events.dropFirst().map(\.json),
            [
                ["path": "/g0/title", "data": "t2"],
                ["path": "/g0", "data": ["a": 1, "b/c": 2]],
                ["path": "/", "data": ["x": 1]],
                ["path": "/x", "data": nil],
            ])
    }

    func testSSE_writesAboveTheLocationSendTheNewValueAtRoot() throws {
        try server.setDatabaseValue(["g0": ["a": 1], "g1": ["b": 2]], at: "Groups")
        let stream = openSSE("/Groups/g0")
        try server.setDatabaseValue(["g0": ["a": 9], "g1": ["b": 2]], at: "Groups")  // changes g0: put /
        try server.setDatabaseValue(["g0": ["a": 9], "g1": ["b": 3]], at: "Groups")  // g0 unchanged: nothing
        try server.updateDatabaseChildren(["g0/a": 10, "g1/b": 4], at: "Groups")  // base above: patch / {a}
        try server.updateDatabaseChildren(["g0": ["z": 1]], at: "Groups")  // key covers g0: put /
        wait(for: [stream.expectEvents(4)], timeout: networkTimeout)
        XCTAssertEqual(
            stream.events.dropFirst().map(\.description),
            [
                #"put {"path":"/","data":{"a":9}}"#,
                #"patch {"path":"/","data":{"a":10}}"#,
                #"put {"path":"/","data":{"z":1}}"#,
            ])
    }

    func testSSE_swiftAPIAndPostNotifyStreams() throws {
        let stream = openSSE("/")
        try server.setDatabaseValue(1, at: "a/b")
        try server.updateDatabaseChildren(["c": 2], at: "a")
        try server.removeDatabaseValue(at: "a/b")
        let posted = try client.send("POST", server.databaseURL("/list"), json: "item")
        let key = try XCTUnwrap(posted.json?["name"]?.stringValue)
        wait(for: [stream.expectEvents(5)], timeout: networkTimeout)
        XCTAssertEqual(
            stream.events.dropFirst().map(\.description),
            [
                #"put {"path":"/a/b","data":1}"#,
                #"patch {"path":"/a","data":{"c":2}}"#,
                #"put {"path":"/a/b","data":null}"#,
                #"put {"path":"/list/\#(key)","data":"item"}"#,
            ])
    }

    func testSSE_keepAlive() throws {
        let stream = openSSE("/a")
        server.databaseKeepAliveInterval = 0.05
        XCTAssertEqual(server.databaseKeepAliveInterval, 0.05)
        wait(for: [stream.expectEvents(3)], timeout: networkTimeout)
        XCTAssertEqual(stream.events.dropFirst().prefix(2), [SSEEvent(event: "keep-alive", data: "null"), SSEEvent(event: "keep-alive", data: "null")])
        server.databaseKeepAliveInterval = nil
    }

    func testSSE_cancelEndsEveryStream() throws {
        let first = openSSE("/a")
        let second = openSSE("/b")
        server.sendCancel()
        XCTAssertEqual(server.openStreamCount(route: .database), 0)
        wait(for: [first.expectFinished(), second.expectFinished()], timeout: networkTimeout)
        XCTAssertEqual(first.events.last, SSEEvent(event: "cancel", data: "null"))
        XCTAssertEqual(second.events.last, SSEEvent(event: "cancel", data: "null"))
    }

    func testSSE_authRevokedEndsTheStreamsOfThatToken() throws {
        server.requireDatabaseAuth(validTokens: ["t1", "t2"])
        let revoked = openSSE("/a", query: ["auth": "t1"])
        let kept = openSSE("/a", query: ["auth": "t2"])
        server.revokeAuth("t1")
        wait(for: [revoked.expectFinished()], timeout: networkTimeout)
        XCTAssertEqual(revoked.events.last, SSEEvent(event: "auth_revoked", data: "credential is no longer valid"))
        XCTAssertTrue(server.waitForOpenStreams(1, route: .database))
        XCTAssertFalse(kept.snapshot.isFinished)
        let retry = try client.send("GET", server.databaseURL("/a", query: ["auth": "t1"]), headers: ["Accept": "text/event-stream"])
        XCTAssertEqual(retry.status, 401)
    }

    func testSSE_deniedStreamIs401() throws {
        server.requireDatabaseAuth(validTokens: ["t"])
        let result = try client.send("GET", server.databaseURL("/a"), headers: ["Accept": "text/event-stream"])
        XCTAssertEqual(result.status, 401)
        XCTAssertEqual(server.openStreamCount(), 0)
    }

    func testSSE_clientDisconnectClosesTheStream() throws {
        let stream = openSSE("/a")
        stream.cancel()
        XCTAssertTrue(server.waitForOpenStreams(0, route: .database))
        try server.setDatabaseValue(1, at: "a")
    }
}

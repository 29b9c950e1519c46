import Foundation
import XCTest
@testable import ConfigFeatures

final class WireURLTests: XCTestCase {
    func testWireURL_encodesEverythingButUnreservedCharacters() {
        XCTAssertEqual(WireURL.encode("aZ09-._~"), "aZ09-._~")
        XCTAssertEqual(WireURL.encode("a b/c?d#e&f=g+h%i:j@k"), "a%20b%2Fc%3Fd%23e%26f%3Dg%2Bh%25i%3Aj%40k")
        XCTAssertEqual(WireURL.encode("é😀"), "%C3%A9%F0%9F%98%80")
        XCTAssertEqual(WireURL.encode(""), "")
    }

    func testWireURL_appendsPathAndQueryToTheBase() {
        let base = URL(string: "https://example.com")!
        XCTAssertEqual(WireURL.make(base: base, encodedPath: "/a/b.json").absoluteString, "https://example.com/a/b.json")
        XCTAssertEqual(
            WireURL.make(base: URL(string: "https://example.com/")!, encodedPath: "/a", query: [("k", "v w")]).absoluteString, "https://example.com/a?k=v%20w")
        XCTAssertEqual(
            WireURL.make(base: URL(string: "http://127.0.0.1:8080/prefix/")!, encodedPath: "/x:fetch", query: [("key", "a&b")]).absoluteString,
            "http://127.0.0.1:8080/prefix/x:fetch?key=a%26b")
    }

    func testWireURL_keepsTheBaseQuery() {
        let base = URL(string: "http://127.0.0.1:9000?ns=demo-db")!
        XCTAssertEqual(WireURL.make(base: base, encodedPath: "/.json", query: [("auth", "t")]).absoluteString, "http://127.0.0.1:9000/.json?ns=demo-db&auth=t")
        XCTAssertEqual(WireURL.make(base: base, encodedPath: "/.json").absoluteString, "http://127.0.0.1:9000/.json?ns=demo-db")
    }

    func testWireResponse_headersAreCaseInsensitive() {
        let response = WireResponse(statusCode: 200, headers: ["etag": "e1", "Content-Type": "application/json"])
        XCTAssertEqual(response.header("ETag"), "e1")
        XCTAssertEqual(response.header("content-type"), "application/json")
        XCTAssertNil(response.header("Location"))
        XCTAssertEqual(WireRequest(method: .get, url: URL(string: "https://h")!, headers: ["Accept": "x"]).header("ACCEPT"), "x")
    }

    func testWireResponse_bodyExcerpt() {
        XCTAssertNil(WireResponse(statusCode: 500).bodyExcerpt())
        XCTAssertNil(WireResponse(statusCode: 500, body: Data(" \n".utf8)).bodyExcerpt())
        XCTAssertEqual(WireResponse(statusCode: 500, body: Data(" oops\n".utf8)).bodyExcerpt(), "oops")
        XCTAssertEqual(WireResponse(statusCode: 500, body: Data("abcdef".utf8)).bodyExcerpt(limit: 3), "abc…")
    }
}

import XCTest
import ConfigFeatures

final class JSONValueTests: XCTestCase {
    func testJSONValue_parsesEveryKind() throws {
        let value = try JSONValue(parsing: #"{"a": null, "b": true, "c": 1, "d": 2.5, "e": "x", "f": [1, false], "g": {"h": "i"}}"#)
        XCTAssertEqual(value, ["a": nil, "b": true, "c": 1, "d": 2.5, "e": "x", "f": [1, false], "g": ["h": "i"]])
    }

    func testJSONValue_boolsAndNumbersStayDistinct() throws {
        XCTAssertEqual(try JSONValue(parsing: "[true, 1, 0, false]"), [.bool(true), .number(1), .number(0), .bool(false)])
    }

    func testJSONValue_fragmentsParse() throws {
        XCTAssertEqual(try JSONValue(parsing: "3"), 3)
        XCTAssertEqual(try JSONValue(parsing: #""s""#), "s")
        XCTAssertEqual(try JSONValue(parsing: "null"), nil)
    }

    func testJSONValue_invalidTextThrowsTypedError() {
        XCTAssertThrowsError(try JSONValue(parsing: "{not json")) { error in
            XCTAssertTrue(error is JSONParseError, "\(type(of: error))")
        }
        XCTAssertThrowsError(try JSONValue(parsing: "")) { XCTAssertTrue($0 is JSONParseError) }
    }

    func testJSONValue_serializesWithSortedKeysAndRoundTrips() throws {
        let value: JSONValue = ["b": [1, "two", nil], "a": ["c": false]]
        XCTAssertEqual(value.serialized(), #"{"a":{"c":false},"b":[1,"two",null]}"#)
        XCTAssertEqual(try JSONValue(parsing: value.serialized()), value)
    }

    func testJSONValue_nonFiniteNumbersSerializeAsNull() {
        XCTAssertEqual(JSONValue.array([.number(.infinity), .number(.nan)]).serialized(), "[null,null]")
    }

    func testJSONValue_decodesAndEncodesCodableTypes() throws {
        struct Tab: Codable, Equatable { let title: String; let order: Int }
        let json: JSONValue = ["title": "make", "order": 2]
        XCTAssertEqual(try json.decoded(as: Tab.self), Tab(title: "make", order: 2))
        XCTAssertEqual(try JSONValue(encoding: Tab(title: "make", order: 2)), json)
        XCTAssertThrowsError(try JSONValue.string("x").decoded(as: Tab.self))
    }

    func testJSONValue_accessors() {
        let value: JSONValue = ["list": [1, 2], "name": "n"]
        XCTAssertEqual(value["list"]?[1], 2)
        XCTAssertNil(value["list"]?[5])
        XCTAssertNil(value["missing"])
        XCTAssertEqual(value["name"]?.stringValue, "n")
        XCTAssertNil(value["name"]?.numberValue)
        XCTAssertTrue(JSONValue.null.isNull)
    }
}

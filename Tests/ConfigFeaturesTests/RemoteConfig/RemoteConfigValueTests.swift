import Foundation
import XCTest
import ConfigFeatures
import StreamsTest

final class RemoteConfigValueTests: XCTestCase {
    private func value(_ text: String) -> RemoteConfigValue { RemoteConfigValue(string: text, source: .remote) }

    func testBoolValue_followsNSStringBoolValue() {
        let truthy = [
            "true", "TRUE", "True", "t", "T", "yes", "YES", "y", "Y", "1", "2", "9", "42", "007", "-1", "+1", "-007",
            " true", "  yes", "\ttrue", "\n1", "trueish", "yesterday", "1.5", "10", "-yes", "+t", "0true", "-0y",
        ]
        let falsy = [
            "", " ", "false", "FALSE", "f", "no", "NO", "n", "0", "00", "000", "-0", "+0", "0.5", ".5", "0x1", "abc",
            "on", "off", "+-1", "--1", "null", "é", "\u{FF11}",
        ]
        for text in truthy { XCTAssertTrue(value(text).boolValue, "\(text.debugDescription) should be true") }
        for text in falsy { XCTAssertFalse(value(text).boolValue, "\(text.debugDescription) should be false") }
    }

    func testBoolValue_matchesFoundationForUnambiguousInputs() {
        // Inputs where Apple's documented rule and swift-corelibs-foundation agree.
        for text in ["true", "yes", "1", "42", " true", "\ttrue", "-1", "+001", "0", "00", "0.5", "no", "", "  007", "T", "abc", "false"] {
            XCTAssertEqual(value(text).boolValue, NSString(string: text).boolValue, text.debugDescription)
        }
    }

    func testNumberValue_followsNSStringDoubleValue() {
        let cases: [(String, Double)] = [
            ("42", 42), ("-3", -3), ("+3", 3), ("2.5", 2.5), ("-.5", -0.5), (".5", 0.5), ("1.", 1), ("1e3", 1000),
            ("1E-2", 0.01), ("1.e2", 100), ("  7", 7), ("\t7", 7), ("12abc", 12), (" 3.5e2x", 350), ("1e", 1), ("1e+", 1),
            ("1,5", 1), ("", 0), ("abc", 0), ("true", 0), ("- 1", 0), ("+.e1", 0), (".", 0), ("-", 0), ("inf", 0), ("nan", 0),
            ("0x10", 0), ("1e400", .infinity), ("-1e400", -.infinity), ("{\"a\":1}", 0),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(value(text).numberValue, expected, text.debugDescription)
        }
    }

    func testStringAndDataValue() {
        XCTAssertEqual(value("héllo").stringValue, "héllo")
        XCTAssertEqual(value("héllo").dataValue, Data("héllo".utf8))
        let binary = RemoteConfigValue(data: Data([0xFF, 0x41]), source: .default)
        XCTAssertEqual(binary.dataValue, Data([0xFF, 0x41]))
        XCTAssertEqual(binary.stringValue, "\u{FFFD}A")
        XCTAssertEqual(binary.source, .default)
    }

    func testJSONValue_parsesJSONOrNil() {
        XCTAssertEqual(value(#"{"a": [1, true, null], "b": "x"}"#).jsonValue, ["a": [1, true, nil], "b": "x"])
        XCTAssertEqual(value("[1, 2]").jsonValue, [1, 2])
        XCTAssertEqual(value("3").jsonValue, 3)
        XCTAssertEqual(value("true").jsonValue, true)
        XCTAssertNil(value("make").jsonValue)
        XCTAssertNil(value("").jsonValue)
        XCTAssertNil(value("{broken").jsonValue)
    }

    func testDecoded_readsTextForTheRequestedType() throws {
        XCTAssertEqual(try value("make").decoded(asType: String.self), "make")
        XCTAssertEqual(try value("5").decoded(asType: String.self), "5")
        XCTAssertEqual(try value("5").decoded(asType: Int.self), 5)
        XCTAssertEqual(try value(" 5 ").decoded(asType: Int.self), 5)
        XCTAssertEqual(try value("2.5").decoded(asType: Double.self), 2.5)
        XCTAssertEqual(try value("4.0").decoded(asType: Int.self), 4)
        XCTAssertEqual(try value("true").decoded(asType: Bool.self), true)
        XCTAssertEqual(try value("NO").decoded(asType: Bool.self), false)
        XCTAssertEqual(try value("[1,2,3]").decoded(asType: [Int].self), [1, 2, 3])
        XCTAssertEqual(try value(#"{"x":1}"#).decoded(asType: [String: Int].self), ["x": 1])
        XCTAssertEqual(try value("https://example.com/a").decoded(asType: URL.self), URL(string: "https://example.com/a"))
        XCTAssertEqual(try value("null").decoded(asType: Int?.self), nil)

        struct Item: Decodable, Equatable { let id: Int; let name: String; let tags: [String]? }
        XCTAssertEqual(
            try value(#"[{"id":1,"name":"a"},{"id":2,"name":"b","tags":["x"]}]"#).decoded(asType: [Item].self),
            [Item(id: 1, name: "a", tags: nil), Item(id: 2, name: "b", tags: ["x"])])

        enum Mode: String, Decodable { case light, dark }
        XCTAssertEqual(try value("dark").decoded(asType: Mode.self), .dark)
    }

    func testDecoded_failuresAreTypedDecodingErrors() {
        func assertDecodingError<T: Decodable>(_ text: String, as type: T.Type, contains fragment: String, line: UInt = #line) {
            XCTAssertThrowsError(try value(text).decoded(asType: type), line: line) { error in
                guard case RemoteConfigError.decoding(let message) = error else { return XCTFail("\(error)", line: line) }
                XCTAssertTrue(message.contains(fragment), message, line: line)
            }
        }
        assertDecodingError("abc", as: Int.self, contains: "expected Int")
        assertDecodingError("2.5", as: Int.self, contains: "expected Int")
        assertDecodingError("300", as: UInt8.self, contains: "expected UInt8")
        assertDecodingError("maybe", as: Bool.self, contains: "expected Bool")
        assertDecodingError("not json", as: [Int].self, contains: "Expected a JSON array")
        assertDecodingError("[1, \"x\"]", as: [Int].self, contains: "[1]")
        struct Item: Decodable { let id: Int }
        assertDecodingError(#"{"name": "a"}"#, as: Item.self, contains: "id: key not found")
        enum Mode: String, Decodable { case light, dark }
        assertDecodingError("blue", as: Mode.self, contains: "Mode")
    }

    func testDescription() {
        XCTAssertEqual(value("x").description, #"RemoteConfigValue("x", source: remote)"#)
        XCTAssertEqual(RemoteConfigValue.staticValue.source, .static)
    }
}

final class RemoteConfigDecodingTests: XCTestCase {
    struct AppConfig: Decodable, Equatable {
        struct Item: Decodable, Equatable { let id: Int; let title: String }
        struct Theme: Decodable, Equatable { let color: String; let size: Double }
        let tabTitles: String
        let tabTitlesEn: String
        let count: Int
        let enabled: Bool
        let ratio: Double
        let requiredVersion: String
        let items: [Item]
        let theme: Theme
        let note: String?
    }

    func testDecoded_wholeConfigMergesRemoteOverDefaults() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(
                values: [
                    "tabTitles": "メイク",
                    "count": "12",
                    "items": #"[{"id": 1, "title": "one"}]"#,
                    "requiredVersion": "2",
                    "unused": "x",
                ], scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            remoteConfig.setDefaults([
                "tabTitles": "make",
                "tabTitlesEn": "make",
                "count": 3,
                "enabled": true,
                "ratio": 0.5,
                "requiredVersion": "1.0.0",
                "items": [],
                "theme": ["color": "red", "size": 12],
            ])
            XCTAssertEqual(
                try remoteConfig.decoded(asType: AppConfig.self),
                AppConfig(
                    tabTitles: "make", tabTitlesEn: "make", count: 3, enabled: true, ratio: 0.5, requiredVersion: "1.0.0",
                    items: [], theme: .init(color: "red", size: 12), note: nil))

            _ = scheduler.start { remoteConfig.fetchAndActivate() }

            XCTAssertEqual(
                try remoteConfig.decoded(asType: AppConfig.self),
                AppConfig(
                    tabTitles: "メイク", tabTitlesEn: "make", count: 12, enabled: true, ratio: 0.5, requiredVersion: "2",
                    items: [.init(id: 1, title: "one")], theme: .init(color: "red", size: 12), note: nil))
        }
    }

    func testDecoded_missingKeyAndBadValueAreTypedErrors() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let remoteConfig = RemoteConfig(backend: InMemoryRemoteConfigBackend(scheduler: scheduler), scheduler: scheduler)
            struct Small: Decodable { let title: String; let count: Int }
            remoteConfig.setDefaults(["title": "t"])
            XCTAssertThrowsError(try remoteConfig.decoded(asType: Small.self)) { error in
                XCTAssertEqual(error as? RemoteConfigError, .decoding("count: key not found"))
            }
            remoteConfig.setDefaults(["title": "t", "count": "many"])
            XCTAssertThrowsError(try remoteConfig.decoded(asType: Small.self)) { error in
                guard case RemoteConfigError.decoding(let message) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(message.hasPrefix("count: expected Int"), message)
            }
            XCTAssertThrowsError(try remoteConfig.decoded(asType: [Int].self)) { error in
                guard case RemoteConfigError.decoding = error else { return XCTFail("\(error)") }
            }
        }
    }

    func testDecoded_dictionaryOfAllValues() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let remoteConfig = RemoteConfig(backend: InMemoryRemoteConfigBackend(scheduler: scheduler), scheduler: scheduler)
        remoteConfig.setDefaults(["a": "1", "b": "two"])
        XCTAssertEqual(try remoteConfig.decoded(asType: [String: String].self), ["a": "1", "b": "two"])
    }
}

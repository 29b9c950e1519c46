import Foundation
import XCTest
import ConfigFeatures

/// Deep and adversarial JSON: parsing and writing use a constant call stack, reject nesting
/// past the limit with a typed error, and agree with Foundation's `JSONDecoder`/`JSONEncoder`.
final class JSONValueDepthTests: XCTestCase {
    private static func nestedArrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// `{"a":[{"a":[…]}]}`: arrays and objects alternating, `depth` containers in all.
    private static func alternating(_ depth: Int) -> String {
        var open = ""
        var close = ""
        for level in 0..<depth {
            if level.isMultiple(of: 2) {
                open += #"{"a":"#
                close = "}" + close
            } else {
                open += "["
                close = "]" + close
            }
        }
        return open + "1" + close
    }

    func testParsing_nestingAtTheLimitWorksOnASmallStack() {
        // Before: JSONValue.init(from:) recursed through JSONDecoder (and threw three
        // DecodingErrors per level): a 512 KiB stack overflowed at ~230 levels.
        let text = Self.nestedArrays(JSONValue.defaultMaximumDepth)
        let outcome = onSmallStack { () -> String in
            guard let value = try? JSONValue(parsing: text) else { return "failed to parse" }
            // What is done with a parsed value must fit the small stack at the limit too:
            // writing it (not recursive), comparing, hashing and releasing it (recursive in
            // the standard library, one small frame per level).
            guard value.serialized() == text else { return "serialized differently" }
            guard let again = try? JSONValue(parsing: text), again == value, again.hashValue == value.hashValue else { return "not equal" }
            return "ok"
        }
        XCTAssertEqual(outcome, "ok")
    }

    func testCodable_deepValuesInsideAUserTypeDecodeAsParsed() throws {
        // Found by a 10-minute fuzz run: `init(from:)` tried Bool, Double and String before
        // containers, and each failed attempt builds a DecodingError with the whole coding path,
        // so a 500-deep array took 12 s (ASan build). Containers are tried first now; the
        // result must be the same value, for every kind of node.
        struct Envelope: Codable, Equatable {
            let payload: JSONValue
        }
        for text in [Self.nestedArrays(500), Self.alternating(500), #"[null,true,1.5,"s",{"k":[false,0]}]"#] {
            let value = try JSONValue(parsing: Data(text.utf8))
            let envelope = try JSONDecoder().decode(Envelope.self, from: Data(#"{"payload":\#(text)}"#.utf8))
            XCTAssertEqual(envelope.payload, value)
            XCTAssertEqual(try value.decoded(as: JSONValue.self), value)
            XCTAssertEqual(try JSONValue(encoding: envelope).decoded(as: Envelope.self), envelope)
        }
        // Scalars keep their kinds: a number is not a bool, a numeric string is not a number.
        let scalars = try JSONDecoder().decode([JSONValue].self, from: Data(#"[true,1,0,"1",null]"#.utf8))
        XCTAssertEqual(scalars, [.bool(true), .number(1), .number(0), .string("1"), .null])
    }

    func testParsing_nestingPastTheLimitFailsWithNestingTooDeep() {
        let outcomes = onSmallStack { () -> [JSONParseError.Kind?] in
            [
                JSONValue.defaultMaximumDepth + 1,
                100_000,
            ].flatMap { depth in
                [Self.nestedArrays(depth), Self.alternating(depth)].map { text in
                    do {
                        _ = try JSONValue(parsing: text)
                        return nil
                    } catch {
                        return (error as? JSONParseError)?.kind
                    }
                }
            }
        }
        XCTAssertEqual(outcomes, Array(repeating: .nestingTooDeep(limit: 512), count: 4))
    }

    func testParsing_maximumDepthIsConfigurable() throws {
        XCTAssertEqual(try JSONValue(parsing: #"[{"a":[1]}]"#, maximumDepth: 3), [["a": [1]]])
        XCTAssertThrowsError(try JSONValue(parsing: #"[{"a":[[]]}]"#, maximumDepth: 3)) { error in
            XCTAssertEqual((error as? JSONParseError)?.kind, .nestingTooDeep(limit: 3))
        }
        // Scalars are no level; a scalar inside `depth` containers is fine.
        XCTAssertEqual(try JSONValue(parsing: "1", maximumDepth: 0), 1)
        XCTAssertThrowsError(try JSONValue(parsing: "[]", maximumDepth: 0))
    }

    func testParsing_acceptsAndRejectsWhatJSONDecoderDoes() {
        let cases = [
            "0", "-0", "01", "1.", ".5", "+1", "-", "1e5", "1E+2", "1e-2", "1.5e", "1e400", "1e-400", "-1e-400", "0e400",
            "123456789012345678901234567890", "0.1", "2.5e-7", "9007199254740993", "1.7976931348623157e308",
            #""\ud83d\ude00""#, #""\ud800""#, #""\udc00x""#, #""\u00e9\n\t\"\\\/""#, #""\x""#, "\"a\u{1}\"", "\"unterminated",
            "[1,]", #"{"a":1,}"#, "[,]", "[1 2]", #"{"a" 1}"#, #"{"a":1,"a":2}"#, #"{1:2}"#, " 1 ", "\u{FEFF}1", "nul", "true false",
            "", " ", "[", "]", "{", #"{"a":"#, "[[[]]]", #"{"":{"":[]}}"#,
        ]
        for text in cases {
            let ours = try? JSONValue(parsing: text)
            let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            XCTAssertEqual(ours, foundation, text)
        }
        // Invalid UTF-8 inside a string.
        XCTAssertNil(try? JSONValue(parsing: Data([0x22, 0xFF, 0x22])))
        XCTAssertNil(try? JSONDecoder().decode(JSONValue.self, from: Data([0x22, 0xFF, 0x22])))
    }

    func testParsingAndWriting_matchFoundationOnRandomValues() throws {
        var random = DeterministicRandom(seed: 18)
        let compact = JSONEncoder()
        compact.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        for trial in 0..<300 {
            let value = randomValue(depth: 0, using: &random)
            let ours = value.data()
            XCTAssertEqual(String(decoding: ours, as: UTF8.self), String(decoding: try compact.encode(value), as: UTF8.self), "trial \(trial)")
            XCTAssertEqual(
                String(decoding: value.data(prettyPrinted: true), as: UTF8.self), String(decoding: try pretty.encode(value), as: UTF8.self), "trial \(trial)")
            XCTAssertEqual(try JSONValue(parsing: ours), try JSONDecoder().decode(JSONValue.self, from: ours), "trial \(trial)")
            XCTAssertEqual(try JSONValue(parsing: value.data(prettyPrinted: true)), try JSONValue(parsing: ours), "trial \(trial)")
        }
    }

    private func randomValue(depth: Int, using random: inout DeterministicRandom) -> JSONValue {
        switch Int.random(in: 0..<(depth > 4 ? 4 : 6), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2:
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &random)))
            case 1: return .number(Double.random(in: -1e6...1e6, using: &random))
            case 2: return .number(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
            default: return .number([0, -0.0, 1e21, 1e-7, .leastNonzeroMagnitude, 0.1, 1e16][Int.random(in: 0..<7, using: &random)])
            }
        case 3: return .string(randomString(using: &random))
        case 4: return .array((0..<Int.random(in: 0..<4, using: &random)).map { _ in randomValue(depth: depth + 1, using: &random) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0..<4, using: &random) {
                members[randomString(using: &random)] = randomValue(depth: depth + 1, using: &random)
            }
            return .object(members)
        }
    }

    private func randomString(using random: inout DeterministicRandom) -> String {
        let pieces: [String] = [
            "a", "B", "z", "_", "0", "9", " ", "/", "\\", "\"", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "e\u{301}", "\u{301}", "😀", "\u{2028}", "A10",
            "A9",
        ]
        return (0..<Int.random(in: 0..<5, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
    }
}

import Foundation
import XCTest
import ConfigFeatures
import Streams

/// Generated and mutated templates never crash the parser or the evaluator: each is either
/// refused with a typed error or evaluates; and a loaded template is safe to evaluate from many
/// threads at once.
final class RemoteConfigServerTemplateFuzzTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), so a failure is reproducible.
    private struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
    }

    private static let keys = [
        "orCondition", "andCondition", "conditions", "true", "false", "percent", "customSignal", "seed", "percentOperator", "microPercent",
        "microPercentRange", "microPercentLowerBound", "microPercentUpperBound", "customSignalOperator", "customSignalKey",
        "targetCustomSignalValues", "name", "condition", "value", "useInAppDefault", "defaultValue", "conditionalValues",
    ]
    private static let strings = [
        "", "a", "tier", "BETWEEN", "LESS_OR_EQUAL", "STRING_CONTAINS_REGEX", "NUMERIC_EQUAL", "SEMANTIC_VERSION_LESS_THAN", "(", "[", "1.2.3",
        "nan", "\u{0}", "é",
    ]

    private func value(_ generator: inout Generator, depth: Int) -> JSONValue {
        switch generator.next() % (depth > 6 ? 4 : 7) {
        case 0: return .null
        case 1: return .bool(generator.next() % 2 == 0)
        case 2: return .number(generator.pick([0, -1, 1.5, 1e8, 5e7, .greatestFiniteMagnitude]))
        case 3: return .string(generator.pick(Self.strings))
        case 4: return .array((0..<Int(generator.next() % 4)).map { _ in value(&generator, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int(generator.next() % 4) { members[generator.pick(Self.keys)] = value(&generator, depth: depth + 1) }
            return .object(members)
        }
    }

    func testRandomTemplates_areRefusedOrEvaluatedNeverCrash() {
        var generator = Generator(state: 38)
        var refused = 0
        var evaluated = 0
        for _ in 0..<3_000 {
            let conditions = JSONValue.array(
                (0..<Int(generator.next() % 4)).map { index in
                    .object(["name": .string("c\(index)"), "condition": value(&generator, depth: 0)])
                })
            let parameters = JSONValue.object([
                "p": .object(["defaultValue": value(&generator, depth: 4), "conditionalValues": .object(["c0": value(&generator, depth: 4)])])
            ])
            let json = JSONValue.object(["conditions": conditions, "parameters": parameters]).data()
            do {
                let template = try RemoteConfigServerTemplate(json: json)
                _ = template.evaluate(randomizationID: generator.pick(["", "u", "ü"]), customSignals: ["a": generator.pick(Self.strings)])
                evaluated += 1
            } catch {
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, 0)
        XCTAssertGreaterThan(evaluated, 0)
    }

    func testTruncatedTemplates_areTypedErrors() throws {
        let text = Data(
            #"{"conditions": [{"name": "c", "condition": {"percent": {"seed": "s", "microPercent": 5}}}], "parameters": {"p": {"defaultValue": {"value": "1"}}}}"#
                .utf8)
        for length in 0..<text.count {
            XCTAssertThrowsError(try RemoteConfigServerTemplate(json: text.prefix(length)), "prefix \(length)") { error in
                XCTAssertTrue(error is RemoteConfigServerTemplateError)
            }
        }
        XCTAssertNoThrow(try RemoteConfigServerTemplate(json: text))
    }

    func testEvaluate_concurrentlyFromManyThreads() throws {
        let json = """
            {"conditions": [{"name": "c", "condition": {"percent": {"percentOperator": "LESS_OR_EQUAL", "microPercent": 50000000}}}],
             "parameters": {"p": {"defaultValue": {"value": "off"}, "conditionalValues": {"c": {"value": "on"}}}}}
            """
        let template = try RemoteConfigServerTemplate(json: Data(json.utf8))
        let expected = (0..<64).map { template.evaluate(randomizationID: "user-\($0)", customSignals: [:]).value(forKey: "p").stringValue }
        let results = LockedState([String](repeating: "", count: 64))
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let value = template.evaluate(randomizationID: "user-\(index)", customSignals: [:]).value(forKey: "p").stringValue
            results.withLock { $0[index] = value }
        }
        XCTAssertEqual(results.withLock { $0 }, expected)
        XCTAssertTrue(expected.contains("on") && expected.contains("off"))
    }
}

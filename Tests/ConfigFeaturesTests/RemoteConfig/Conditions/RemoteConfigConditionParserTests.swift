@testable import ConfigFeatures
import Foundation
import XCTest

/// Parse errors carry the condition's name and the position of the problem; unsupported
/// elements and operators are named, never silently false.
final class RemoteConfigConditionParserTests: XCTestCase {
    private func error(_ expression: String) -> RemoteConfigConditionError? {
        do {
            _ = try RemoteConfigConditionExpression(parsing: expression, condition: "c")
            return nil
        } catch {
            return error
        }
    }

    func testParseErrors_namePositionAndReason() {
        let cases: [(String, Int, RemoteConfigConditionError.Reason)] = [
            ("", 0, .unexpectedToken(found: "end of expression", expected: "an element such as app.version or device.os")),
            ("device.os == 'ios' || device.os == 'android'", 19, .unsupportedOperator("||", element: "a condition (Firebase joins elements with && only)")),
            ("!(device.os == 'ios')", 0, .unsupportedOperator("!", element: "a condition (Firebase has no negation or grouping)")),
            ("app.audiences.inAtLeastOne(['a'])", 0, .unsupportedElement("app.audiences")),
            ("app.firebasePredefined['x'] == 'y'", 0, .unsupportedElement("app.firebasePredefined")),
            ("app.operatingSystemAndVersion == 'x'", 0, .unsupportedElement("app.operatingSystemAndVersion")),
            ("device.prettyName == 'x'", 0, .unsupportedElement("device.prettyName")),
            ("user.id == 'x'", 0, .unsupportedElement("user")),
            ("device.os > 'ios'", 10, .unsupportedOperator(">", element: "device.os")),
            ("app.id >= 'x'", 7, .unsupportedOperator(">=", element: "app.id")),
            ("app.version.startsWith(['1'])", 12, .unsupportedOperator("startsWith", element: "app.version")),
            ("device.os == 'ios' &&", 21, .unexpectedToken(found: "end of expression", expected: "an element such as app.version or device.os")),
            ("device.os == 'ios", 13, .unterminatedString),
            ("device.os == 'ios' # x", 19, .unexpectedCharacter("#")),
            ("device.os == 'ios' & app.id == 'a'", 19, .unexpectedCharacter("&")),
            ("device.language == 'ja'", 16, .unexpectedToken(found: "==", expected: "in")),
            ("device.language in 'ja'", 19, .unexpectedToken(found: "'ja'", expected: "\"[\"")),
            ("dateTime < dateTime('2026-13-01T00:00:00')", 20, .invalidLiteral("'2026-13-01T00:00:00'", reason: "not a date in the form yyyy-MM-ddTHH:mm:ss")),
            ("dateTime < dateTime('2026-01-01T00:00:00', 'Mars/Olympus')", 43, .invalidLiteral("'Mars/Olympus'", reason: "not an IANA time zone")),
            ("dateTime == dateTime('2026-01-01T00:00:00')", 9, .unsupportedOperator("==", element: "dateTime")),
            ("percent <= 101", 11, .invalidLiteral("101", reason: "a percentage is between 0 and 100")),
            ("percent == 5", 8, .unsupportedOperator("==", element: "percent")),
            ("percent between 5 or 10", 18, .unexpectedToken(found: "or", expected: "and")),
            ("app.customSignal[tier] == 'x'", 17, .unexpectedToken(found: "tier", expected: "the customSignal key as a quoted string")),
            ("app.version.matches(['(a'])", 12, .invalidLiteral("'(a'", reason: "missing \")\"")),
            (
                "app.version.matches(['a(?=b)'])", 12,
                .invalidLiteral("'a(?=b)'", reason: "only (?: …) groups are supported (no flags or lookaround) at offset 1")
            ),
            ("app.version.matches(['a{2000}'])", 12, .invalidLiteral("'a{2000}'", reason: "a repetition count is at most 1000")),
            ("device.os == 'ios' device.os == 'ios'", 19, .unexpectedToken(found: "device", expected: "&& or the end of the condition")),
        ]
        for (expression, position, reason) in cases {
            XCTAssertEqual(error(expression), RemoteConfigConditionError(condition: "c", position: position, reason: reason), expression)
        }
        XCTAssertEqual(
            error("app.id >= 'x'")?.description, "condition \"c\" at position 7: app.id does not take the operator >=")
    }

    func testParseErrors_limits() {
        let long = String(repeating: "device.os == 'ios' && ", count: 500) + "device.os == 'ios'"
        XCTAssertEqual(error(long)?.reason, .tooLong(limit: 10_000))
        let list = "device.country in [" + (0...500).map { "'c\($0)'" }.joined(separator: ", ") + "]"
        XCTAssertEqual(error(list)?.reason, .tooLong(limit: 500))
        let pattern = "app.version.matches(['" + String(repeating: "a", count: 1_001) + "'])"
        XCTAssertEqual(
            error(pattern)?.reason, .invalidLiteral("'\(String(repeating: "a", count: 1_001))'", reason: "a regular expression is at most 1000 characters"))
        let expanded = "app.version.matches(['(a{1000}){1000}'])"
        XCTAssertEqual(
            error(expanded)?.reason, .invalidLiteral("'(a{1000}){1000}'", reason: "the regular expression is too large once its repetitions are expanded"))
    }

    func testTemplate_refusesConditionsWithoutNameOrTwiceAndValuesOfUnknownConditions() {
        func reject(_ json: String) -> RemoteConfigTemplateError? {
            do {
                _ = try RemoteConfigConditionalTemplate(json: Data(json.utf8))
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(
            reject(#"{"conditions": [{"name": "a", "expression": "device.os == 'ios'"}, {"name": "a", "expression": "device.os == 'ios'"}]}"#),
            .invalidCondition(RemoteConfigConditionError(condition: "a", position: 0, reason: .invalidName("another condition has the same name"))))
        XCTAssertEqual(
            reject(#"{"parameters": {"p": {"conditionalValues": {"nope": {"value": "1"}}}}}"#),
            .invalidTemplate(path: "parameters.p.conditionalValues.nope", expected: "the name of one of the template's conditions"))
        XCTAssertEqual(
            reject(#"{"conditions": [{"name": "a", "expression": "true"}]}"#),
            .invalidCondition(RemoteConfigConditionError(condition: "a", position: 0, reason: .unsupportedElement("true"))))
        XCTAssertEqual(
            reject(
                #"{"conditions": [{"name": "a", "expression": "device.os == 'ios'"}], "parameters": {"p": {"conditionalValues": {"a": {"rolloutValue": {}}}}}}"#
            ),
            .invalidTemplate(
                path: "parameters.p.conditionalValues.a",
                expected: #"a "value" string or "useInAppDefault": true (personalization and rollout values are not supported)"#))
        XCTAssertEqual(reject(#"{"conditions": {}}"#), .invalidTemplate(path: "conditions", expected: "an array of conditions"))
        XCTAssertEqual(
            reject(#"{"conditions": [{"name": "a"}]}"#), .invalidTemplate(path: "conditions[0].expression", expected: "the condition's expression as a string"))
    }

    func testTemplate_firstTrueConditionInTemplateOrderWinsAndUseInAppDefaultLeavesTheKeyOut() throws {
        let template = try RemoteConfigConditionalTemplate(
            json: Data(
                #"""
                {"conditions": [
                   {"name": "gold", "expression": "app.customSignal['tier'].exactlyMatches(['gold'])"},
                   {"name": "ios", "expression": "device.os == 'ios'", "tagColor": "BLUE"}],
                 "parameters": {
                   "banner": {"defaultValue": {"value": "plain"}, "conditionalValues": {"ios": {"value": "ios"}, "gold": {"value": "gold"}}},
                   "legacy": {"defaultValue": {"value": "on"}, "conditionalValues": {"ios": {"useInAppDefault": true}}},
                   "extra": {"conditionalValues": {"gold": {"value": "bonus"}}}}}
                """#.utf8))
        func entries(appID: String, tier: String?) -> [String: String] {
            template.entries(
                for: RemoteConfigConditionContext(
                    appID: appID, operatingSystem: RemoteConfigConditionContext.operatingSystem(appID: appID, platform: nil),
                    customSignals: tier.map { ["tier": $0] } ?? [:], now: Date()))
        }
        XCTAssertEqual(entries(appID: "1:1:ios:a", tier: "gold"), ["banner": "gold", "extra": "bonus"], "gold comes first in the template")
        XCTAssertEqual(entries(appID: "1:1:ios:a", tier: nil), ["banner": "ios"])
        XCTAssertEqual(entries(appID: "1:1:android:a", tier: nil), ["banner": "plain", "legacy": "on"])
        XCTAssertEqual(template.conditions.map(\.tagColor), [nil, "BLUE"])
    }

    func testVersionComparison_segmentBySegment() {
        let cases: [(String, String, ComparisonResult?)] = [
            ("1.10", "1.9", .orderedDescending), ("1.0", "1", .orderedSame), ("1.0.0.1", "1", .orderedDescending),
            ("2", "10", .orderedAscending), ("01.2", "1.2", .orderedSame), ("1.2-beta", "1.2", nil), ("", "1", nil), ("1..2", "1", nil),
            ("99999999999999999999999.1", "99999999999999999999999.2", .orderedAscending),
        ]
        for (a, b, expected) in cases { XCTAssertEqual(ConditionEvaluator.compareVersions(a, b), expected, "\(a) vs \(b)") }
    }

    func testPercent_matchesPythonsHashlibAndSplitsInstancesEvenly() throws {
        // Reference values: int(hashlib.sha256(b"…").hexdigest(), 16) % 10**8.
        XCTAssertEqual(ConditionPercent.microPercentile(seed: "", id: "fid-alpha"), 63_044_313)
        XCTAssertEqual(ConditionPercent.microPercentile(seed: "promo", id: "fid-alpha"), 53_179_507)
        XCTAssertEqual(ConditionPercent.microPercentile(seed: "promo", id: "fid-beta"), 66_866_690)
        let low = try RemoteConfigConditionExpression(parsing: "percent('exp') <= 20")
        let high = try RemoteConfigConditionExpression(parsing: "percent('exp') > 20")
        var inLow = 0
        for index in 0..<10_000 {
            let context = RemoteConfigConditionContext(installationID: "fid-\(index)", now: Date())
            let isLow = low.evaluate(context)
            XCTAssertNotEqual(isLow, high.evaluate(context), "exactly one side holds")
            if isLow { inLow += 1 }
        }
        XCTAssertTrue((1_800...2_200).contains(inLow), "about 20 % of 10,000 instances: \(inLow)")
    }
}

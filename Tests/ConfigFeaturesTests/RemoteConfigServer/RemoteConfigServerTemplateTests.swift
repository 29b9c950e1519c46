import Foundation
import XCTest
import ConfigFeatures

/// Values, sources and defaults of evaluated server templates, and templates that are refused.
final class RemoteConfigServerTemplateTests: XCTestCase {
    private let template = """
        {"conditions": [
            {"name": "gold", "condition": {"customSignal": {"customSignalOperator": "STRING_EXACTLY_MATCHES",
                "customSignalKey": "tier", "targetCustomSignalValues": ["gold"]}}},
            {"name": "always", "condition": {"true": {}}}],
         "parameters": {
            "limit": {"defaultValue": {"value": "10"},
                      "conditionalValues": {"always": {"value": "20"}, "gold": {"value": "50"}}},
            "banner": {"defaultValue": {"useInAppDefault": true}, "conditionalValues": {"gold": {"value": "on"}}},
            "theme": {"conditionalValues": {"gold": {"useInAppDefault": true}, "always": {"value": "dark"}}},
            "empty": {"defaultValue": {}},
            "blank": {"defaultValue": {"value": ""}}},
         "version": {"versionNumber": "7"}}
        """

    private func make(defaults: [String: String] = [:]) throws -> RemoteConfigServerTemplate {
        try RemoteConfigServerTemplate(json: Data(template.utf8), defaults: defaults)
    }

    func testEvaluate_firstTrueConditionInTemplateOrderWins() throws {
        let template = try make()
        // "gold" comes first in the template, so it wins over "always" whatever conditionalValues' order.
        XCTAssertEqual(template.evaluate(randomizationID: nil, customSignals: ["tier": "gold"]).value(forKey: "limit").stringValue, "50")
        XCTAssertEqual(template.evaluate(randomizationID: nil, customSignals: ["tier": "silver"]).value(forKey: "limit").stringValue, "20")
    }

    func testEvaluate_useInAppDefaultLeavesTheDefaultOrTheStaticValue() throws {
        let template = try make(defaults: ["banner": "off", "theme": "light"])
        let silver = template.evaluate(randomizationID: nil, customSignals: [:])
        XCTAssertEqual(silver.value(forKey: "banner"), RemoteConfigServerValue(string: "off", source: .default))
        let gold = template.evaluate(randomizationID: nil, customSignals: ["tier": "gold"])
        XCTAssertEqual(gold.value(forKey: "banner"), RemoteConfigServerValue(string: "on", source: .remote))
        XCTAssertEqual(gold.value(forKey: "theme"), RemoteConfigServerValue(string: "light", source: .default))
        XCTAssertEqual(silver.value(forKey: "theme"), RemoteConfigServerValue(string: "dark", source: .remote))
        let noDefaults = try make().evaluate(randomizationID: nil, customSignals: [:])
        XCTAssertEqual(noDefaults.value(forKey: "banner").source, .static)
    }

    func testEvaluate_emptyDefaultValueIsNoValueButAnEmptyStringIsOne() throws {
        let config = try make(defaults: ["empty": "fallback"]).evaluate(randomizationID: nil, customSignals: [:])
        XCTAssertEqual(config.value(forKey: "empty"), RemoteConfigServerValue(string: "fallback", source: .default))
        XCTAssertEqual(config.value(forKey: "blank"), RemoteConfigServerValue(string: "", source: .remote))
    }

    func testValue_missingKeyIsStatic() throws {
        let value = try make().evaluate(randomizationID: "u", customSignals: [:]).value(forKey: "nope")
        XCTAssertEqual(value.source, .static)
        XCTAssertEqual(value.stringValue, "")
        XCTAssertEqual(value.numberValue, 0)
        XCTAssertFalse(value.boolValue)
        XCTAssertEqual(RemoteConfigServerValue(string: "ignored", source: .static).stringValue, "")
    }

    func testValue_defaultsAreReportedAsDefault() throws {
        let config = try make(defaults: ["only_here": "3"]).evaluate(randomizationID: nil, customSignals: [:])
        XCTAssertEqual(config["only_here"], RemoteConfigServerValue(string: "3", source: .default))
    }

    func testValue_boolValueAcceptsFirebaseAdminsTruthyWordsOnly() {
        for text in ["1", "true", "TRUE", "t", "Yes", "y", "on", "ON"] {
            XCTAssertTrue(RemoteConfigServerValue(string: text, source: .remote).boolValue, text)
        }
        for text in ["0", "false", "no", "off", "2", " true", "", "yes!"] {
            XCTAssertFalse(RemoteConfigServerValue(string: text, source: .remote).boolValue, text)
        }
    }

    func testValue_numberValueIsPythonsFloatOrZero() {
        let cases: [(String, Double)] = [
            ("3.5", 3.5), (" 2 ", 2), ("1_000", 1000), ("-Infinity", -.infinity), ("1e400", .infinity), (".5", 0.5), ("٣", 3),
            ("abc", 0), ("", 0), ("0x10", 0), ("1e", 0), ("1__0", 0),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(RemoteConfigServerValue(string: text, source: .remote).numberValue, expected, text)
        }
        XCTAssertTrue(RemoteConfigServerValue(string: "nan", source: .remote).numberValue.isNaN)
    }

    func testTemplate_exposesItsVersionAndJSON() throws {
        let template = try make()
        XCTAssertTrue(template.isLoaded)
        XCTAssertEqual(template.versionNumber, "7")
        let copy = try RemoteConfigServerTemplate(json: XCTUnwrap(template.templateJSON))
        XCTAssertEqual(
            copy.evaluate(randomizationID: nil, customSignals: ["tier": "gold"]), template.evaluate(randomizationID: nil, customSignals: ["tier": "gold"]))
    }

    func testTemplate_refusesWhatIsNotATemplate() {
        func error(_ json: String) -> RemoteConfigServerTemplateError? {
            do {
                _ = try RemoteConfigServerTemplate(json: Data(json.utf8))
                return nil
            } catch {
                return error
            }
        }
        guard case .invalidJSON? = error("{\"parameters\": ") else { return XCTFail("expected invalidJSON") }
        XCTAssertEqual(error("[]"), .invalidTemplate(path: "the template", expected: "a JSON object"))
        XCTAssertEqual(error(#"{"parameters": null}"#), .invalidTemplate(path: "parameters", expected: "a non-null object"))
        XCTAssertEqual(error(#"{"conditions": {}}"#), .invalidTemplate(path: "conditions", expected: "a non-null array"))
        XCTAssertEqual(
            error(#"{"conditions": [{"name": "c", "condition": {"percent": {"seed": 5}}}]}"#),
            .invalidTemplate(path: "conditions[0].condition.percent.seed", expected: "a string"))
        XCTAssertEqual(
            error(#"{"parameters": {"p": {"defaultValue": {"value": 1}}}}"#),
            .invalidTemplate(path: "parameters.p.defaultValue.value", expected: "a string"))
        XCTAssertNil(error("{}"))
    }

    func testTemplate_withoutATemplateEvaluatesToTheDefaults() throws {
        let endpoints = try FirebaseEndpoints.emulator(port: 9)
        let template = RemoteConfigServerTemplate(project: "p", apiKey: "k", endpoints: endpoints, defaults: ["a": "1"])
        XCTAssertFalse(template.isLoaded)
        XCTAssertEqual(template.evaluate(randomizationID: nil, customSignals: [:]).values, ["a": RemoteConfigServerValue(string: "1", source: .default)])
    }
}

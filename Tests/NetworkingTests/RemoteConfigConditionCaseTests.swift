@testable import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import XCTest

/// What one app instance tells a fetch (and what the server knows about it).
struct ConditionInstance {
    var name = "base"
    var appID = "1:123:ios:abc"
    var appVersion: String? = "2.3.1"
    var appBuild: String? = "231"
    var language: String? = "ja-JP"
    var country: String? = "jp"
    var installationID = "fid-alpha"
    var timeZone: String? = "Asia/Tokyo"
    var signals: [String: String] = ["tier": "gold", "level": "3", "sdk": "1.10.0"]
    var userProperties: [String: String] = ["plan": "pro", "age": "30"]
    /// 2024-05-01T00:00:00Z.
    var firstOpen: Date? = Date(timeIntervalSince1970: 1_714_521_600)

    var context: RemoteConfigConditionContext {
        RemoteConfigConditionContext(
            appID: appID, appVersion: appVersion, appBuild: appBuild,
            operatingSystem: RemoteConfigConditionContext.operatingSystem(appID: appID, platform: nil),
            languageCode: language, countryCode: country, installationID: installationID, customSignals: signals,
            userProperties: userProperties, firstOpenTime: firstOpen, timeZone: timeZone, now: Date())
    }

    /// Firebase's REST fetch body for this instance.
    var body: JSONValue {
        var body: [String: JSONValue] = [
            "app_id": .string(appID), "app_instance_id": .string(installationID), "sdk_version": "11.0.0",
            "custom_signals": .object(signals.mapValues(JSONValue.string)),
            "analytics_user_properties": .object(userProperties.mapValues(JSONValue.string)),
        ]
        if let appVersion { body["app_version"] = .string(appVersion) }
        if let appBuild { body["app_build"] = .string(appBuild) }
        if let language { body["language_code"] = .string(language) }
        if let timeZone { body["time_zone"] = .string(timeZone) }
        if let firstOpen { body["first_open_time"] = .string(ISO8601DateFormatter().string(from: firstOpen)) }
        return .object(body)
    }
}

/// Client-template condition cases from Firebase's condition reference ("Remote Config
/// condition expressions reference"): each expression with an instance and the outcome
/// Firebase documents, run against the evaluator and over REST against `FirebaseTestServer`.
enum ConditionCases {
    static let base = ConditionInstance()
    static var android: ConditionInstance {
        var instance = base
        instance.name = "android"
        instance.appID = "1:123:android:def"
        instance.language = "en-US"
        instance.country = "US"
        instance.installationID = "fid-beta"
        instance.signals = ["tier": "silver"]
        instance.appVersion = "1.9"
        return instance
    }
    static var bare: ConditionInstance {
        var instance = base
        instance.name = "bare"
        instance.appVersion = nil
        instance.appBuild = nil
        instance.language = nil
        instance.country = nil
        instance.signals = [:]
        instance.userProperties = [:]
        instance.firstOpen = nil
        return instance
    }

    /// (expression, instance, expected).
    static let all: [(String, ConditionInstance, Bool)] = [
        // app.id
        ("app.id == '1:123:ios:abc'", base, true),
        ("app.id == '1:123:android:def'", base, false),
        ("app.id != '1:123:android:def'", base, true),
        // app.version: ==, !=, >, >=, <, <= compare segment by segment.
        ("app.version == '2.3.1'", base, true),
        ("app.version == '2.3.1.0'", base, true),
        ("app.version > '2.3'", base, true),
        ("app.version >= '2.10'", base, false),
        ("app.version < '2.10.0'", base, true),
        ("app.version <= '2.3.0'", base, false),
        ("app.version != '2.3.1'", base, false),
        ("app.version.>=(['2.0.0'])", base, true),
        ("app.version.<(['1.0'])", base, false),
        ("app.version > '1.0'", android, true),
        ("app.version >= '2.0'", android, false),
        ("app.version > '1.0'", bare, false),
        // app.version / app.build string operators.
        ("app.version.contains(['2.3', '9.9'])", base, true),
        ("app.version.notContains(['2.3'])", base, false),
        ("app.version.exactlyMatches(['2.3.1'])", base, true),
        ("app.version.exactlyMatches(['2.3'])", base, false),
        ("app.version.matches(['^2\\\\.[0-9]+\\\\.1$'])", base, true),
        ("app.version.matches(['^3\\\\.'])", base, false),
        ("app.build >= 200", base, true),
        ("app.build > 231", base, false),
        ("app.build == '231'", base, true),
        ("app.build.contains(['23'])", base, true),
        ("app.build.matches(['^\\\\d{3}$'])", base, true),
        // device.os
        ("device.os == 'ios'", base, true),
        ("device.os == 'android'", base, false),
        ("device.os != 'ios'", android, true),
        ("device.os == 'android'", android, true),
        // device.language: a bare language matches every region; a region matches exactly.
        ("device.language in ['ja', 'en-US']", base, true),
        ("device.language in ['ja-JP']", base, true),
        ("device.language in ['en-US', 'ko']", base, false),
        ("device.language in ['en']", android, true),
        ("device.language in ['en-GB']", android, false),
        ("device.language in ['ja']", bare, false),
        // device.country (ISO 3166-1 alpha-2, any case).
        ("device.country in ['jp', 'kr']", base, true),
        ("device.country in ['US']", android, true),
        ("device.country in ['us']", base, false),
        ("device.country in ['jp']", bare, false),
        // dateTime, with a fixed zone and in the device's zone.
        ("dateTime >= dateTime('2020-01-01T00:00:00', 'Asia/Tokyo')", base, true),
        ("dateTime < dateTime('2020-01-01T00:00:00', 'Asia/Tokyo')", base, false),
        ("dateTime < dateTime('2999-12-31T23:59:59', 'America/Los_Angeles')", base, true),
        ("device.dateTime > dateTime('2000-06-01T12:00:00')", base, true),
        ("dateTime <= dateTime('2001-01-01T00:00:00')", base, false),
        // app.firstOpenTimestamp (GMT without a zone).
        ("app.firstOpenTimestamp >= ('2024-04-30T23:59:59')", base, true),
        ("app.firstOpenTimestamp > ('2024-05-01T00:00:00')", base, false),
        ("app.firstOpenTimestamp <= ('2024-05-01T08:00:00', 'Asia/Tokyo')", base, false),
        ("app.firstOpenTimestamp <= ('2024-05-01T09:00:00', 'Asia/Tokyo')", base, true),
        ("app.firstOpenTimestamp < ('2999-01-01T00:00:00')", bare, false),
        // percent on the installation ID: SHA-256("fid-alpha") % 10^8 = 63,044,313 µ%,
        // SHA-256("promo.fid-alpha") % 10^8 = 53,179,507 µ% (computed with Python's hashlib).
        ("percent <= 63.05", base, true),
        ("percent <= 63.04", base, false),
        ("percent > 63.04", base, true),
        ("percent between 60 and 63.05", base, true),
        ("percent between 63.05 and 100", base, false),
        ("percent('promo') between 53 and 53.2", base, true),
        ("percent('promo') between 53.2 and 60", base, false),
        ("percent('promo') < 53.179507", base, false),
        ("percent('promo') <= 53.179507", base, true),
        ("percent <= 82.54", android, true),
        ("percent <= 82.53", android, false),
        // app.firebaseInstallationId
        ("app.firebaseInstallationId in ['fid-alpha', 'other']", base, true),
        ("app.firebaseInstallationId in ['fid-beta']", base, false),
        // app.userProperty: numbers and strings.
        ("app.userProperty['age'] >= 18", base, true),
        ("app.userProperty['age'] < 18", base, false),
        ("app.userProperty['plan'].exactlyMatches(['pro', 'team'])", base, true),
        ("app.userProperty['plan'].contains(['free'])", base, false),
        ("app.userProperty['missing'].notContains(['x'])", base, false),
        // app.customSignal: numbers, strings, versions.
        ("app.customSignal['level'] >= 3", base, true),
        ("app.customSignal['level'] > 3", base, false),
        ("app.customSignal['level'] == 3", base, true),
        ("app.customSignal['tier'].exactlyMatches(['gold'])", base, true),
        ("app.customSignal['tier'].exactlyMatches(['gold'])", android, false),
        ("app.customSignal['tier'].notContains(['bronze'])", android, true),
        ("app.customSignal['tier'].matches(['^(gold|platinum)$'])", base, true),
        ("app.customSignal['sdk'].>=(['1.9.9'])", base, true),
        ("app.customSignal['sdk'] < '1.2'", base, false),
        ("app.customSignal['tier'] == 'gold'", base, true),
        ("app.customSignal['tier'] > 10", base, false),
        ("app.customSignal['level'] >= 1", android, false),
        // && joins elements.
        ("device.os == 'ios' && app.version >= '2.0'", base, true),
        ("device.os == 'ios' && app.version >= '2.0'", android, false),
        ("device.language in ['ja'] && device.country in ['jp'] && app.customSignal['tier'].exactlyMatches(['gold'])", base, true),
        ("device.language in ['ja'] && device.country in ['kr']", base, false),
    ]
}

final class RemoteConfigConditionCaseTests: FirebaseTestServerTestCase {
    func testConditionCases_evaluator() throws {
        for (expression, instance, expected) in ConditionCases.all {
            let parsed = try RemoteConfigConditionExpression(parsing: expression, condition: "c")
            XCTAssertEqual(parsed.evaluate(instance.context), expected, expression)
        }
    }

    /// One template holds every case (parameter `pN` is `hit` when condition `cN` holds); each
    /// distinct instance fetches once over REST.
    func testConditionCases_overRESTAgainstTheTestServer() throws {
        let cases = ConditionCases.all
        var template: [String: JSONValue] = [:]
        template["conditions"] = .array(cases.enumerated().map { index, item in ["name": .string("c\(index)"), "expression": .string(item.0)] })
        template["parameters"] = .object(
            Dictionary(
                uniqueKeysWithValues: cases.indices.map { index in
                    ("p\(index)", ["defaultValue": ["value": "miss"], "conditionalValues": .object(["c\(index)": ["value": "hit"]])] as JSONValue)
                }))
        server.publishTemplate(try FirebaseTestServer.RemoteConfigTemplate(json: JSONValue.object(template).data()))
        var checked = 0
        for instance in [ConditionCases.base, ConditionCases.android, ConditionCases.bare] {
            let name = instance.name
            server.remoteConfigCountry = instance.country
            let result = try client.send(server.fetchRequest(body: instance.body.data()))
            XCTAssertEqual(result.status, 200, name)
            let entries = result.json?["entries"]?.objectValue ?? [:]
            for (index, item) in cases.enumerated() where item.1.name == name {
                XCTAssertEqual(entries["p\(index)"], item.2 ? "hit" : "miss", "\(name): \(item.0)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, cases.count, "every case ran over REST")
    }
}

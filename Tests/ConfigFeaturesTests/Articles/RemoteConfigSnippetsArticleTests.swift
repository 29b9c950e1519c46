import ConfigFeatures
import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

private struct AppConfig: Decodable {}
private func render(_ config: AppConfig?) {}
private func checkForcedUpdate() {}

/// The Swift snippets of the Remote Config articles (RemoteConfigGuide's overview,
/// RemoteConfigConditions' "Testing targeting in virtual time", ServerTemplates' "A template's
/// JSON"), compiled here and compared with the articles' blocks; the last two also run.
final class RemoteConfigSnippetsArticleTests: XCTestCase {
    private let docs = "Sources/ConfigFeatures/ConfigFeatures.docc/"

    private func snippet(_ name: String) throws -> String { Article.compact(try Article.testSnippet(in: #filePath, named: name)) }

    private func block(_ article: String, containing anchor: String) throws -> String {
        Article.compact(try Article(docs + article, testFile: #filePath).codeBlock(containing: anchor))
    }

    // MARK: RemoteConfigGuide, overview (compiled, not run: it needs the main run loop)

    private func overview(applicationSupport: URL, bag: DisposeBag) {
        // article:begin guide-overview
        let backend = InMemoryRemoteConfigBackend(values: ["tabTitles": "メイク"], latency: .milliseconds(200), scheduler: MainScheduler.instance)
        let remoteConfig = RemoteConfig(
            backend: backend,
            settings: RemoteConfigSettings(minimumFetchInterval: 3_600, fetchTimeout: 5),
            storage: FileRemoteConfigStorage(directory: applicationSupport),
            scheduler: MainScheduler.instance
        )
        remoteConfig.setDefaults(["tabTitles": "make", "maxItems": 20, "theme": ["color": "red"]])

        remoteConfig.fetchAndActivate()
            .subscribe(
                onSuccess: { status in render(try? remoteConfig.decoded(asType: AppConfig.self)) },
                onFailure: { error in render(try? remoteConfig.decoded(asType: AppConfig.self)) }
            )  // defaults or last activated
            .disposed(by: bag)

        remoteConfig.configUpdates
            .flatMap { update in remoteConfig.activate().map { _ in update.updatedKeys } }
            .subscribe(onNext: { keys in if keys.contains("requiredVersion") { checkForcedUpdate() } })
            .disposed(by: bag)
        // article:end guide-overview
    }

    func testGuideOverviewIsTheCompiledCopy() throws {
        XCTAssertEqual(try block("RemoteConfigGuide.md", containing: "onSuccess: { status in render"), try snippet("guide-overview"))
    }

    // MARK: RemoteConfigConditions, testing targeting

    func testConditionsSnippetRunsAsTheArticleSays() throws {
        XCTAssertEqual(try block("RemoteConfigConditions.md", containing: "publish(templateJSON: template)"), try snippet("conditions"))
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            // article:begin conditions
            let template = Data(
                #"""
                {"conditions": [
                   {"name": "android", "expression": "device.os == 'android'"},
                   {"name": "japan", "expression": "device.language in ['ja'] && device.country in ['jp']"}],
                 "parameters": {
                   "required_version": {"defaultValue": {"value": "3.0.0"},
                                        "conditionalValues": {"android": {"value": "3.1.0"}}},
                   "welcome": {"defaultValue": {"value": "Hello"},
                               "conditionalValues": {"japan": {"value": "こんにちは"}}}}}
                """#.utf8)  // the template's JSON, as Data
            let backend = InMemoryRemoteConfigBackend(scheduler: scheduler)
            try backend.publish(templateJSON: template)
            backend.country = "jp"  // device.country: no IP address to locate
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            remoteConfig.targeting = RemoteConfigTargeting(
                appID: "1:1234:android:abcd", appInstanceID: "fid-1",
                appInfo: RemoteConfigAppInfo(platform: .android, appVersion: "2.0.0", languageCode: "ja-JP"))
            remoteConfig.customSignals = ["tier": "gold"]
            // After fetchAndActivate: required_version "3.1.0", welcome "こんにちは"
            // article:end conditions
            _ = scheduler.start { remoteConfig.fetchAndActivate().asObservable() }
            XCTAssertEqual(remoteConfig["required_version"].stringValue, "3.1.0")
            XCTAssertEqual(remoteConfig["welcome"].stringValue, "こんにちは")
        }
    }

    /// The article's mapping of platforms to `device.os`, when the app ID names none.
    func testPlatformsMapToDeviceOSAsTheArticleSays() throws {
        let template = Data(
            #"{"conditions": [{"name": "ios", "expression": "device.os == 'ios'"}, {"name": "android", "expression": "device.os == 'android'"}, {"name": "not_ios", "expression": "device.os != 'ios'"}], "parameters": {"os": {"defaultValue": {"value": "none"}, "conditionalValues": {"ios": {"value": "ios"}, "android": {"value": "android"}, "not_ios": {"value": "not ios"}}}}}"#
                .utf8)
        let expected: [(RemoteConfigAppInfo.Platform, String)] = [(.apple, "ios"), (.android, "android"), (.other, "none")]
        for (platform, os) in expected {
            try XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let backend = InMemoryRemoteConfigBackend(scheduler: scheduler)
                try backend.publish(templateJSON: template)
                let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
                remoteConfig.targeting = RemoteConfigTargeting(
                    appID: nil, appInstanceID: "fid-1", appInfo: RemoteConfigAppInfo(platform: platform, appIdentifier: "com.example.app"))
                _ = scheduler.start { remoteConfig.fetchAndActivate().asObservable() }
                XCTAssertEqual(remoteConfig["os"].stringValue, os, "\(platform)")
            }
        }
    }

    // MARK: ServerTemplates, a template's JSON

    private struct User { let id: String }

    private func serverTemplate(user: User) throws -> RemoteConfigServerConfig {
        // article:begin server-template
        let json = Data(
            #"""
            {"conditions": [
               {"name": "gold_beta",
                "condition": {"orCondition": {"conditions": [{"andCondition": {"conditions": [
                  {"customSignal": {"customSignalOperator": "STRING_EXACTLY_MATCHES",
                                    "customSignalKey": "tier", "targetCustomSignalValues": ["gold"]}},
                  {"percent": {"percentOperator": "BETWEEN", "seed": "beta",
                               "microPercentRange": {"microPercentLowerBound": 0,
                                                     "microPercentUpperBound": 20000000}}}]}}]}}},
               {"name": "new_app",
                "condition": {"customSignal": {"customSignalOperator": "SEMANTIC_VERSION_GREATER_EQUAL",
                                               "customSignalKey": "app_version",
                                               "targetCustomSignalValues": ["2.0.0"]}}}],
             "parameters": {
               "upload_limit": {"defaultValue": {"value": "10"},
                                "conditionalValues": {"gold_beta": {"value": "50"}, "new_app": {"value": "20"}}},
               "welcome": {"defaultValue": {"useInAppDefault": true},
                           "conditionalValues": {"new_app": {"value": "Hi!"}}}},
             "version": {"versionNumber": "3"}}
            """#.utf8)
        let template = try RemoteConfigServerTemplate(json: json, defaults: ["welcome": "Hello"])
        let config = template.evaluate(randomizationID: user.id, customSignals: ["tier": "gold", "app_version": "2.1.0"])
        // upload_limit: "50" for the 20 % of gold users in the "beta" bucket, else "20" (app_version ≥ 2.0.0)
        // welcome: "Hi!" (.remote); with an older app_version, "Hello" (.default)
        // article:end server-template
        XCTAssertEqual(template.versionNumber, "3")
        return config
    }

    func testServerTemplateSnippetEvaluatesAsTheArticleSays() throws {
        XCTAssertEqual(try block("ServerTemplates.md", containing: "microPercentRange"), try snippet("server-template"))
        var limits: [String: Int] = [:]
        for index in 0..<1_000 {
            let config = try serverTemplate(user: User(id: "user-\(index)"))
            limits[config.value(forKey: "upload_limit").stringValue, default: 0] += 1
            XCTAssertEqual(config.value(forKey: "welcome"), RemoteConfigServerValue(string: "Hi!", source: .remote))
        }
        XCTAssertEqual(Set(limits.keys), ["50", "20"])
        XCTAssertEqual(Double(limits["50", default: 0]) / 1_000, 0.2, accuracy: 0.05, "about 20 % in the beta bucket")

        // The same template without the gold tier or with an older app version.
        let json = Data(
            try Article(docs + "ServerTemplates.md", testFile: #filePath).codeBlock(containing: "microPercentRange")
                .drop { !$0.contains("Data(#\"\"\"") }.dropFirst().prefix { !$0.contains("\"\"\"#.utf8)") }
                .joined(separator: "\n").utf8)
        let template = try RemoteConfigServerTemplate(json: json, defaults: ["welcome": "Hello"])
        let old = template.evaluate(randomizationID: "user-1", customSignals: ["tier": "silver", "app_version": "1.9"])
        XCTAssertEqual(old.value(forKey: "upload_limit"), RemoteConfigServerValue(string: "10", source: .remote))
        XCTAssertEqual(old.value(forKey: "welcome"), RemoteConfigServerValue(string: "Hello", source: .default))
    }
}

import ConfigFeatures
import Foundation
import Streams
import StreamsTest
import XCTest

/// `InMemoryRemoteConfigBackend.publish(templateJSON:)`: conditions evaluated for each fetch
/// from the request's custom signals and targeting, in virtual time.
final class InMemoryRemoteConfigConditionTests: XCTestCase {
    static func template(androidBanner: String) -> Data {
        Data(
            """
            {"conditions": [
               {"name": "vip", "expression": "app.customSignal['tier'].exactlyMatches(['gold'])"},
               {"name": "android", "expression": "device.os == 'android'"},
               {"name": "japanese", "expression": "device.language in ['ja'] && device.country in ['jp']"}],
             "parameters": {
               "banner": {"defaultValue": {"value": "plain"},
                          "conditionalValues": {"android": {"value": "\(androidBanner)"}, "vip": {"value": "gold"}}},
               "greeting": {"defaultValue": {"value": "hello"}, "conditionalValues": {"japanese": {"value": "konnichiwa"}}},
               "legacy": {"defaultValue": {"value": "on"}, "conditionalValues": {"android": {"useInAppDefault": true}}}}}
            """.utf8)
    }

    static let ios = RemoteConfigTargeting(
        appID: "1:1234:ios:abcd", appInstanceID: "fid-ios", appInfo: RemoteConfigAppInfo(platform: .apple, appVersion: "2.0.0", languageCode: "ja-JP"))
    static let android = RemoteConfigTargeting(
        appID: "1:1234:android:abcd", appInstanceID: "fid-android", appInfo: RemoteConfigAppInfo(platform: .android, appVersion: "2.0.0"))

    private func fetch(_ backend: InMemoryRemoteConfigBackend, _ scheduler: TestScheduler, _ request: RemoteConfigFetchRequest) -> RemoteConfigFetchResponse? {
        var response: RemoteConfigFetchResponse?
        let subscription = backend.fetch(request).subscribe(onNext: { response = $0 })
        scheduler.advanceTo(scheduler.clock + 1)
        subscription.dispose()
        return response
    }

    func testPublishTemplateJSON_eachRequestGetsItsOwnValues() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["old": "1"], scheduler: scheduler)
            XCTAssertNoThrow(try backend.publish(templateJSON: Self.template(androidBanner: "droid")))
            XCTAssertEqual(backend.templateVersion, 2)
            XCTAssertEqual(backend.values, ["banner": "plain", "greeting": "hello", "legacy": "on"], "the default values")

            func entries(_ request: RemoteConfigFetchRequest) -> [String: String]? {
                guard case .updated(let entries, _, _)? = fetch(backend, scheduler, request) else { return nil }
                return entries
            }
            XCTAssertEqual(entries(RemoteConfigFetchRequest(targeting: Self.android)), ["banner": "droid", "greeting": "hello"])
            XCTAssertEqual(entries(RemoteConfigFetchRequest(targeting: Self.ios)), ["banner": "plain", "greeting": "hello", "legacy": "on"])
            backend.country = "JP"
            XCTAssertEqual(entries(RemoteConfigFetchRequest(targeting: Self.ios)), ["banner": "plain", "greeting": "konnichiwa", "legacy": "on"])
            XCTAssertEqual(
                entries(RemoteConfigFetchRequest(customSignals: ["tier": "gold"], targeting: Self.android)), ["banner": "gold", "greeting": "hello"],
                "vip comes before android in the template")
            XCTAssertEqual(entries(RemoteConfigFetchRequest()), ["banner": "plain", "greeting": "hello", "legacy": "on"], "no targeting: defaults")

            // The ETag follows the values: a new custom signal is not "no change".
            guard case .updated(_, _, let plainETag)? = fetch(backend, scheduler, RemoteConfigFetchRequest(targeting: Self.android)) else {
                return XCTFail("no answer")
            }
            let same = fetch(backend, scheduler, RemoteConfigFetchRequest(eTag: plainETag, targeting: Self.android))
            XCTAssertEqual(same, .noChange(templateVersion: 2, eTag: plainETag))
            let gold = fetch(backend, scheduler, RemoteConfigFetchRequest(eTag: plainETag, customSignals: ["tier": "gold"], targeting: Self.android))
            guard case .updated(let goldEntries, 2, let goldETag)? = gold else { return XCTFail("\(String(describing: gold))") }
            XCTAssertEqual(goldEntries["banner"], "gold")
            XCTAssertNotEqual(goldETag, plainETag)

            // publish(_:) keeps working and drops the conditions.
            backend.publish(["banner": "flat"])
            XCTAssertEqual(entries(RemoteConfigFetchRequest(targeting: Self.android)), ["banner": "flat"])
        }
    }

    func testPublishTemplateJSON_refusesABadTemplateAndPublishesNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
        let bad = Data(#"{"conditions": [{"name": "new users", "expression": "app.firstOpenTimestamp >= ('2026-02-30')"}]}"#.utf8)
        XCTAssertThrowsError(try backend.publish(templateJSON: bad)) { error in
            XCTAssertEqual(
                error as? RemoteConfigTemplateError,
                .invalidCondition(
                    RemoteConfigConditionError(
                        condition: "new users", position: 27, reason: .invalidLiteral("'2026-02-30'", reason: "not a date in the form yyyy-MM-ddTHH:mm:ss"))))
            XCTAssertEqual(
                "\(error)",
                "the Remote Config template has an invalid condition \"new users\" at position 27: '2026-02-30': not a date in the form yyyy-MM-ddTHH:mm:ss")
        }
        XCTAssertThrowsError(try backend.publish(templateJSON: Data("{".utf8))) { error in
            guard case .invalidJSON? = error as? RemoteConfigTemplateError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(backend.templateVersion, 1)
        XCTAssertEqual(backend.values, ["a": "1"])
    }

    /// Issue 38 item 2: a publication that changes only the value Android instances get is
    /// announced to every listener (the template version goes up); each instance then fetches
    /// its own value, and only the Android one sees a changed key.
    func testRealtime_aConditionalOnlyChangeNotifiesEveryInstanceAndEachFetchesItsOwnValue() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(scheduler: scheduler)
            XCTAssertNoThrow(try backend.publish(templateJSON: Self.template(androidBanner: "droid")))
            let ios = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
            ios.targeting = Self.ios
            let android = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
            android.targeting = Self.android
            for client in [ios, android] {
                _ = scheduler.recordEvents(subscribed: 100) { client.fetchAndActivate() }
            }
            scheduler.advanceTo(150)
            XCTAssertEqual(ios["banner"].stringValue, "plain")
            XCTAssertEqual(android["banner"].stringValue, "droid")

            scheduler.scheduleAt(300) { try? backend.publish(templateJSON: Self.template(androidBanner: "robot")) }
            let iosUpdates = scheduler.createObserver(RemoteConfigUpdate.self)
            let androidUpdates = scheduler.createObserver(RemoteConfigUpdate.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) {
                subscriptions = [ios.configUpdates.subscribe(iosUpdates), android.configUpdates.subscribe(androidUpdates)]
            }
            scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()

            XCTAssertEqual(androidUpdates.events, [.next(303, RemoteConfigUpdate(updatedKeys: ["banner"]))])
            XCTAssertEqual(iosUpdates.events, [], "the iOS value did not change: no changed keys to announce")
            XCTAssertEqual(ios.fetchedTemplateVersion, 3, "the iOS instance was told and fetched the new version")
            XCTAssertEqual(android.fetchedTemplateVersion, 3)
            XCTAssertEqual(backend.fetchRequests.filter { $0.fetchType == .realtime(attempt: 1) }.count, 2)
            XCTAssertEqual(ios.snapshot.fetched?["banner"], "plain")
            XCTAssertEqual(android.snapshot.fetched?["banner"], "robot")
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
        }
    }
}

import ConfigFeatures
import Foundation
import Streams
import StreamsTest
import XCTest

/// Issue 38 item 5 in virtual time: the forced update with a `required_version` per platform,
/// and the item list targeted at a custom signal, on `InMemoryRemoteConfigBackend`.
final class TargetedFeaturesTests: XCTestCase {
    private static let platformTemplate = Data(
        #"""
        {"conditions": [{"name": "ios", "expression": "device.os == 'ios'"}, {"name": "android", "expression": "device.os == 'android'"}],
         "parameters": {"required_version": {"defaultValue": {"value": "3.0.0"},
                                             "conditionalValues": {"ios": {"value": "3.3.0"}, "android": {"value": "3.4.0"}}}}}
        """#.utf8)

    func testForceUpdate_eachPlatformGetsItsOwnRequiredVersion() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["required_version": "3.0.0"], latency: .seconds(2), scheduler: scheduler)
            var required: [String: TestableObserver<Bool>] = [:]
            var sessions: [Disposable] = []
            var viewModels: [ForceUpdateViewModel] = []
            let bag = DisposeBag()
            for (name, appID, platform) in [("ios", "1:1:ios:a", RemoteConfigAppInfo.Platform.apple), ("android", "1:1:android:a", .android)] {
                let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
                remoteConfig.targeting = RemoteConfigTargeting(appID: appID, appInfo: RemoteConfigAppInfo(platform: platform, appVersion: "3.3.5"))
                let viewModel = ForceUpdateViewModel(
                    remoteConfig: remoteConfig, currentVersion: try XCTUnwrap(AppVersion("3.3.5")),
                    storeURL: URL(string: "https://example.com/store")!, scheduler: scheduler)
                let observer = scheduler.createObserver(Bool.self)
                viewModel.outputs.isUpdateRequired.subscribe(observer).disposed(by: bag)
                required[name] = observer
                viewModels.append(viewModel)
                scheduler.scheduleAt(100) { sessions.append(viewModel.startObserving()) }
            }
            scheduler.scheduleAt(300) { try? backend.publish(templateJSON: Self.platformTemplate) }
            scheduler.scheduleAt(500) { sessions.forEach { $0.dispose() } }
            scheduler.start()

            // App 3.3.5: iOS requires 3.3.0 (fine), Android 3.4.0 (update required). Both are
            // told of version 2 and fetch it (one realtime fetch each); only Android's value
            // changed, so only Android re-checks.
            XCTAssertEqual(required["ios"]?.events, [.next(104, false)])
            XCTAssertEqual(required["android"]?.events, [.next(104, false), .next(307, true)])
            XCTAssertEqual(backend.fetchRequests.filter { $0.fetchType == .realtime(attempt: 1) }.map { $0.targeting.appID }, ["1:1:ios:a", "1:1:android:a"])
        }
    }

    private struct Item: Decodable, Equatable {
        let id: Int
        let title: String
    }

    func testItemList_showsTheListTargetedAtACustomSignal() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(latency: .seconds(3), scheduler: scheduler)
            try backend.publish(
                templateJSON: Data(
                    #"""
                    {"conditions": [{"name": "vip", "expression": "app.customSignal['tier'].exactlyMatches(['gold']) && app.customSignal['level'] >= 3"}],
                     "parameters": {"items_json": {"defaultValue": {"value": "[{\"id\": 1, \"title\": \"Primer\"}]"},
                                                   "conditionalValues": {"vip": {"value": "[{\"id\": 5, \"title\": \"Gold palette\"}]"}}}}}
                    """#.utf8))
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Item>(remoteConfig: remoteConfig, itemsKey: "items_json", expirationDuration: 0, scheduler: scheduler)
            let items = scheduler.createObserver([Item].self)
            let bag = DisposeBag()
            viewModel.outputs.items.subscribe(items).disposed(by: bag)
            scheduler.scheduleAt(10) { viewModel.inputs.fetchTrigger.onNext(()) }
            scheduler.scheduleAt(20) {
                remoteConfig.customSignals = ["tier": "gold", "level": "2"]
                viewModel.inputs.fetchTrigger.onNext(())
            }
            scheduler.scheduleAt(30) {
                remoteConfig.customSignals = ["tier": "gold", "level": "3"]
                viewModel.inputs.fetchTrigger.onNext(())
            }
            scheduler.start()

            let primer = [Item(id: 1, title: "Primer")]
            XCTAssertEqual(items.events.map(\.time), [0, 15, 25, 35])
            XCTAssertEqual(items.events.last?.value.element, [Item(id: 5, title: "Gold palette")], "level 3 and gold: the vip list")
            XCTAssertEqual(items.events.dropLast().compactMap(\.value.element).filter { !$0.isEmpty }, [primer, primer])
            XCTAssertEqual(backend.fetchRequests.map(\.customSignals), [[:], ["tier": "gold", "level": "2"], ["tier": "gold", "level": "3"]])
        }
    }
}

import Foundation
import XCTest
import ConfigFeatures
import Streams
import StreamsTest

// Timelines (backend latency 0, so each backend answer and each delivery takes one tick):
// startObserving at 200 -> backend answers 201 -> fetchAndActivate delivers 202 -> outputs 203
// (observe(on:) adds a tick); configUpdates is subscribed at 202. A publish at T -> invalidation
// T+1 -> realtime fetch answered T+2 -> update delivered T+3 -> activate() delivers T+4 -> outputs T+5.
// A store tap at T -> outputs T+1.

private let storeURL = URL(string: "https://apps.apple.com/app/id1234567890")!

private func forced(_ version: String) -> ForceUpdateAlert {
    ForceUpdateAlert(
        title: "Update required",
        message: "Version \(version) or later is required to keep using the app. Please update from the store.",
        storeURL: storeURL, isDismissable: false, version: AppVersion(version)!
    )
}

private func soft(_ version: String) -> ForceUpdateAlert {
    ForceUpdateAlert(
        title: "Update available",
        message: "Version \(version) is available. Update from the store?",
        storeURL: storeURL, isDismissable: true, version: AppVersion(version)!
    )
}

/// A view model over an in-memory backend, its outputs recorded from time 0, observing from
/// `start` to `dispose`.
private final class Harness {
    let scheduler: TestScheduler
    let backend: InMemoryRemoteConfigBackend
    let remoteConfig: RemoteConfig
    let viewModel: ForceUpdateViewModel
    let required: TestableObserver<Bool>
    let alerts: TestableObserver<ForceUpdateAlert>
    let urls: TestableObserver<URL>
    let errors: TestableObserver<ForceUpdateError>
    let session = SerialDisposable()
    /// The output subscriptions (an operator subscribed to a subject lives until disposed).
    let bag = DisposeBag()

    init(
        values: [String: String],
        defaults: [String: String] = [:],
        currentVersion: String = "3.2.1",
        requiredVersionKey: String = "required_version",
        latestVersionKey: String? = "latest_version",
        scheduler: TestScheduler = TestScheduler(initialClock: 0),
        backend: InMemoryRemoteConfigBackend? = nil,
        remoteConfig: RemoteConfig? = nil,
        start: TestTime? = 200,
        dispose: TestTime? = 1000
    ) {
        self.scheduler = scheduler
        let backend = backend ?? InMemoryRemoteConfigBackend(values: values, scheduler: scheduler)
        self.backend = backend
        let remoteConfig = remoteConfig ?? RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
        remoteConfig.setDefaults(defaults)
        self.remoteConfig = remoteConfig
        viewModel = ForceUpdateViewModel(
            remoteConfig: remoteConfig,
            currentVersion: AppVersion(currentVersion)!,
            requiredVersionKey: requiredVersionKey,
            latestVersionKey: latestVersionKey,
            storeURL: storeURL,
            scheduler: scheduler
        )
        required = scheduler.createObserver(Bool.self)
        alerts = scheduler.createObserver(ForceUpdateAlert.self)
        urls = scheduler.createObserver(URL.self)
        errors = scheduler.createObserver(ForceUpdateError.self)
        viewModel.outputs.isUpdateRequired.subscribe(required).disposed(by: bag)
        viewModel.outputs.presentAlert.subscribe(alerts).disposed(by: bag)
        viewModel.outputs.openStoreURL.subscribe(urls).disposed(by: bag)
        viewModel.outputs.error
            .map { ($0 as? ForceUpdateError) ?? .unexpected("not a ForceUpdateError: \($0)") }
            .subscribe(errors)
            .disposed(by: bag)
        let viewModel = self.viewModel
        let session = self.session
        if let start { scheduler.scheduleAt(start) { session.disposable = viewModel.startObserving() } }
        if let dispose { scheduler.scheduleAt(dispose) { session.dispose() } }
    }

    func publish(at time: TestTime, _ values: [String: String]) {
        let backend = self.backend
        scheduler.scheduleAt(time) { backend.publish(values) }
    }

    func tap(at time: TestTime) {
        let viewModel = self.viewModel
        scheduler.scheduleAt(time) { viewModel.inputs.openStoreTapped.onNext(()) }
    }

    /// Records `configUpdates` from `time` (share the view model's connection: subscribe after 202).
    func recordUpdates(from time: TestTime) -> TestableObserver<Set<String>> {
        let observer = scheduler.createObserver(Set<String>.self)
        let remoteConfig = self.remoteConfig
        let session = SerialDisposable()
        scheduler.scheduleAt(time) { session.disposable = remoteConfig.configUpdates.map(\.updatedKeys).subscribe(observer) }
        scheduler.scheduleAt(999) { session.dispose() }
        return observer
    }
}

final class ForceUpdateViewModelTests: XCTestCase {
    // MARK: - Start

    func testForceUpdate_startNotRequired() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.0.0"])
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, false)])
            XCTAssertEqual(harness.alerts.events, [])
            XCTAssertEqual(harness.urls.events, [])
            XCTAssertEqual(harness.errors.events, [])
            XCTAssertEqual(harness.backend.fetchCount, 1)
            XCTAssertEqual(harness.backend.fetchRequests.first?.fetchType, .base)
            XCTAssertEqual(harness.backend.realtimeConnectionTimes, [at(202)], "configUpdates follows the initial fetch")
            XCTAssertEqual(harness.backend.activeRealtimeStreamCount, 0)
        }
    }

    func testForceUpdate_startRequired() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.3.0"])
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, true)])
            XCTAssertEqual(harness.alerts.events, [.next(203, forced("3.3.0"))])
            XCTAssertEqual(harness.errors.events, [])
        }
    }

    func testForceUpdate_equalVersionIsNotRequired() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.2.1"])
            harness.scheduler.start()
            XCTAssertEqual(harness.required.events, [.next(203, false)])
            XCTAssertEqual(harness.alerts.events, [])
        }
    }

    func testForceUpdate_nothingHappensBeforeStartObserving() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.3.0"], start: nil, dispose: nil)
            harness.scheduler.start()
            XCTAssertEqual(harness.required.events, [])
            XCTAssertEqual(harness.alerts.events, [])
            XCTAssertEqual(harness.backend.fetchCount, 0)
            XCTAssertEqual(harness.backend.realtimeConnectionCount, 0)
        }
    }

    // MARK: - Live updates

    func testForceUpdate_livePublishTriggersAlertAfterActivation() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.0.0"])
            let remoteConfig = harness.remoteConfig
            let scheduler = harness.scheduler
            // What the check saw: the value read when the alert is emitted (the check reads the
            // active config right before), with its source.
            var seenAtCheck: [Recorded<String>] = []
            harness.viewModel.outputs.presentAlert.subscribe(onNext: { _ in
                let value = remoteConfig.configValue(forKey: "required_version")
                seenAtCheck.append(Recorded(time: scheduler.clock, value: "\(value.stringValue) (\(value.source))"))
            }).disposed(by: harness.bag)
            let updates = harness.recordUpdates(from: 250)
            harness.publish(at: 300, ["required_version": "3.3.0"])
            harness.scheduler.start()

            XCTAssertEqual(updates.events, [.next(303, ["required_version"])])
            XCTAssertEqual(harness.required.events, [.next(203, false), .next(305, true)])
            XCTAssertEqual(
                harness.alerts.events, [.next(305, forced("3.3.0"))],
                "checked after activate() completed (304), so the check saw 3.3.0")
            XCTAssertEqual(seenAtCheck.map(\.time), [305])
            XCTAssertEqual(seenAtCheck.map(\.value), ["3.3.0 (remote)"])
            XCTAssertEqual(harness.backend.realtimeConnectionCount, 1, "the test's recorder shares the view model's connection")
            XCTAssertEqual(harness.errors.events, [])
        }
    }

    /// Seed bug: `updatedKeys.first == key` on an unordered set misses a multi-key update.
    /// Three view models watch three different keys, all changed by one update: at most one of
    /// them can be `first`, so at least two are in the seed's losing case, whatever the hash seed.
    func testForceUpdate_multiKeyUpdateTriggersWhereverTheKeySits() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let keys = ["required_version", "min_version_ios", "minimum_app_version"]
            var initial = Dictionary(uniqueKeysWithValues: keys.map { ($0, "3.0.0") })
            for index in 0..<10 { initial["filler_\(index)"] = "a" }
            let backend = InMemoryRemoteConfigBackend(values: initial, scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
            let harnesses = keys.map { key in
                Harness(
                    values: [:], requiredVersionKey: key, latestVersionKey: nil,
                    scheduler: scheduler, backend: backend, remoteConfig: remoteConfig)
            }
            let updates = harnesses[0].recordUpdates(from: 250)
            var published = Dictionary(uniqueKeysWithValues: keys.map { ($0, "3.3.0") })
            for index in 0..<10 { published["filler_\(index)"] = "b" }
            harnesses[0].publish(at: 300, published)
            scheduler.start()

            XCTAssertEqual(updates.events.count, 1)
            let delivered = updates.events.first?.value.element ?? []
            XCTAssertEqual(delivered, Set(published.keys))
            XCTAssertGreaterThanOrEqual(
                keys.filter { $0 != delivered.first }.count, 2,
                "at least two watched keys are not first in iteration order")
            for (key, harness) in zip(keys, harnesses) {
                XCTAssertEqual(harness.required.events, [.next(203, false), .next(305, true)], key)
                XCTAssertEqual(harness.alerts.events, [.next(305, forced("3.3.0"))], key)
                XCTAssertEqual(harness.errors.events, [], key)
            }
            XCTAssertEqual(backend.realtimeConnectionCount, 1)
        }
    }

    func testForceUpdate_manyKeysInOneUpdateWithTheKeyAmongThem() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.0.0", "banner": "old"])
            var published: [String: String] = ["required_version": "3.3.0", "banner": "new"]
            for index in 0..<20 { published["key_\(index)"] = "\(index)" }
            harness.publish(at: 300, published)
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, false), .next(305, true)])
            XCTAssertEqual(harness.alerts.events, [.next(305, forced("3.3.0"))])
        }
    }

    func testForceUpdate_unrelatedKeyUpdateChangesNothing() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.0.0", "banner": "old"])
            let updates = harness.recordUpdates(from: 250)
            harness.publish(at: 300, ["required_version": "3.0.0", "banner": "new"])
            harness.scheduler.start()

            XCTAssertEqual(updates.events, [.next(303, ["banner"])])
            XCTAssertEqual(harness.required.events, [.next(203, false)])
            XCTAssertEqual(harness.alerts.events, [])
            XCTAssertEqual(harness.errors.events, [])
            XCTAssertEqual(harness.remoteConfig["banner"].stringValue, "old", "unrelated updates are not activated by the view model")
        }
    }

    func testForceUpdate_higherRequiredWhileRequiredPresentsNewAlertWithoutRepeatingState() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.3.0"])
            harness.publish(at: 300, ["required_version": "3.4.0"])
            harness.publish(at: 400, ["required_version": "3.4.0", "banner": "x"])  // unrelated
            let late = harness.scheduler.createObserver(Bool.self)
            let viewModel = harness.viewModel
            let bag = harness.bag
            harness.scheduler.scheduleAt(500) { viewModel.outputs.isUpdateRequired.subscribe(late).disposed(by: bag) }
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, true)], "equal values are not repeated")
            XCTAssertEqual(late.events, [.next(500, true)], "the current value is replayed to a late subscriber")
            XCTAssertEqual(harness.alerts.events, [.next(203, forced("3.3.0")), .next(305, forced("3.4.0"))])
        }
    }

    func testForceUpdate_loweredRequiredVersionReleasesTheUser() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.3.0"])
            harness.publish(at: 300, ["required_version": "3.2.0"])
            harness.tap(at: 400)
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, true), .next(305, false)])
            XCTAssertEqual(harness.alerts.events, [.next(203, forced("3.3.0"))], "no alert to present again once not required")
            XCTAssertEqual(harness.urls.events, [.next(401, storeURL)])
        }
    }

    // MARK: - Bad input

    func testForceUpdate_invalidVersionIsDiagnosedAndNotRequired() {
        for text in ["abc", "", "   ", "3..1", "latest"] {
            XCTAssertNoLeaks {
                let harness = Harness(values: ["required_version": text])
                harness.scheduler.start()

                XCTAssertEqual(harness.required.events, [.next(203, false)], text)
                XCTAssertEqual(harness.alerts.events, [], text)
                XCTAssertEqual(harness.errors.events, [.next(203, .invalidVersion(key: "required_version", value: text))], text)
            }
        }
    }

    func testForceUpdate_liveInvalidVersionNeverLocksTheUserOut() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.3.0"])
            harness.publish(at: 300, ["required_version": "abc"])
            harness.tap(at: 400)
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, true), .next(305, false)])
            XCTAssertEqual(harness.errors.events, [.next(305, .invalidVersion(key: "required_version", value: "abc"))])
            XCTAssertEqual(harness.alerts.events, [.next(203, forced("3.3.0"))])
            XCTAssertEqual(harness.urls.events, [.next(401, storeURL)])
        }
    }

    func testForceUpdate_missingKeyIsNotRequired() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["banner": "x"])
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, false)])
            XCTAssertEqual(harness.alerts.events, [])
            XCTAssertEqual(harness.errors.events, [], "a missing key is no requirement, not an error")
        }
    }

    func testForceUpdate_removedKeyReleasesTheUser() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.3.0", "banner": "x"])
            harness.publish(at: 300, ["banner": "x"])
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, true), .next(305, false)])
            XCTAssertEqual(harness.errors.events, [])
        }
    }

    func testForceUpdate_moreThanThreeComponents() {
        let cases: [(current: String, required: String, isRequired: Bool)] = [
            ("3.2.1", "3.2.1.1", true),
            ("3.2.1.4", "3.2.1.5", true),
            ("3.2.1.4", "3.2.1.3", false),
            ("3.2.1.4", "3.2.1.4.0", false),
            ("1.2.3.4.5.6", "1.2.3.4.5.7", true),
        ]
        for (current, required, isRequired) in cases {
            XCTAssertNoLeaks {
                let harness = Harness(values: ["required_version": required], currentVersion: current)
                harness.scheduler.start()

                let label = "\(current) vs \(required)"
                XCTAssertEqual(harness.required.events, [.next(203, isRequired)], label)
                XCTAssertEqual(harness.alerts.events, isRequired ? [.next(203, forced(required))] : [], label)
                XCTAssertEqual(harness.errors.events, [], label)
            }
        }
    }

    func testForceUpdate_surroundingWhitespaceAndPrefixAreAccepted() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": " v3.3 \n"])
            harness.scheduler.start()
            XCTAssertEqual(harness.required.events, [.next(203, true)])
            let shown = harness.alerts.events.compactMap(\.value.element?.version)
            let expected = AppVersion("3.3.0")!
            XCTAssertEqual(shown.count, 1)
            XCTAssertFalse(shown[0] < expected || expected < shown[0], "3.3 orders as 3.3.0")
        }
    }

    // MARK: - Store button

    func testForceUpdate_storeTapOpensURLAndPresentsAlertAgain() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.3.0"])
            harness.tap(at: 400)
            harness.tap(at: 500)
            harness.scheduler.start()

            XCTAssertEqual(harness.urls.events, [.next(401, storeURL), .next(501, storeURL)])
            XCTAssertEqual(
                harness.alerts.events,
                [
                    .next(203, forced("3.3.0")),
                    .next(401, forced("3.3.0")),
                    .next(501, forced("3.3.0")),
                ])
            XCTAssertEqual(harness.required.events, [.next(203, true)])
        }
    }

    func testForceUpdate_storeTapAfterDisposeDoesNothing() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.3.0"], dispose: 300)
            harness.tap(at: 400)
            harness.scheduler.start()
            XCTAssertEqual(harness.urls.events, [])
            XCTAssertEqual(harness.alerts.events, [.next(203, forced("3.3.0"))])
        }
    }

    // MARK: - Soft update

    func testForceUpdate_softUpdateViaLatestVersion() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.0.0", "latest_version": "3.3.0"])
            harness.tap(at: 400)  // soft: not presented again
            harness.publish(at: 500, ["required_version": "3.1.0", "latest_version": "3.3.0"])  // same soft alert: not again
            harness.publish(at: 600, ["required_version": "3.3.0", "latest_version": "3.3.0"])  // now forced
            harness.tap(at: 700)
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, false), .next(605, true)])
            XCTAssertEqual(
                harness.alerts.events,
                [
                    .next(203, soft("3.3.0")),
                    .next(605, forced("3.3.0")),
                    .next(701, forced("3.3.0")),
                ])
            XCTAssertEqual(harness.urls.events, [.next(401, storeURL), .next(701, storeURL)])
            XCTAssertEqual(harness.errors.events, [])
        }
    }

    func testForceUpdate_liveLatestVersionOnlyUpdatePresentsSoftAlert() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.0.0"])
            harness.publish(at: 300, ["required_version": "3.0.0", "latest_version": "3.2.2"])
            harness.publish(at: 400, ["required_version": "3.0.0", "latest_version": "3.2.3"])
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, false)])
            XCTAssertEqual(harness.alerts.events, [.next(305, soft("3.2.2")), .next(405, soft("3.2.3"))])
        }
    }

    func testForceUpdate_softUpdateDisabledWithNilLatestKey() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.0.0", "latest_version": "3.3.0"], latestVersionKey: nil)
            harness.publish(at: 300, ["required_version": "3.0.0", "latest_version": "3.4.0"])
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, false)])
            XCTAssertEqual(harness.alerts.events, [])
        }
    }

    func testForceUpdate_invalidLatestVersionIsDiagnosed() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.3.0", "latest_version": "latest"])
            harness.scheduler.start()

            XCTAssertEqual(harness.required.events, [.next(203, true)])
            XCTAssertEqual(harness.alerts.events, [.next(203, forced("3.3.0"))])
            XCTAssertEqual(harness.errors.events, [.next(203, .invalidVersion(key: "latest_version", value: "latest"))])
        }
    }

    // MARK: - Failures

    func testForceUpdate_fetchFailureReportsThenChecksDefaultsAndKeepsFollowing() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.3.0"], defaults: ["required_version": "3.0.0"])
            harness.backend.failNextFetches(1, with: .network(message: "offline"))
            harness.publish(at: 300, ["required_version": "3.4.0"])
            harness.scheduler.start()

            XCTAssertEqual(harness.errors.events, [.next(203, .fetchFailed(.backend(.network(message: "offline"))))])
            // The realtime connection opened at 202 without a fetched version, so the server
            // announced its template at once: fetched 204, update 205, activated 206.
            XCTAssertEqual(harness.required.events, [.next(204, false), .next(207, true)])
            XCTAssertEqual(harness.alerts.events, [.next(207, forced("3.3.0")), .next(305, forced("3.4.0"))])
        }
    }

    func testForceUpdate_fetchFailureUsesPersistedValues() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["required_version": "3.3.0"], scheduler: scheduler)
            let storage = InMemoryRemoteConfigStorage()
            let previousLaunch = RemoteConfig(backend: backend, storage: storage, scheduler: scheduler)
            _ = scheduler.recordEvents(subscribed: 50) { previousLaunch.fetchAndActivate() }
            scheduler.advanceTo(100)
            backend.failNextFetches(1, with: .http(statusCode: 400, message: "bad request"))

            let remoteConfig = RemoteConfig(backend: backend, settings: settings(interval: 0), storage: storage, scheduler: scheduler)
            let harness = Harness(
                values: [:], defaults: ["required_version": "3.0.0"], scheduler: scheduler,
                backend: backend, remoteConfig: remoteConfig)
            scheduler.start()

            XCTAssertEqual(harness.errors.events, [.next(203, .fetchFailed(.backend(.http(statusCode: 400, message: "bad request"))))])
            XCTAssertEqual(harness.required.events, [.next(204, true)], "the persisted active 3.3.0 wins over the default")
            XCTAssertEqual(harness.alerts.events, [.next(204, forced("3.3.0"))])
        }
    }

    func testForceUpdate_realtimeFailureIsReportedAndTapsStillWork() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.3.0"])
            let backend = harness.backend
            harness.scheduler.scheduleAt(300) { backend.disableRealtime() }
            harness.tap(at: 400)
            harness.scheduler.start()

            XCTAssertEqual(harness.errors.events, [.next(303, .realtimeUpdatesFailed(.unavailable))])
            XCTAssertEqual(harness.alerts.events, [.next(203, forced("3.3.0")), .next(401, forced("3.3.0"))])
            XCTAssertEqual(harness.urls.events, [.next(401, storeURL)])
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
        }
    }

    // MARK: - Lifetime

    func testForceUpdate_disposalClosesRealtimeStreamAndReleasesEverything() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.0.0"], dispose: 400)
            let backend = harness.backend
            var counts: [TestTime: Int] = [:]
            for time in [199, 203, 399, 400] {
                harness.scheduler.scheduleAt(time) { counts[time] = backend.activeRealtimeStreamCount }
            }
            harness.publish(at: 300, ["required_version": "3.1.0"])
            harness.publish(at: 500, ["required_version": "3.3.0"])
            harness.tap(at: 600)
            harness.scheduler.start()

            XCTAssertEqual(counts, [199: 0, 203: 1, 399: 1, 400: 0])
            XCTAssertEqual(harness.required.events, [.next(203, false)])
            XCTAssertEqual(harness.alerts.events, [])
            XCTAssertEqual(harness.urls.events, [])
            XCTAssertEqual(backend.fetchCount, 2, "the initial fetch and the 3.1.0 update; nothing after disposal")
            XCTAssertNoPendingWork(harness.scheduler)
        }
    }

    func testForceUpdate_disposeDuringInitialFetch() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["required_version": "3.3.0"], latency: .seconds(10), scheduler: scheduler)
            let harness = Harness(values: [:], scheduler: scheduler, backend: backend, dispose: 205)
            scheduler.start()

            XCTAssertEqual(harness.required.events, [])
            XCTAssertEqual(harness.alerts.events, [])
            XCTAssertEqual(backend.realtimeConnectionCount, 0)
            XCTAssertEqual(harness.remoteConfig["required_version"].stringValue, "3.3.0", "the started fetch still lands, as in Firebase")
        }
    }

    func testForceUpdate_releasingTheViewModelStopsObserving() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["required_version": "3.0.0"], scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            weak var weakViewModel: ForceUpdateViewModel?
            do {
                let viewModel = ForceUpdateViewModel(
                    remoteConfig: remoteConfig, currentVersion: AppVersion("3.2.1")!,
                    storeURL: storeURL, scheduler: scheduler)
                weakViewModel = viewModel
                _ = viewModel.startObserving()  // subscription deliberately dropped
                scheduler.advanceTo(300)
                XCTAssertEqual(backend.activeRealtimeStreamCount, 1)
            }
            XCTAssertNil(weakViewModel, "the observation does not keep the view model alive")
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0, "deinit stops the observation")
            scheduler.start()
        }
    }

    func testForceUpdate_startObservingAgainReplacesThePreviousObservation() {
        XCTAssertNoLeaks {
            let harness = Harness(values: ["required_version": "3.0.0"])
            let viewModel = harness.viewModel
            let second = SerialDisposable()
            harness.scheduler.scheduleAt(250) { second.disposable = viewModel.startObserving() }
            harness.scheduler.scheduleAt(900) { second.dispose() }
            harness.publish(at: 300, ["required_version": "3.3.0"])
            harness.tap(at: 400)
            var streams: [TestTime: Int] = [:]
            let backend = harness.backend
            for time in [260, 950] { harness.scheduler.scheduleAt(time) { streams[time] = backend.activeRealtimeStreamCount } }
            harness.scheduler.start()

            // 250: served from the fetch made at 201 (12 h interval), delivered 251, checked 252
            // (no change: nothing emitted again).
            XCTAssertEqual(harness.required.events, [.next(203, false), .next(305, true)])
            XCTAssertEqual(harness.alerts.events, [.next(305, forced("3.3.0")), .next(401, forced("3.3.0"))], "one observation, not two")
            XCTAssertEqual(harness.urls.events, [.next(401, storeURL)])
            XCTAssertEqual(streams, [260: 1, 950: 0])
        }
    }

    // MARK: - Threads

    func testForceUpdate_concurrentTapsAndUpdatesOnDispatchSchedulers() {
        // Waits for the queues to release everything, so no later leak assertion sees it go.
        XCTAssertNoLeaksEventually {
            let taps = 200
            let configQueue = DispatchQueue(label: "force-update-test.config")
            let uiQueue = DispatchQueue(label: "force-update-test.ui")
            let configScheduler = SerialDispatchQueueScheduler(serialQueue: configQueue)
            let uiScheduler = SerialDispatchQueueScheduler(serialQueue: uiQueue)
            let backend = InMemoryRemoteConfigBackend(values: ["required_version": "3.3.0"], scheduler: configScheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: configScheduler)
            let viewModel = ForceUpdateViewModel(
                remoteConfig: remoteConfig, currentVersion: AppVersion("3.2.1")!,
                storeURL: storeURL, scheduler: uiScheduler)
            let recorded = LockedLog()
            let started = expectation(description: "first check")
            let allTapsHandled = expectation(description: "every tap handled")
            let bag = DisposeBag()
            viewModel.outputs.isUpdateRequired
                .subscribe(onNext: { value in
                    recorded.append("required \(value)")
                    if recorded.count(prefix: "required") == 1 { started.fulfill() }
                })
                .disposed(by: bag)
            viewModel.outputs.presentAlert
                .subscribe(onNext: { alert in recorded.append(alert.isDismissable ? "soft" : "forced") })
                .disposed(by: bag)
            viewModel.outputs.openStoreURL
                .subscribe(onNext: { _ in
                    recorded.append("url")
                    if recorded.count(prefix: "url") == taps { allTapsHandled.fulfill() }
                })
                .disposed(by: bag)
            viewModel.outputs.error
                .subscribe(onNext: { recorded.append("error \($0)") })
                .disposed(by: bag)
            let session = viewModel.startObserving()
            wait(for: [started], timeout: 10)

            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                if worker == 0 {
                    for _ in 0..<taps { viewModel.inputs.openStoreTapped.onNext(()) }
                } else {
                    for index in 0..<20 { backend.publish(["required_version": index.isMultiple(of: 2) ? "3.4.0" : "3.3.0"]) }
                }
            }
            wait(for: [allTapsHandled], timeout: 10)
            session.dispose()
            configQueue.sync {}
            uiQueue.sync {}

            let events = recorded.all
            XCTAssertEqual(events.filter { $0 == "url" }.count, taps)
            XCTAssertEqual(events.filter { $0.hasPrefix("required") }, ["required true"], "never released, never repeated")
            XCTAssertEqual(events.filter { $0.hasPrefix("error") || $0 == "soft" }, [])
            XCTAssertGreaterThanOrEqual(events.filter { $0 == "forced" }.count, taps + 1, "presented again after every tap")
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
        }
    }
}

/// Strings appended from any thread.
private final class LockedLog: Sendable {
    private let events = LockedState<[String]>([])
    func append(_ event: String) { events.withLock { $0.append(event) } }
    func count(prefix: String) -> Int { events.withLock { $0.filter { $0.hasPrefix(prefix) }.count } }
    var all: [String] { events.withLock { $0 } }
}

import Foundation
import XCTest
import ConfigFeatures
import Streams
import StreamsTest

/// The seed's config struct: two tab titles with in-app defaults.
private struct LaunchConfig: Decodable, Equatable {
    let tabTitles: String
    let tabTitlesEn: String
}

/// A config with a number, to make decoding fail.
private struct LimitsConfig: Decodable, Equatable {
    let tabTitlesEn: String
    let maxItems: Int
}

private struct ContentError: Error {}

private let seedDefaults: [String: JSONValue] = ["tabTitles": "メイク", "tabTitlesEn": "make"]
private let freshValues = ["tabTitles": "ホーム", "tabTitlesEn": "home"]
private let savedValues = ["tabTitles": "保存", "tabTitlesEn": "saved"]

private let defaultConfig = LaunchConfig(tabTitles: "メイク", tabTitlesEn: "make")
private let freshConfig = LaunchConfig(tabTitles: "ホーム", tabTitlesEn: "home")
private let savedConfig = LaunchConfig(tabTitles: "保存", tabTitlesEn: "saved")

/// Every output of a launch view model, recorded from the time of `recordLaunch`.
private struct LaunchRecording<Config, Content> {
    let splash: TestableObserver<Bool>
    let config: TestableObserver<Config>
    let content: TestableObserver<Content>
    let errors: TestableObserver<LaunchError>
}

private func recordLaunch<Config, Content>(_ viewModel: LaunchViewModel<Config, Content>, on scheduler: TestScheduler, bag: DisposeBag) -> LaunchRecording<
    Config, Content
> {
    let recording = LaunchRecording(
        splash: scheduler.createObserver(Bool.self),
        config: scheduler.createObserver(Config.self),
        content: scheduler.createObserver(Content.self),
        errors: scheduler.createObserver(LaunchError.self)
    )
    viewModel.outputs.isSplashVisible.subscribe(recording.splash).disposed(by: bag)
    viewModel.outputs.config.subscribe(recording.config).disposed(by: bag)
    viewModel.outputs.content.subscribe(recording.content).disposed(by: bag)
    viewModel.outputs.error.subscribe(recording.errors).disposed(by: bag)
    return recording
}

/// A storage holding a previous session's snapshot.
private func persisted(active: [String: String], fetched: [String: String]? = nil, lastFetchTime: Date? = nil) -> InMemoryRemoteConfigStorage {
    InMemoryRemoteConfigStorage(
        snapshot: RemoteConfigSnapshot(
            fetched: fetched ?? active,
            active: active,
            metadata: RemoteConfigMetadata(lastFetchTime: lastFetchTime, lastFetchStatus: .success, fetchedTemplateVersion: 1, activeTemplateVersion: 1)
        ))
}

private func makeRemoteConfig(_ backend: InMemoryRemoteConfigBackend, storage: RemoteConfigStorage = InMemoryRemoteConfigStorage(), scheduler: TestScheduler)
    -> RemoteConfig
{
    let remoteConfig = RemoteConfig(backend: backend, storage: storage, scheduler: scheduler)
    remoteConfig.setDefaults(seedDefaults)
    return remoteConfig
}

final class LaunchViewModelTests: XCTestCase {
    // MARK: fetchAndActivateBeforeShowing

    func testLaunch_fetchAndActivate_showsFetchedValuesAndStartsContentAtOnce() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            let remoteConfig = makeRemoteConfig(backend, scheduler: scheduler)
            let feed = scheduler.createColdObservable([.next(2, "feed"), .completed(4)])
            var requested: [LaunchConfig] = []
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { config in
                requested.append(config)
                return feed.asObservable().map { "\($0) for \(config.tabTitlesEn)" }
            }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            // Backend answers at 3, RemoteConfig delivers at 4, the view model at 5.
            XCTAssertEqual(res.splash.events, [.next(0, true), .next(5, false)])
            XCTAssertEqual(res.config.events, [.next(5, freshConfig)])
            XCTAssertEqual(feed.subscriptions, [Subscription(5, 9)], "subscribed the moment the config is known")
            XCTAssertEqual(res.content.events, [.next(8, "feed for home")])
            XCTAssertEqual(res.errors.events, [])
            XCTAssertEqual(requested, [freshConfig])
            XCTAssertEqual(remoteConfig["tabTitles"].stringValue, "ホーム", "activated")
            XCTAssertEqual(backend.fetchCount, 1)
        }
    }

    func testLaunch_fetchAndActivate_slowBackendHitsTimeoutAndFallsBackToDefaults() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(20), scheduler: scheduler)
            let storage = InMemoryRemoteConfigStorage()
            let remoteConfig = makeRemoteConfig(backend, storage: storage, scheduler: scheduler)
            let feed = scheduler.createColdObservable([.next(1, "feed"), .completed(1)])
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(5), scheduler: scheduler
            ) { config in feed.asObservable().map { "\($0) for \(config.tabTitlesEn)" } }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.splash.events, [.next(0, true), .next(5, false)], "hidden exactly at the timeout")
            XCTAssertEqual(res.errors.events, [.next(5, .fetchTimedOut)])
            XCTAssertEqual(res.config.events, [.next(5, defaultConfig)])
            XCTAssertEqual(feed.subscriptions, [Subscription(5, 6)])
            XCTAssertEqual(res.content.events, [.next(7, "feed for make")])
            // The late fetch (20) is stored for the next launch, not activated in this one.
            XCTAssertEqual(remoteConfig["tabTitles"].stringValue, "メイク")
            XCTAssertEqual(remoteConfig.snapshot.fetched, freshValues)
            XCTAssertEqual(storage.snapshot?.fetched, freshValues)
            XCTAssertEqual(backend.openFetchCount, 0)
        }
    }

    func testLaunch_fetchAndActivate_timeoutFallsBackToPersistedValues() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(20), scheduler: scheduler)
            let remoteConfig = makeRemoteConfig(backend, storage: persisted(active: savedValues), scheduler: scheduler)
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(5), scheduler: scheduler
            ) { config in .just(config.tabTitlesEn) }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.splash.events, [.next(0, true), .next(5, false)])
            XCTAssertEqual(res.errors.events, [.next(5, .fetchTimedOut)])
            XCTAssertEqual(res.config.events, [.next(5, savedConfig)])
            XCTAssertEqual(res.content.events, [.next(6, "saved")])
        }
    }

    func testLaunch_fetchAndActivate_timeoutWinsATieWithTheBackend() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            // The backend answers at 5, the very time the timeout fires.
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = makeRemoteConfig(backend, scheduler: scheduler)
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(5), scheduler: scheduler
            ) { _ in .never() }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.splash.events, [.next(0, true), .next(5, false)])
            XCTAssertEqual(res.errors.events, [.next(5, .fetchTimedOut)])
            XCTAssertEqual(res.config.events, [.next(5, defaultConfig)])
            XCTAssertEqual(remoteConfig.snapshot.fetched, freshValues, "stored for the next launch")
            XCTAssertEqual(remoteConfig["tabTitles"].source, .default)
        }
    }

    func testLaunch_fetchAndActivate_fetchThatLandedBeforeTheTimeoutCountsAsInTime() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            // The backend answers at 3; the result would reach the view model at 5, when the
            // timeout fires (the timer, scheduled first, runs first).
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            let remoteConfig = makeRemoteConfig(backend, scheduler: scheduler)
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(5), scheduler: scheduler
            ) { _ in .never() }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.splash.events, [.next(0, true), .next(5, false)])
            XCTAssertEqual(res.errors.events, [])
            XCTAssertEqual(res.config.events, [.next(5, freshConfig)])
        }
    }

    func testLaunch_fetchAndActivate_failureFallsBackToPersistedValuesBeforeTimeout() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            backend.failNextFetches(1, with: .network(message: "offline"))
            let remoteConfig = makeRemoteConfig(backend, storage: persisted(active: savedValues), scheduler: scheduler)
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { config in .just(config.tabTitlesEn) }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.splash.events, [.next(0, true), .next(5, false)])
            XCTAssertEqual(res.errors.events, [.next(5, .fetchFailed(.backend(.network(message: "offline"))))])
            XCTAssertEqual(res.config.events, [.next(5, savedConfig)])
            XCTAssertEqual(res.content.events, [.next(6, "saved")])
            XCTAssertEqual(remoteConfig.lastFetchStatus, .failure)
        }
    }

    func testLaunch_fetchAndActivate_failureWithNothingPersistedUsesDefaults() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            backend.failNextFetches(1, with: .rateLimited)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
            remoteConfig.setDefaults(seedDefaults)
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { config in .just(config.tabTitlesEn) }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.errors.events, [.next(5, .fetchFailed(.throttled(until: Date(timeIntervalSince1970: 3 + 120))))])
            XCTAssertEqual(res.config.events, [.next(5, defaultConfig)])
            XCTAssertEqual(res.splash.events, [.next(0, true), .next(5, false)])
        }
    }

    func testLaunch_fetchAndActivate_fallbackActivatesAPersistedButUnactivatedFetch() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            backend.failNextFetches(1, with: .network(message: "offline"))
            // The previous session fetched `fresh` after its timeout and did not activate it.
            let storage = persisted(active: savedValues, fetched: freshValues)
            let remoteConfig = makeRemoteConfig(backend, storage: storage, scheduler: scheduler)
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { _ in .empty() }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.config.events, [.next(5, freshConfig)])
            XCTAssertEqual(storage.snapshot?.active, freshValues)
        }
    }

    func testLaunch_fetchAndActivate_withinMinimumIntervalUsesLastFetchWithoutBackendCall() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [:], latency: .seconds(3), scheduler: scheduler)
            let storage = persisted(active: savedValues, fetched: freshValues, lastFetchTime: Date(timeIntervalSince1970: 0))
            let remoteConfig = makeRemoteConfig(backend, storage: storage, scheduler: scheduler)
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { _ in .empty() }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.splash.events, [.next(0, true), .next(2, false)])
            XCTAssertEqual(res.config.events, [.next(2, freshConfig)])
            XCTAssertEqual(backend.fetchCount, 0)
        }
    }

    // MARK: activateCachedThenFetch

    func testLaunch_activateCached_showsPersistedValuesAtOnceAndFetchesForNextLaunch() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            let storage = persisted(active: savedValues)
            let remoteConfig = makeRemoteConfig(backend, storage: storage, scheduler: scheduler)
            let feed = scheduler.createColdObservable([.next(2, "feed"), .completed(2)])
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .activateCachedThenFetch, timeout: .seconds(10), scheduler: scheduler
            ) { config in feed.asObservable().map { "\($0) for \(config.tabTitlesEn)" } }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.splash.events, [.next(0, true), .next(1, false)])
            XCTAssertEqual(res.config.events, [.next(1, savedConfig)])
            XCTAssertEqual(feed.subscriptions, [Subscription(1, 3)])
            XCTAssertEqual(res.content.events, [.next(4, "feed for saved")])
            XCTAssertEqual(res.errors.events, [])
            // Fetched in the background (request at 1, answer at 4), stored, not activated.
            XCTAssertEqual(backend.fetchCount, 1)
            XCTAssertEqual(remoteConfig.lastFetchTime, Date(timeIntervalSince1970: 4))
            XCTAssertEqual(remoteConfig["tabTitlesEn"].stringValue, "saved")
            XCTAssertEqual(storage.snapshot?.fetched, freshValues)
            XCTAssertEqual(storage.snapshot?.active, savedValues)
        }
    }

    func testLaunch_activateCached_nextLaunchActivatesWhatTheBackgroundFetchStored() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            let storage = persisted(active: savedValues)
            let bag = DisposeBag()

            let first = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: makeRemoteConfig(backend, storage: storage, scheduler: scheduler),
                strategy: .activateCachedThenFetch, timeout: .seconds(10), scheduler: scheduler
            ) { _ in .empty() }
            let firstLaunch = recordLaunch(first, on: scheduler, bag: bag)
            scheduler.advanceTo(50)
            first.dispose()

            // A new process: a new client over the same storage.
            let second = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: makeRemoteConfig(backend, storage: storage, scheduler: scheduler),
                strategy: .activateCachedThenFetch, timeout: .seconds(10), scheduler: scheduler
            ) { _ in .empty() }
            let secondLaunch = recordLaunch(second, on: scheduler, bag: bag)
            scheduler.start()

            XCTAssertEqual(firstLaunch.config.events, [.next(1, savedConfig)])
            XCTAssertEqual(secondLaunch.splash.events, [.next(50, true), .next(51, false)])
            XCTAssertEqual(secondLaunch.config.events, [.next(51, freshConfig)])
        }
    }

    func testLaunch_activateCached_firstLaunchWithNothingPersistedUsesDefaults() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            let remoteConfig = makeRemoteConfig(backend, scheduler: scheduler)
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .activateCachedThenFetch, timeout: .seconds(10), scheduler: scheduler
            ) { _ in .empty() }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.config.events, [.next(1, defaultConfig)])
            XCTAssertEqual(remoteConfig["tabTitles"].source, .default, "the background fetch is not activated")
        }
    }

    func testLaunch_activateCached_backgroundFetchFailureIsReported() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            backend.failNextFetches(1, with: .http(statusCode: 403, message: "forbidden"))
            let remoteConfig = makeRemoteConfig(backend, storage: persisted(active: savedValues), scheduler: scheduler)
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .activateCachedThenFetch, timeout: .seconds(10), scheduler: scheduler
            ) { _ in .empty() }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.splash.events, [.next(0, true), .next(1, false)])
            XCTAssertEqual(res.config.events, [.next(1, savedConfig)])
            // Request at 1, failure at 4, RemoteConfig delivers at 5, the view model at 6.
            XCTAssertEqual(res.errors.events, [.next(6, .backgroundFetchFailed(.backend(.http(statusCode: 403, message: "forbidden"))))])
        }
    }

    // MARK: Dependent request and disposal

    func testLaunch_dependentRequestIsCancelledWhenViewModelIsDisposed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            let remoteConfig = makeRemoteConfig(backend, scheduler: scheduler)
            let feed = scheduler.createColdObservable([.next(10, "a"), .next(50, "b"), .completed(100)])
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { _ in feed.asObservable() }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)
            scheduler.scheduleAt(30) { viewModel.dispose() }

            scheduler.start()

            XCTAssertEqual(feed.subscriptions, [Subscription(5, 30)])
            XCTAssertEqual(res.content.events, [.next(16, "a")])
            XCTAssertTrue(viewModel.isDisposed)
        }
    }

    func testLaunch_dependentRequestIsCancelledWhenViewModelIsReleased() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            let remoteConfig = makeRemoteConfig(backend, scheduler: scheduler)
            let feed = scheduler.createColdObservable([.next(10, "a"), .next(50, "b"), .completed(100)])
            var viewModel: LaunchViewModel<LaunchConfig, String>? = LaunchViewModel(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { _ in feed.asObservable() }
            weak let released = viewModel
            let content = scheduler.createObserver(String.self)
            let bag = DisposeBag()
            viewModel?.outputs.content.subscribe(content).disposed(by: bag)
            scheduler.scheduleAt(30) { viewModel = nil }

            scheduler.start()

            XCTAssertNil(released)
            XCTAssertEqual(feed.subscriptions, [Subscription(5, 30)])
            XCTAssertEqual(content.events, [.next(16, "a")])
        }
    }

    func testLaunch_disposeBeforeTheConfigIsKnownCancelsTimeoutAndDelivery() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            let remoteConfig = makeRemoteConfig(backend, scheduler: scheduler)
            var loads = 0
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { _ in
                loads += 1
                return .never()
            }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)
            scheduler.advanceTo(2)
            viewModel.dispose()
            scheduler.start()

            XCTAssertEqual(res.splash.events, [.next(0, true)])
            XCTAssertEqual(res.config.events, [])
            XCTAssertEqual(res.errors.events, [])
            XCTAssertEqual(loads, 0)
            XCTAssertEqual(scheduler.clock, 3, "the backend call already started answered at 3; no delivery, no timeout at 10")
            XCTAssertEqual(remoteConfig.snapshot.fetched, freshValues)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testLaunch_contentFailureIsReported() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(3), scheduler: scheduler)
            let remoteConfig = makeRemoteConfig(backend, scheduler: scheduler)
            let feed = scheduler.createColdObservable([.next(1, "partial"), .error(2, ContentError())])
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { _ in feed.asObservable() }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.content.events, [.next(7, "partial")])
            // The error comes one observe(on:) step (one tick) after the element before it.
            XCTAssertEqual(res.errors.events, [.next(8, .contentFailed(ContentError()))])
            XCTAssertEqual(res.splash.events, [.next(0, true), .next(5, false)])
        }
    }

    // MARK: Decoding

    func testLaunch_decodingFailureReportsAndFallsBackToDefaults() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["tabTitlesEn": "home", "maxItems": "lots"], latency: .seconds(3), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            remoteConfig.setDefaults(["tabTitlesEn": "make", "maxItems": 20])
            var requested: [LimitsConfig] = []
            let viewModel = LaunchViewModel<LimitsConfig, Int>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { config in
                requested.append(config)
                return .just(config.maxItems)
            }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(res.errors.events, [.next(5, .decodingFailed(.decoding(#"maxItems: expected Int: Expected Int, found text "lots""#)))])
            XCTAssertEqual(res.config.events, [.next(5, LimitsConfig(tabTitlesEn: "make", maxItems: 20))])
            XCTAssertEqual(res.splash.events, [.next(0, true), .next(5, false)])
            XCTAssertEqual(res.content.events, [.next(6, 20)])
            XCTAssertEqual(requested, [LimitsConfig(tabTitlesEn: "make", maxItems: 20)])
        }
    }

    func testLaunch_undecodableDefaultsEndTheLaunchWithoutConfig() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["tabTitlesEn": "home"], latency: .seconds(3), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            remoteConfig.setDefaults(["tabTitlesEn": "make"])  // no maxItems anywhere
            var loads = 0
            let viewModel = LaunchViewModel<LimitsConfig, Int>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { _ in
                loads += 1
                return .never()
            }
            let bag = DisposeBag()
            let res = recordLaunch(viewModel, on: scheduler, bag: bag)

            scheduler.start()

            XCTAssertEqual(
                res.errors.events,
                [
                    .next(5, .decodingFailed(.decoding("maxItems: key not found"))),
                    .next(5, .defaultsDecodingFailed(.decoding("maxItems: key not found"))),
                ])
            XCTAssertEqual(res.config.events, [])
            XCTAssertEqual(res.splash.events, [.next(0, true), .next(5, false)], "the splash never stays")
            XCTAssertEqual(loads, 0)
        }
    }

    // MARK: Outputs

    func testLaunch_lateSubscribersSeeTheCurrentState() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .seconds(20), scheduler: scheduler)
            let remoteConfig = makeRemoteConfig(backend, scheduler: scheduler)
            let feed = scheduler.createColdObservable([.next(1, "a"), .next(2, "b")])
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(5), scheduler: scheduler
            ) { _ in feed.asObservable() }
            let bag = DisposeBag()
            var late: LaunchRecording<LaunchConfig, String>?
            scheduler.scheduleAt(50) { late = recordLaunch(viewModel, on: scheduler, bag: bag) }
            scheduler.scheduleAt(60) { viewModel.dispose() }

            scheduler.start()

            XCTAssertEqual(late?.splash.events, [.next(50, false)])
            XCTAssertEqual(late?.config.events, [.next(50, defaultConfig)])
            XCTAssertEqual(late?.content.events, [.next(50, "b")])
            XCTAssertEqual(late?.errors.events, [.next(50, .fetchTimedOut)])
        }
    }

    func testLaunch_outputsAreReachableThroughTheProtocols() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, scheduler: scheduler)
            let remoteConfig = makeRemoteConfig(backend, scheduler: scheduler)
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(5), scheduler: scheduler
            ) { _ in .empty() }
            let outputs: any LaunchViewModelOutputs<LaunchConfig, String> = viewModel.outputs
            let res = scheduler.start { outputs.config.map(\.tabTitles) }
            XCTAssertEqual(res.events, [.next(200, "ホーム")])
            _ = viewModel.inputs
            XCTAssertEqual(viewModel.strategy, .fetchAndActivateBeforeShowing)
            XCTAssertEqual(viewModel.timeout, .seconds(5))
        }
    }

    // MARK: Threads
    //
    // `XCTAssertNoLeaksEventually` here: when the fetch wins, the cancelled timeout timer is a
    // `DispatchSource`, and libdispatch releases its handler (holding the timer's sink) a little
    // after the cancellation, on its own schedule. Waiting for it also keeps that late release
    // out of the next test's strict `XCTAssertNoLeaks`.

    func testLaunch_onDispatchSchedulerDeliversConfigAndContent() {
        XCTAssertNoLeaksEventually {
            let queue = DispatchQueue(label: "LaunchViewModelTests.dispatch")
            let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
            let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .milliseconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            remoteConfig.setDefaults(seedDefaults)
            let viewModel = LaunchViewModel<LaunchConfig, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(30), scheduler: scheduler
            ) { config in Observable.just(config.tabTitlesEn, scheduler: scheduler) }
            let splash = LockedState<[Bool]>([])
            let contentArrived = expectation(description: "content")
            let bag = DisposeBag()
            viewModel.outputs.isSplashVisible.subscribe(onNext: { value in splash.withLock { $0.append(value) } }).disposed(by: bag)
            viewModel.outputs.content.subscribe(onNext: { content in
                XCTAssertEqual(content, "home")
                contentArrived.fulfill()
            }).disposed(by: bag)
            wait(for: [contentArrived], timeout: 10)
            viewModel.dispose()
            queue.sync {}
            XCTAssertEqual(splash.withLock { $0 }, [true, false])
        }
    }

    func testLaunch_concurrentLaunchesAndDisposalsKeepTheGrammar() {
        XCTAssertNoLeaksEventually {
            let queue = DispatchQueue(label: "LaunchViewModelTests.stress")
            let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
            let iterations = 64
            let badSplashes = LockedState<[[Bool]]>([])
            let unsettled = LockedState(0)

            DispatchQueue.concurrentPerform(iterations: iterations) { index in
                let backend = InMemoryRemoteConfigBackend(values: freshValues, latency: .milliseconds(index % 3), scheduler: scheduler)
                if index % 5 == 0 { backend.failNextFetches(1, with: .network(message: "offline")) }
                let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
                remoteConfig.setDefaults(seedDefaults)
                let viewModel = LaunchViewModel<LaunchConfig, String>(
                    remoteConfig: remoteConfig,
                    strategy: index.isMultiple(of: 2) ? .fetchAndActivateBeforeShowing : .activateCachedThenFetch,
                    timeout: .milliseconds(index % 4),
                    scheduler: scheduler
                ) { config in Observable.just(config.tabTitlesEn, scheduler: scheduler) }
                let splash = LockedState<[Bool]>([])
                let hidden = DispatchSemaphore(value: 0)
                let subscription = viewModel.outputs.isSplashVisible.subscribe(onNext: { value in
                    splash.withLock { $0.append(value) }
                    if !value { hidden.signal() }
                })
                if index.isMultiple(of: 3) {
                    viewModel.dispose()
                } else if hidden.wait(timeout: .now() + 10) == .timedOut {
                    unsettled.withLock { $0 += 1 }
                }
                viewModel.dispose()
                subscription.dispose()
                // Wait for any backend call still in flight: a fetch joins it (or is served
                // from the last fetch, or makes a new one) and ends when it ends.
                let drained = DispatchSemaphore(value: 0)
                _ = remoteConfig.fetch(withExpirationDuration: 1e9).asObservable().subscribe(
                    onError: { _ in drained.signal() }, onCompleted: { drained.signal() })
                if drained.wait(timeout: .now() + 10) == .timedOut { unsettled.withLock { $0 += 1 } }
                let values = splash.withLock { $0 }
                // A subscriber that comes after the splash is hidden sees only `false`.
                if values != [true], values != [true, false], values != [false] { badSplashes.withLock { $0.append(values) } }
            }
            queue.sync {}

            XCTAssertEqual(unsettled.withLock { $0 }, 0)
            XCTAssertEqual(badSplashes.withLock { $0 }, [])
        }
    }
}

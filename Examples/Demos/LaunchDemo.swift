// Seed 000: get the Remote Config values while the launch image shows, then start the request
// that depends on them -- with a timeout (the seed's splash could stay forever), a fallback to
// the persisted values or the defaults (the seed only printed the error), and both Firebase
// loading strategies. Four launches of the same "app" share one storage, as one device would.
//
// Run: swift run launch-demo (or swift run streams-demo launch)
import Foundation
import ConfigFeatures

/// The seed's config struct: every property is a Remote Config key, with in-app defaults.
struct LaunchDemoConfig: Decodable, CustomStringConvertible {
    let tabTitles: String
    let tabTitlesEn: String
    var description: String { "tabTitles=\(tabTitles) tabTitlesEn=\(tabTitlesEn)" }
}

/// The Remote Config server behind a network that takes `delay` per request.
struct LaunchDemoNetwork: RemoteConfigBackend {
    let server: InMemoryRemoteConfigBackend
    let delay: RxTimeInterval
    let scheduler: SerialDispatchQueueScheduler

    func fetch(_ request: RemoteConfigFetchRequest) -> Observable<RemoteConfigFetchResponse> {
        let server = server
        return Observable<Int>.timer(delay, scheduler: scheduler).flatMap { _ in server.fetch(request) }
    }

    func realtimeInvalidations(lastKnownTemplateVersion: Int?) -> Observable<RemoteConfigInvalidation> {
        server.realtimeInvalidations(lastKnownTemplateVersion: lastKnownTemplateVersion)
    }
}

/// Runs the seed-000 launch demo (four launches, both strategies) and returns when it is done.
public func runLaunchDemo() {
    let queue = DispatchQueue(label: "launch-demo")
    let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
    let server = InMemoryRemoteConfigBackend(values: ["tabTitles": "ホーム", "tabTitlesEn": "home"], scheduler: scheduler)
    let storage = InMemoryRemoteConfigStorage()   // the device's disk: survives each "relaunch"

    /// Starts the app once: a new client over the same storage, a new launch view model.
    func launch(_ title: String, strategy: LaunchStrategy, network delay: RxTimeInterval, timeout: RxTimeInterval) {
        print("\n== \(title)")
        print("   strategy: \(strategy), network: \(milliseconds(delay)) ms, timeout: \(milliseconds(timeout)) ms")
        let timeline = DemoTimeline()
        func log(_ text: String) { timeline.log(text) }
        let remoteConfig = RemoteConfig(
            backend: LaunchDemoNetwork(server: server, delay: delay, scheduler: scheduler),
            settings: RemoteConfigSettings(minimumFetchInterval: 0, fetchTimeout: 10),   // the seed's developer mode
            storage: storage,
            scheduler: scheduler
        )
        remoteConfig.setDefaults(["tabTitles": "メイク", "tabTitlesEn": "make"])
        let viewModel = LaunchViewModel<LaunchDemoConfig, String>(
            remoteConfig: remoteConfig, strategy: strategy, timeout: timeout, scheduler: scheduler
        ) { config in
            log("content request started for \(config.tabTitlesEn)")
            return Observable.just("the \(config.tabTitlesEn) feed").delay(.milliseconds(200), scheduler: scheduler)
        }
        let done = DispatchSemaphore(value: 0)
        let bag = DisposeBag()
        viewModel.outputs.isSplashVisible
            .subscribe(onNext: { visible in log(visible ? "splash shown" : "splash hidden") })
            .disposed(by: bag)
        viewModel.outputs.config
            .subscribe(onNext: { config in log("config: \(config)") })
            .disposed(by: bag)
        viewModel.outputs.error
            .subscribe(onNext: { error in log("error: \(error)") })
            .disposed(by: bag)
        viewModel.outputs.content
            .subscribe(onNext: { content in
                log("content: \(content)")
                // Wait for a fetch still running (a timed-out one, or the background one): a
                // fetch subscribed now joins it, or is served at once from the last fetch.
                remoteConfig.fetch(withExpirationDuration: .greatestFiniteMagnitude)
                    .subscribe(onDisposed: {
                        let snapshot = remoteConfig.snapshot
                        if let fetched = snapshot.fetched, fetched != snapshot.active {
                            log("stored for the next launch, not activated: tabTitlesEn=\(fetched["tabTitlesEn"] ?? "-") (active: \(snapshot.active["tabTitlesEn"] ?? "-"))")
                        }
                        done.signal()
                    })
                    .disposed(by: bag)
            })
            .disposed(by: bag)
        done.wait()
        viewModel.dispose()
        queue.sync {}
    }

    launch("1. First launch, fast network: fetch, activate, show", strategy: .fetchAndActivateBeforeShowing, network: .milliseconds(150), timeout: .seconds(1))

    server.publish(["tabTitles": "セール", "tabTitlesEn": "sale"])
    launch("2. Slow network: the timeout hides the splash with the persisted values", strategy: .fetchAndActivateBeforeShowing, network: .milliseconds(1500), timeout: .milliseconds(500))

    server.publish(["tabTitles": "新着", "tabTitlesEn": "new"])
    launch("3. Next launch, activateCachedThenFetch: what launch 2 stored, at once", strategy: .activateCachedThenFetch, network: .milliseconds(150), timeout: .seconds(1))

    server.failNextFetches(1, with: .network(message: "offline"))
    launch("4. Offline: the failure falls back to what is persisted (launch 3's fetch)", strategy: .fetchAndActivateBeforeShowing, network: .milliseconds(150), timeout: .seconds(1))

    print("\ndone")
}

private func milliseconds(_ interval: RxTimeInterval) -> Int {
    switch interval {
    case .seconds(let value): return value * 1000
    case .milliseconds(let value): return value
    case .microseconds(let value): return value / 1000
    case .nanoseconds(let value): return value / 1_000_000
    default: return -1
    }
}

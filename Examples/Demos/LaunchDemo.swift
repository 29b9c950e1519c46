// Seed 000: get the Remote Config values while the launch image shows, then start the request
// that depends on them -- with a timeout (the seed's splash could stay forever), a fallback to
// the persisted values or the defaults (the seed only printed the error), and both Firebase
// loading strategies. Four launches of the same "app" share one storage, as one device would.
//
// With `--local-server` the same four launches fetch over HTTP from the loopback server; with
// `--remote-config-project` one live launch reads `tabTitles`/`tabTitlesEn` from the project and
// then follows realtime updates (see Guides/Networking.md).
//
// Run: swift run launch-demo (or swift run streams-demo launch)
import Foundation
import ConfigFeatures
import ConfigFeaturesTestServer

/// The seed's config struct: every property is a Remote Config key, with in-app defaults.
struct LaunchDemoConfig: Decodable, CustomStringConvertible {
    let tabTitles: String
    let tabTitlesEn: String
    var description: String { "tabTitles=\(tabTitles) tabTitlesEn=\(tabTitlesEn)" }
}

/// Runs the seed-000 launch demo (four launches, both strategies) on the embedded backend and
/// returns when it is done.
public func runLaunchDemo() {
    runLaunchDemo(backends: .embedded)
}

/// Runs the launch demo for `options` (starting and stopping a loopback server for
/// `--local-server`).
///
/// - Throws: `FirebaseTestServerError` when the loopback server cannot start.
public func runLaunchDemo(options: DemoOptions) throws(FirebaseTestServerError) {
    let backends = try DemoBackends(options: options)
    defer { backends.stop() }
    runLaunchDemo(backends: backends)
}

/// Runs the launch demo on `backends`: the four scripted launches (embedded or loopback
/// server), or one live launch against a real project.
public func runLaunchDemo(backends: DemoBackends) {
    if case .project(let project) = backends.remoteConfig {
        runLiveLaunchDemo(project: project, backends: backends)
        return
    }
    if let note = backends.remoteConfigNote { print(note) }
    let queue = DispatchQueue(label: "launch-demo")
    let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
    let server = backends.scriptedRemoteConfig(values: ["tabTitles": "ホーム", "tabTitlesEn": "home"], latency: .seconds(0), scheduler: scheduler)
    let storage = InMemoryRemoteConfigStorage()  // the device's disk: survives each "relaunch"

    /// Starts the app once: a new client over the same storage, a new launch view model.
    func launch(_ title: String, strategy: LaunchStrategy, network delay: RxTimeInterval, timeout: RxTimeInterval) {
        print("\n== \(title)")
        print("   strategy: \(strategy), network: \(milliseconds(delay)) ms, timeout: \(milliseconds(timeout)) ms")
        let timeline = DemoTimeline()
        func log(_ text: String) { timeline.log(text) }
        let remoteConfig = RemoteConfig(
            backend: DelayedRemoteConfigBackend(base: server.backend, delay: delay, scheduler: scheduler),
            settings: RemoteConfigSettings(minimumFetchInterval: 0, fetchTimeout: 10),  // the seed's developer mode
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
        // The fetch started from the content handler is kept here, not in `bag`: a handler that
        // captured `bag` would keep the bag, and every subscription in it, alive for ever (the
        // outputs replay and never complete). The stream inspector showed that leak.
        let followUp = SerialDisposable()
        bag.insert(followUp)
        viewModel.outputs.isSplashVisible
            .named("launch.isSplashVisible")
            .subscribe(onNext: { visible in log(visible ? "splash shown" : "splash hidden") })
            .disposed(by: bag)
        viewModel.outputs.config
            .named("launch.config")
            .subscribe(onNext: { config in log("config: \(config)") })
            .disposed(by: bag)
        viewModel.outputs.error
            .named("launch.error")
            .subscribe(onNext: { error in log("error: \(error)") })
            .disposed(by: bag)
        viewModel.outputs.content
            .named("launch.content")
            .subscribe(onNext: { content in
                log("content: \(content)")
                // Wait for a fetch still running (a timed-out one, or the background one): a
                // fetch subscribed now joins it, or is served at once from the last fetch.
                followUp.disposable = remoteConfig.fetch(withExpirationDuration: .greatestFiniteMagnitude)
                    .subscribe(onDisposed: {
                        let snapshot = remoteConfig.snapshot
                        if let fetched = snapshot.fetched, fetched != snapshot.active {
                            log(
                                "stored for the next launch, not activated: tabTitlesEn=\(fetched["tabTitlesEn"] ?? "-") (active: \(snapshot.active["tabTitlesEn"] ?? "-"))"
                            )
                        }
                        done.signal()
                    })
            })
            .disposed(by: bag)
        done.wait()
        viewModel.dispose()
        queue.sync {}
    }

    launch("1. First launch, fast network: fetch, activate, show", strategy: .fetchAndActivateBeforeShowing, network: .milliseconds(150), timeout: .seconds(1))

    server.publish(["tabTitles": "セール", "tabTitlesEn": "sale"])
    launch(
        "2. Slow network: the timeout hides the splash with the persisted values", strategy: .fetchAndActivateBeforeShowing, network: .milliseconds(1500),
        timeout: .milliseconds(500))

    server.publish(["tabTitles": "新着", "tabTitlesEn": "new"])
    launch(
        "3. Next launch, activateCachedThenFetch: what launch 2 stored, at once", strategy: .activateCachedThenFetch, network: .milliseconds(150),
        timeout: .seconds(1))

    server.failNextFetchAsOffline()
    launch(
        "4. Offline: the failure falls back to what is persisted (launch 3's fetch)", strategy: .fetchAndActivateBeforeShowing, network: .milliseconds(150),
        timeout: .seconds(1))

    print("\ndone")
}

/// The live launch: one `fetchAndActivateBeforeShowing` launch against the project (10 s
/// timeout), its values, then realtime updates (activated and printed) for the duration.
private func runLiveLaunchDemo(project: DemoOptions.RemoteConfigProject, backends: DemoBackends) {
    let keys = ["tabTitles", "tabTitlesEn"]
    backends.printLiveRemoteConfigHeader(project, keys: keys)
    let live = LiveRemoteConfig(
        label: "launch-demo.live", project: project, backends: backends,
        defaults: ["tabTitles": "メイク", "tabTitlesEn": "make"])
    let scheduler = live.scheduler
    let shown = DispatchSemaphore(value: 0)
    let bag = DisposeBag()
    var viewModel: LaunchViewModel<LaunchDemoConfig, String>?
    live.sync {
        live.log("launch: fetchAndActivateBeforeShowing, timeout 10 s (in-app defaults: tabTitles=メイク tabTitlesEn=make)")
        let model = LaunchViewModel<LaunchDemoConfig, String>(
            remoteConfig: live.remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
        ) { config in
            Observable.just("the \(config.tabTitlesEn) feed").delay(.milliseconds(200), scheduler: scheduler)
        }
        viewModel = model
        model.outputs.isSplashVisible
            .subscribe(onNext: { visible in live.log(visible ? "splash shown" : "splash hidden") })
            .disposed(by: bag)
        model.outputs.config
            .subscribe(onNext: { config in
                live.log("config: \(config)")
                live.logValues(keys)
            })
            .disposed(by: bag)
        model.outputs.error
            .subscribe(onNext: { error in
                if case .fetchFailed(let underlying) = error { live.logFetchFailure(underlying) } else { live.log("error: \(error)") }
            })
            .disposed(by: bag)
        model.outputs.content
            .subscribe(onNext: { content in
                live.log("content: \(content)")
                shown.signal()
            })
            .disposed(by: bag)
    }
    if shown.wait(timeout: .now() + 15) == .timedOut { live.log("no content after 15 s") }
    // The next launch would use what arrives now: activate each update at once and print it.
    let updates = live.followUpdates { _ in
        _ = live.remoteConfig.activate().subscribe(onSuccess: { _ in live.logValues(keys) })
    }
    live.timeline.listen(for: "realtime updates of \(keys.joined(separator: ", "))", until: live.finished)
    updates.dispose()
    live.sync { viewModel?.dispose() }
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

// The seed-002 forced update, live: app version 3.2.1 starts fine (required_version 3.0.0); the
// server then publishes an unrelated change (nothing happens), then a template whose
// per-platform conditions require 3.3.0 on iOS and 3.4.0 on Android (issue 38), together with
// other keys (the seed compared only `updatedKeys.first` and could miss it); the iOS app gets
// 3.3.0 and the
// non-dismissable alert appears once the update is activated; the user taps the store button,
// the store URL opens and the alert is presented again. Everything runs on an in-memory Remote
// Config backend with short real latencies, on one serial dispatch queue. With `--local-server`
// the publications go to the loopback server and reach the app over its realtime HTTP stream;
// with `--remote-config-project` the live variant checks the project's `required_version` and
// `latest_version` and follows their realtime updates (see Guides/Networking.md).
//
// Run: swift run force-update-demo
import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation

/// Runs the seed-002 forced-update demo on the embedded backend and returns when it is done.
public func runForceUpdateDemo() {
    runForceUpdateDemo(backends: .embedded)
}

/// Runs the forced-update demo for `options` (starting and stopping a loopback server for
/// `--local-server`).
///
/// - Throws: `FirebaseTestServerError` when the loopback server cannot start.
public func runForceUpdateDemo(options: DemoOptions) throws(FirebaseTestServerError) {
    let backends = try DemoBackends(options: options)
    defer { backends.stop() }
    runForceUpdateDemo(backends: backends)
}

/// The version of the demo app.
private let forceUpdateDemoAppVersion = "3.2.1"

/// Runs the forced-update demo on `backends`: the scripted storyline (embedded or loopback
/// server), or the live variant against a real project.
public func runForceUpdateDemo(backends: DemoBackends) {
    if case .project(let project) = backends.remoteConfig {
        runLiveForceUpdateDemo(project: project, backends: backends)
        return
    }
    if let note = backends.remoteConfigNote { print(note) }
    let queue = DispatchQueue(label: "force-update-demo")
    let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
    let timeline = DemoTimeline()
    func log(_ line: String) { timeline.log(line) }
    @discardableResult
    func after(_ milliseconds: Int, _ action: @escaping () -> Void) -> Disposable {
        scheduler.scheduleRelative((), dueTime: .milliseconds(milliseconds)) { _ in
            action()
            return Disposables.create()
        }
    }

    let backend = backends.scriptedRemoteConfig(
        values: ["required_version": "3.0.0", "banner": "Welcome!"],
        latency: .milliseconds(120),
        scheduler: scheduler
    )
    let remoteConfig = RemoteConfig(
        backend: backend.backend,
        settings: RemoteConfigSettings(minimumFetchInterval: 3_600, fetchTimeout: 3),
        scheduler: scheduler
    )
    // The app is an iOS app: the embedded backend reads this; over HTTP the backend sends its
    // own app ID (an iOS one).
    remoteConfig.targeting = RemoteConfigTargeting(
        appID: backends.localAppID, appInstanceID: "force-update-demo",
        appInfo: RemoteConfigAppInfo(platform: .apple, appVersion: forceUpdateDemoAppVersion))
    let storeURL = URL(string: "https://apps.apple.com/app/id1234567890")!
    let viewModel = ForceUpdateViewModel(
        remoteConfig: remoteConfig,
        currentVersion: AppVersion(forceUpdateDemoAppVersion)!,
        storeURL: storeURL,
        scheduler: scheduler
    )
    let bag = DisposeBag()
    let done = DispatchSemaphore(value: 0)
    var stopped = false  // only touched on `queue`
    var session: Disposable?
    var updatesLog: Disposable?
    var alertsShown = 0

    viewModel.outputs.isUpdateRequired
        .named("forceUpdate.isUpdateRequired")
        .subscribe(onNext: { required in log("isUpdateRequired = \(required)") })
        .disposed(by: bag)
    viewModel.outputs.error
        .named("forceUpdate.error")
        .subscribe(onNext: { error in log("diagnostic: \(error)") })
        .disposed(by: bag)
    viewModel.outputs.openStoreURL
        .named("forceUpdate.openStoreURL")
        .subscribe(onNext: { url in log("→ opening the store: \(url) (the alert is dismissed by the system)") })
        .disposed(by: bag)
    viewModel.outputs.presentAlert
        .named("forceUpdate.presentAlert")
        .subscribe(onNext: { alert in
            alertsShown += 1
            log(
                "ALERT \(alertsShown == 1 ? "shown" : "shown again"): \"\(alert.title)\" — \(alert.message) "
                    + "[\(alert.isDismissable ? "dismissable" : "not dismissable"), button → \(alert.storeURL)]")
            if alertsShown == 1 {
                after(400) {
                    log("user taps \"Open the store\"")
                    viewModel.inputs.openStoreTapped.onNext(())
                }
            } else {
                after(300) {
                    session?.dispose()
                    updatesLog?.dispose()
                    stopped = true
                    done.signal()
                }
            }
        })
        .disposed(by: bag)

    after(0) {
        log("app 3.2.1 starts; server has required_version = \(backend.values["required_version"] ?? "-")")
        log("startObserving(): fetchAndActivate, then follow configUpdates")
        session = viewModel.startObserving()
        // A second listener on the same realtime connection, only to show what arrives.
        updatesLog = remoteConfig.configUpdates.subscribe(onNext: { update in
            let verdict =
                update.updatedKeys.contains("required_version")
                ? "contains required_version → activate, then check"
                : "no version key → nothing to do"
            log("configUpdates: updatedKeys = \(update.updatedKeys.sorted()) (\(verdict))")
        })
    }
    after(700) {
        log("server publishes banner = \"Spring sale\" (unrelated key)")
        backend.publish(["required_version": "3.0.0", "banner": "Spring sale"])
    }
    after(1_400) {
        log(
            "server publishes required_version = 3.3.0 on iOS, 3.4.0 on Android (conditions device.os), "
                + "latest_version = 3.3.0, banner, whats_new in one update")
        do {
            try backend.publish(templateJSON: forceUpdateDemoPlatformTemplate)
        } catch {
            log("the template was refused: \(error)")
        }
    }
    let timeout = after(5_000) {
        log("timed out")
        done.signal()
    }
    done.wait()
    timeout.dispose()  // a later demo must not see "timed out"
    if queue.sync(execute: { stopped }) {
        // Counted off the queue: on the loopback server the closed stream takes a moment to
        // reach the server.
        log("stopped observing; realtime streams open: \(backend.openRealtimeStreams(settlingAt: 0))")
    }
    queue.sync {}
    print("done")
}

/// The storyline's third publication: `required_version` per platform (Firebase's template
/// JSON, conditions on `device.os`), plus other keys.
let forceUpdateDemoPlatformTemplate = Data(
    #"""
    {"conditions": [{"name": "ios", "expression": "device.os == 'ios'", "tagColor": "BLUE"},
                    {"name": "android", "expression": "device.os == 'android'", "tagColor": "GREEN"}],
     "parameters": {
       "required_version": {"defaultValue": {"value": "3.0.0"},
                            "conditionalValues": {"ios": {"value": "3.3.0"}, "android": {"value": "3.4.0"}}},
       "latest_version": {"defaultValue": {"value": "3.3.0"}},
       "banner": {"defaultValue": {"value": "Please update"}},
       "whats_new": {"defaultValue": {"value": "Dark mode"}}}}
    """#.utf8)

/// The live forced update: the app (version 3.2.1) checks the project's `required_version`
/// and `latest_version`, then follows their realtime updates for the duration.
private func runLiveForceUpdateDemo(project: DemoOptions.RemoteConfigProject, backends: DemoBackends) {
    let keys = ["required_version", "latest_version"]
    backends.printLiveRemoteConfigHeader(project, keys: keys)
    print("The app is version \(forceUpdateDemoAppVersion): a required_version above it forces the update; a latest_version above it offers one.")
    let live = LiveRemoteConfig(label: "force-update-demo.live", project: project, backends: backends, defaults: [:])
    let viewModel = ForceUpdateViewModel(
        remoteConfig: live.remoteConfig,
        currentVersion: AppVersion(forceUpdateDemoAppVersion)!,
        storeURL: URL(string: "https://apps.apple.com/app/id1234567890")!,
        scheduler: live.scheduler
    )
    let bag = DisposeBag()
    var session: Disposable?
    var updatesLog: Disposable?
    live.sync {
        viewModel.outputs.isUpdateRequired
            .subscribe(onNext: { required in
                live.log("isUpdateRequired = \(required)")
                live.logValues(keys)
            })
            .disposed(by: bag)
        viewModel.outputs.error
            .subscribe(onNext: { error in
                if case .fetchFailed(let underlying)? = error as? ForceUpdateError {
                    live.logFetchFailure(underlying)
                } else {
                    live.log("diagnostic: \(error)")
                }
            })
            .disposed(by: bag)
        viewModel.outputs.presentAlert
            .subscribe(onNext: { alert in
                live.log("ALERT: \"\(alert.title)\" — \(alert.message) [\(alert.isDismissable ? "dismissable" : "not dismissable")]")
            })
            .disposed(by: bag)
        live.log("app \(forceUpdateDemoAppVersion) starts: startObserving() (fetchAndActivate, then configUpdates)")
        session = viewModel.startObserving()
        updatesLog = live.followUpdates { update in
            let verdict = update.updatedKeys.isDisjoint(with: keys) ? "no version key → nothing to do" : "a version key → activate, then check"
            live.log("  (\(verdict))")
        }
    }
    live.timeline.listen(for: "realtime updates of \(keys.joined(separator: ", "))", until: live.finished)
    live.sync {
        session?.dispose()
        updatesLog?.dispose()
    }
    live.log("stopped observing")
    print("\ndone")
}

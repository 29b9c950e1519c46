// The seed-002 forced update, live: app version 3.2.1 starts fine (required_version 3.0.0); the
// server then publishes an unrelated change (nothing happens), then required_version 3.3.0
// together with other keys (the seed compared only `updatedKeys.first` and could miss it); the
// non-dismissable alert appears once the update is activated; the user taps the store button,
// the store URL opens and the alert is presented again. Everything runs on an in-memory Remote
// Config backend with short real latencies, on one serial dispatch queue.
//
// Run: swift run force-update-demo
import ConfigFeatures
import Foundation

/// Runs the seed-002 forced-update demo and returns when it is done.
public func runForceUpdateDemo() {
    let queue = DispatchQueue(label: "force-update-demo")
    let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
    let timeline = DemoTimeline()
    func log(_ line: String) { timeline.log(line) }
    func after(_ milliseconds: Int, _ action: @escaping () -> Void) {
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(milliseconds)) { _ in
            action()
            return Disposables.create()
        }
    }

    let backend = InMemoryRemoteConfigBackend(
        values: ["required_version": "3.0.0", "banner": "Welcome!"],
        latency: .milliseconds(120),
        scheduler: scheduler
    )
    let remoteConfig = RemoteConfig(
        backend: backend,
        settings: RemoteConfigSettings(minimumFetchInterval: 3_600, fetchTimeout: 3),
        scheduler: scheduler
    )
    let storeURL = URL(string: "https://apps.apple.com/app/id1234567890")!
    let viewModel = ForceUpdateViewModel(
        remoteConfig: remoteConfig,
        currentVersion: AppVersion("3.2.1")!,
        storeURL: storeURL,
        scheduler: scheduler
    )
    let bag = DisposeBag()
    let done = DispatchSemaphore(value: 0)
    var session: Disposable?
    var updatesLog: Disposable?
    var alertsShown = 0

    viewModel.outputs.isUpdateRequired
        .subscribe(onNext: { required in log("isUpdateRequired = \(required)") })
        .disposed(by: bag)
    viewModel.outputs.error
        .subscribe(onNext: { error in log("diagnostic: \(error)") })
        .disposed(by: bag)
    viewModel.outputs.openStoreURL
        .subscribe(onNext: { url in log("→ opening the store: \(url) (the alert is dismissed by the system)") })
        .disposed(by: bag)
    viewModel.outputs.presentAlert
        .subscribe(onNext: { alert in
            alertsShown += 1
            log("ALERT \(alertsShown == 1 ? "shown" : "shown again"): \"\(alert.title)\" — \(alert.message) "
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
                    log("stopped observing; realtime streams open: \(backend.activeRealtimeStreamCount)")
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
            let verdict = update.updatedKeys.contains("required_version")
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
        log("server publishes required_version = 3.3.0, latest_version = 3.3.0, banner, whats_new in one update")
        backend.publish([
            "required_version": "3.3.0",
            "latest_version": "3.3.0",
            "banner": "Please update",
            "whats_new": "Dark mode",
        ])
    }
    after(5_000) {
        log("timed out")
        done.signal()
    }
    done.wait()
    queue.sync {}
    print("done")
}

// Seed 001 on the real Remote Config client: `ItemListViewModel` fetches, activates and only
// then reads the JSON array in `item_json` (the seed read it once at init and showed stale
// data). A refresh while loading is refused with `.notEnabled`; bad JSON and bad elements are
// typed errors and the list keeps its last good items (the seed silently showed an empty list).
// Finally the server publishes a template whose `vip` condition targets the custom signal
// `tier = gold` (issue 38): the same refresh shows the targeted list once the app sends it.
//
// With `--local-server` the server side is the loopback server (each publication a template);
// with `--remote-config-project` the live variant refreshes from the project's `item_json` and
// again after every realtime update of it (see Guides/Networking.md).
//
// Run: swift run item-list-demo (or swift run streams-demo item-list)
import Foundation
import ConfigFeatures
import ConfigFeaturesTestServer

/// One list item, decoded from the JSON array.
struct ItemListDemoItem: Decodable, CustomStringConvertible {
    let id: Int
    let title: String
    var description: String { "#\(id) \(title)" }
}

/// Runs the seed-001 item list demo on the embedded backend and returns when it is done.
public func runItemListDemo() {
    runItemListDemo(backends: .embedded)
}

/// Runs the item list demo for `options` (starting and stopping a loopback server for
/// `--local-server`).
///
/// - Throws: `FirebaseTestServerError` when the loopback server cannot start.
public func runItemListDemo(options: DemoOptions) throws(FirebaseTestServerError) {
    let backends = try DemoBackends(options: options)
    defer { backends.stop() }
    runItemListDemo(backends: backends)
}

/// Runs the item list demo on `backends`: the scripted storyline (embedded or loopback server),
/// or the live variant against a real project.
public func runItemListDemo(backends: DemoBackends) {
    if case .project(let project) = backends.remoteConfig {
        runLiveItemListDemo(project: project, backends: backends)
        return
    }
    if let note = backends.remoteConfigNote { print(note) }
    let queue = DispatchQueue(label: "item-list-demo")
    let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
    let key = "item_json"
    let server = backends.scriptedRemoteConfig(
        values: [key: #"[{"id": 1, "title": "Lipstick"}, {"id": 2, "title": "Mascara"}]"#],
        latency: .milliseconds(300),
        scheduler: scheduler
    )
    let remoteConfig = RemoteConfig(backend: server.backend, scheduler: scheduler)
    // Every refresh asks the server here; the default (180 s, as in the seed) would serve a
    // refresh within 3 minutes of the last fetch from that fetch.
    let viewModel = ItemListViewModel<ItemListDemoItem>(remoteConfig: remoteConfig, itemsKey: key, expirationDuration: 0, scheduler: scheduler)

    let timeline = DemoTimeline()
    func log(_ text: String) { timeline.log(text) }

    let bag = DisposeBag()
    var shown: [ItemListDemoItem] = []  // what the table shows; only touched on `queue`
    viewModel.outputs.isLoading
        .named("itemList.isLoading")
        .subscribe(onNext: { loading in log(loading ? "isLoading: true  (HUD shown)" : "isLoading: false (HUD hidden)") })
        .disposed(by: bag)
    viewModel.outputs.items
        .named("itemList.items")
        .subscribe(onNext: { items in
            shown = items
            log("items: \(items)")
        })
        .disposed(by: bag)
    viewModel.outputs.error
        .named("itemList.error")
        .subscribe(onNext: { error in
            log("error: \(error)")
            if case .underlyingError = error { log("       the list keeps its last good items: \(shown)") }
        })
        .disposed(by: bag)

    let done = DispatchSemaphore(value: 0)
    func at(_ milliseconds: Int, _ step: @escaping () -> Void) {
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(milliseconds)) { _ in
            step()
            return Disposables.create()
        }
    }
    func refresh(_ note: String = "") {
        log("→ refresh\(note)")
        viewModel.inputs.fetchTrigger.onNext(())
    }
    func publish(_ json: String, _ what: String) {
        log("server publishes \(what)")
        server.publish([key: json])
    }

    at(100) { refresh() }
    at(200) { refresh(" again while loading (refused with .notEnabled)") }
    at(600) { publish(#"[{"id": 1, "title": "Lipstick"}, {"id": 2, "title": "Mascara"}, {"id": 3, "title": "Blush"}]"#, "three items") }
    at(700) { refresh() }
    at(1200) { publish(#"[{"id": 1, "title": "Lipstick"}"#, "broken JSON") }
    at(1300) { refresh() }
    at(1800) { publish(#"[{"id": 1, "title": "Lipstick"}, {"id": 2}]"#, "an element without a title") }
    at(1900) { refresh() }
    at(2400) { publish(#"[{"id": 4, "title": "Primer"}]"#, "a fixed list") }
    at(2500) { refresh() }
    at(3000) {
        log("server publishes a template: item_json for app.customSignal['tier'] == gold (condition vip), else the fixed list")
        do {
            try server.publish(templateJSON: itemListDemoTargetedTemplate)
        } catch {
            log("the template was refused: \(error)")
        }
    }
    at(3100) { refresh(" (no custom signal: the default list)") }
    at(3600) {
        log("the app sets customSignals = [tier: gold]")
        remoteConfig.customSignals = ["tier": "gold"]
        refresh()
    }
    at(4100) {
        log("done")
        done.signal()
    }
    done.wait()
    queue.sync {}
}

/// The template of the storyline's last step: a list for gold-tier users (custom signal
/// `tier`), the fixed list for everyone else.
let itemListDemoTargetedTemplate = Data(
    #"""
    {"conditions": [{"name": "vip", "expression": "app.customSignal['tier'].exactlyMatches(['gold'])"}],
     "parameters": {"item_json": {
       "defaultValue": {"value": "[{\"id\": 4, \"title\": \"Primer\"}]"},
       "conditionalValues": {"vip": {"value": "[{\"id\": 5, \"title\": \"Gold palette\"}, {\"id\": 6, \"title\": \"Silk brush\"}]"}}}}}
    """#.utf8)

/// The live item list: one refresh from the project's `item_json`, then a refresh after every
/// realtime update of that key, for the duration.
private func runLiveItemListDemo(project: DemoOptions.RemoteConfigProject, backends: DemoBackends) {
    let key = "item_json"
    backends.printLiveRemoteConfigHeader(project, keys: [key])
    print("\(key) should hold a JSON array of {\"id\": Int, \"title\": String}; without it the list is empty.")
    let live = LiveRemoteConfig(label: "item-list-demo.live", project: project, backends: backends, defaults: [key: "[]"])
    let viewModel = ItemListViewModel<ItemListDemoItem>(remoteConfig: live.remoteConfig, itemsKey: key, expirationDuration: 0, scheduler: live.scheduler)
    let bag = DisposeBag()
    let loaded = DispatchSemaphore(value: 0)
    var refreshes = 0  // only touched on the queue
    live.sync {
        viewModel.outputs.isLoading
            .subscribe(onNext: { loading in
                live.log(loading ? "isLoading: true" : "isLoading: false")
                if !loading, refreshes > 0 { loaded.signal() }
            })
            .disposed(by: bag)
        viewModel.outputs.items
            .subscribe(onNext: { items in
                live.log("items: \(items)")
                live.logValues([key])
            })
            .disposed(by: bag)
        viewModel.outputs.error
            .subscribe(onNext: { error in
                if case .underlyingError(let underlying) = error, underlying is RemoteConfigError {
                    live.logFetchFailure(underlying)
                } else {
                    live.log("error: \(error)")
                }
            })
            .disposed(by: bag)
        live.log("→ refresh")
        refreshes += 1
        viewModel.inputs.fetchTrigger.onNext(())
    }
    if loaded.wait(timeout: .now() + 25) == .timedOut { live.log("the first refresh did not finish within 25 s") }
    let updates = live.followUpdates { update in
        guard update.updatedKeys.contains(key) else { return }
        live.log("→ refresh (\(key) changed)")
        refreshes += 1
        viewModel.inputs.fetchTrigger.onNext(())
    }
    live.timeline.listen(for: "realtime updates of \(key)", until: live.finished)
    updates.dispose()
    live.sync {}
    print("\ndone")
}

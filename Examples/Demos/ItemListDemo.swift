// Seed 001 on the real Remote Config client: `ItemListViewModel` fetches, activates and only
// then reads the JSON array in `item_json` (the seed read it once at init and showed stale
// data). A refresh while loading is refused with `.notEnabled`; bad JSON and bad elements are
// typed errors and the list keeps its last good items (the seed silently showed an empty list).
//
// Run: swift run item-list-demo (or swift run streams-demo item-list)
import Foundation
import ConfigFeatures

/// One list item, decoded from the JSON array.
struct ItemListDemoItem: Decodable, CustomStringConvertible {
    let id: Int
    let title: String
    var description: String { "#\(id) \(title)" }
}

/// Runs the seed-001 item list demo and returns when it is done.
public func runItemListDemo() {
    let queue = DispatchQueue(label: "item-list-demo")
    let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
    let key = "item_json"
    let server = InMemoryRemoteConfigBackend(
        values: [key: #"[{"id": 1, "title": "Lipstick"}, {"id": 2, "title": "Mascara"}]"#],
        latency: .milliseconds(300),
        scheduler: scheduler
    )
    let remoteConfig = RemoteConfig(backend: server, scheduler: scheduler)
    // Every refresh asks the server here; the default (180 s, as in the seed) would serve a
    // refresh within 3 minutes of the last fetch from that fetch.
    let viewModel = ItemListViewModel<ItemListDemoItem>(remoteConfig: remoteConfig, itemsKey: key, expirationDuration: 0, scheduler: scheduler)

    let timeline = DemoTimeline()
    func log(_ text: String) { timeline.log(text) }

    let bag = DisposeBag()
    var shown: [ItemListDemoItem] = []   // what the table shows; only touched on `queue`
    viewModel.outputs.isLoading
        .subscribe(onNext: { loading in log(loading ? "isLoading: true  (HUD shown)" : "isLoading: false (HUD hidden)") })
        .disposed(by: bag)
    viewModel.outputs.items
        .subscribe(onNext: { items in
            shown = items
            log("items: \(items)")
        })
        .disposed(by: bag)
    viewModel.outputs.error
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
        log("done")
        done.signal()
    }
    done.wait()
    queue.sync {}
}

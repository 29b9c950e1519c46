// Fuzzes the item-list decoding of `ItemListViewModel` (public): the bytes are the Remote
// Config value under the view model's key (served by an `InMemoryRemoteConfigBackend`), and a
// fetch trigger makes the view model fetch, activate and decode it as a JSON array of items,
// on a `TestScheduler`.
//
// Input: the config value (as UTF-8 text, the way Remote Config values travel).
// Check: the fetch ends with either a list of items or an error, never neither.
import ConfigFeatures
import FuzzSupport
import StreamsTest

/// An item with the usual field kinds: required, optional, nested, arrays.
struct Item: Decodable, Equatable {
    struct Price: Decodable, Equatable {
        let amount: Double
        let currency: String
    }
    let id: Int
    let title: String
    let price: Price?
    let tags: [String]?
    let enabled: Bool?
}

let key = "item_json"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let value = FuzzInput(data, size).text
    let scheduler = TestScheduler(initialClock: 0)
    let backend = InMemoryRemoteConfigBackend(values: [key: value], scheduler: scheduler)
    let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
    let viewModel = ItemListViewModel<Item>(remoteConfig: remoteConfig, itemsKey: key, scheduler: scheduler)
    let items = scheduler.createObserver([Item].self)
    let errors = scheduler.createObserver(String.self)
    let bag = DisposeBag()
    viewModel.outputs.items.subscribe(items).disposed(by: bag)
    viewModel.outputs.error.map { "\($0)" }.subscribe(errors).disposed(by: bag)
    _ = scheduler.scheduleAt(10) { viewModel.inputs.fetchTrigger.onNext(()) }
    scheduler.start()
    let lists = items.events.count - 1  // the initial [] is replayed at subscription
    require(lists + errors.events.count == 1, "fetch ended with \(lists) lists and \(errors.events.count) errors")
    return 0
}

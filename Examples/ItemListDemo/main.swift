// The seed-001 item list, ported from RxSwift by changing the import: an Action fetches the
// config, `items` are parsed from a JSON config value *after* each fetch (the seed read it once
// at init and showed stale data), `isLoading` follows the Action, and errors arrive as
// `ActionError`. A `FakeConfig` stands in for Firebase Remote Config until ConfigFeatures lands.
//
// Run: swift run item-list-demo
import Foundation
import Streams

struct Item: Decodable, Equatable, CustomStringConvertible {
    let id: Int
    let title: String
    var description: String { "#\(id) \(title)" }
}

/// A stand-in for Remote Config: `fetch()` "downloads" the next JSON after a delay.
final class FakeConfig: @unchecked Sendable {
    // Safety: `responses` is only touched by actions on the serial `scheduler`.
    let itemsJSON = BehaviorRelay<String>(value: "[]")
    private let scheduler: SchedulerType
    private var responses: [Result<String, Error>]

    init(scheduler: SchedulerType, responses: [Result<String, Error>]) {
        self.scheduler = scheduler
        self.responses = responses
    }

    func fetch() -> Observable<Void> {
        Observable<Void>.create { [self] observer in
            scheduler.scheduleRelative((), dueTime: .milliseconds(100)) { _ in
                let next = self.responses.isEmpty ? .success(self.itemsJSON.value) : self.responses.removeFirst()
                switch next {
                case .success(let json):
                    self.itemsJSON.accept(json)
                    observer.onNext(())
                    observer.onCompleted()
                case .failure(let error):
                    observer.onError(error)
                }
                return Disposables.create()
            }
        }
    }
}

enum ItemListError: Error { case invalidJSON(String) }

protocol ItemListViewModelInputs {
    var fetchTrigger: PublishSubject<Void> { get }
}

protocol ItemListViewModelOutputs {
    var items: Observable<[Item]> { get }
    var isLoading: Observable<Bool> { get }
    var error: Observable<ActionError> { get }
}

final class ItemListViewModel: ItemListViewModelInputs, ItemListViewModelOutputs {
    var inputs: ItemListViewModelInputs { self }
    var outputs: ItemListViewModelOutputs { self }

    let fetchTrigger = PublishSubject<Void>()
    let items: Observable<[Item]>
    let isLoading: Observable<Bool>
    let error: Observable<ActionError>

    private let fetchAction: Action<Void, [Item]>
    private let disposeBag = DisposeBag()

    init(config: FakeConfig) {
        fetchAction = Action { _ in
            config.fetch()
                .withLatestFrom(config.itemsJSON)   // read the JSON after the fetch, not at init
                .map { json -> [Item] in
                    guard let data = json.data(using: .utf8),
                          let items = try? JSONDecoder().decode([Item].self, from: data) else {
                        throw ItemListError.invalidJSON(json)
                    }
                    return items
                }
        }
        let latestItems = BehaviorRelay<[Item]>(value: [])
        fetchAction.elements.bind(to: latestItems).disposed(by: disposeBag)
        items = latestItems.asObservable()
        isLoading = fetchAction.executing
        error = fetchAction.errors
        fetchTrigger.bind(to: fetchAction.inputs).disposed(by: disposeBag)
    }
}

struct Offline: Error {}

let queue = DispatchQueue(label: "demo")
let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
let config = FakeConfig(scheduler: scheduler, responses: [
    .success(#"[{"id": 1, "title": "Lipstick"}, {"id": 2, "title": "Mascara"}]"#),
    .failure(Offline()),
    .success(#"[{"id": 1, "title": "Lipstick"}, {"id": 2, "title": "Mascara"}, {"id": 3, "title": "Blush"}]"#),
    .success(#"{"not": "a list"}"#),
])
let viewModel = ItemListViewModel(config: config)
let bag = DisposeBag()
let done = DispatchSemaphore(value: 0)

viewModel.outputs.isLoading
    .subscribe(onNext: { print($0 ? "⏳ loading…" : "✓ idle") })
    .disposed(by: bag)
viewModel.outputs.items
    .subscribe(onNext: { print("items:", $0) })
    .disposed(by: bag)
viewModel.outputs.error
    .subscribe(onNext: { print("error:", $0.localizedDescription) })
    .disposed(by: bag)

// Press "refresh" four times, once per fake response, and once more while a fetch is running.
var presses = 0
let presser = Observable<Int>.interval(.milliseconds(250), scheduler: scheduler)
    .take(4)
    .subscribe(onNext: { _ in
        presses += 1
        print("→ refresh #\(presses)")
        viewModel.inputs.fetchTrigger.onNext(())
        if presses == 1 {
            print("→ refresh again while loading (refused with .notEnabled)")
            viewModel.inputs.fetchTrigger.onNext(())
        }
    }, onCompleted: {
        queue.asyncAfter(deadline: .now() + .milliseconds(300)) { done.signal() }
    })
done.wait()
presser.dispose()
print("done")

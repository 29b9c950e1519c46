import Foundation
import XCTest
import ConfigFeatures
import Streams
import StreamsTest

private struct Product: Decodable, Equatable {
    let id: Int
    let title: String
}

/// `ActionError` made comparable, for exact timelines.
private enum Failure: Equatable {
    case notEnabled
    case list(ItemListError)
    case config(RemoteConfigError)
    case other(String)

    init(_ error: ActionError) {
        switch error {
        case .notEnabled: self = .notEnabled
        case .underlyingError(let error as ItemListError): self = .list(error)
        case .underlyingError(let error as RemoteConfigError): self = .config(error)
        case .underlyingError(let error): self = .other("\(error)")
        }
    }
}

private let key = "item_json"
private let twoProducts = #"[{"id": 1, "title": "Lipstick"}, {"id": 2, "title": "Mascara"}]"#
private let threeProducts = #"[{"id": 1, "title": "Lipstick"}, {"id": 2, "title": "Mascara"}, {"id": 3, "title": "Blush"}]"#
private let two = [Product(id: 1, title: "Lipstick"), Product(id: 2, title: "Mascara")]
private let three = two + [Product(id: 3, title: "Blush")]

private struct ItemListRecording {
    let items: TestableObserver<[Product]>
    let isLoading: TestableObserver<Bool>
    let errors: TestableObserver<Failure>
}

private func recordItemList(_ viewModel: ItemListViewModel<Product>, on scheduler: TestScheduler, bag: DisposeBag) -> ItemListRecording {
    let recording = ItemListRecording(
        items: scheduler.createObserver([Product].self),
        isLoading: scheduler.createObserver(Bool.self),
        errors: scheduler.createObserver(Failure.self)
    )
    viewModel.outputs.items.subscribe(recording.items).disposed(by: bag)
    viewModel.outputs.isLoading.subscribe(recording.isLoading).disposed(by: bag)
    viewModel.outputs.error.map(Failure.init).subscribe(recording.errors).disposed(by: bag)
    return recording
}

private func trigger(_ viewModel: ItemListViewModel<Product>, at times: [TestTime], on scheduler: TestScheduler) {
    for time in times {
        scheduler.scheduleAt(time) { viewModel.inputs.fetchTrigger.onNext(()) }
    }
}

final class ItemListViewModelTests: XCTestCase {
    func testItemList_loadsItemsAfterTriggerWithExactLoadingTimeline() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: twoProducts], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, scheduler: scheduler)
            let bag = DisposeBag()
            let res = recordItemList(viewModel, on: scheduler, bag: bag)
            trigger(viewModel, at: [10], on: scheduler)

            scheduler.start()

            // Fetch at 10, backend answers at 15, RemoteConfig delivers at 16, the view model at 17.
            XCTAssertEqual(res.items.events, [.next(0, []), .next(17, two)])
            XCTAssertEqual(res.isLoading.events, [.next(0, false), .next(10, true), .next(18, false)])
            XCTAssertEqual(res.errors.events, [])
            XCTAssertEqual(backend.fetchCount, 1)
            XCTAssertEqual(remoteConfig[key].source, .remote, "activated")
        }
    }

    func testItemList_nothingIsFetchedWithoutTrigger() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: twoProducts], scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, scheduler: scheduler)
            let res = scheduler.start { viewModel.outputs.isLoading }
            XCTAssertEqual(res.events, [.next(200, false)])
            XCTAssertEqual(backend.fetchCount, 0)
            XCTAssertEqual(viewModel.itemsKey, key)
            XCTAssertEqual(viewModel.expirationDuration, 180)
        }
    }

    /// The seed read the JSON once at init (`withLatestFrom(Observable.of(itemJson.stringValue))`)
    /// and so kept showing what was active before the fetch.
    func testItemList_readsTheValueAfterActivationNotAtInit_seedRegression() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: threeProducts], latency: .seconds(5), scheduler: scheduler)
            // The previous session left `twoProducts` active; the server now has three.
            let storage = InMemoryRemoteConfigStorage(snapshot: RemoteConfigSnapshot(fetched: [key: twoProducts], active: [key: twoProducts]))
            let remoteConfig = RemoteConfig(backend: backend, storage: storage, scheduler: scheduler)
            remoteConfig.setDefaults([key: "[]"])
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, scheduler: scheduler)
            let bag = DisposeBag()
            let res = recordItemList(viewModel, on: scheduler, bag: bag)
            trigger(viewModel, at: [10], on: scheduler)

            scheduler.start()

            XCTAssertEqual(res.items.events, [.next(0, []), .next(17, three)], "the seed would have shown the two stale items")
            XCTAssertEqual(res.errors.events, [])
        }
    }

    func testItemList_laterPublishIsShownAfterTheExpiration() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: twoProducts], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, scheduler: scheduler)
            let bag = DisposeBag()
            let res = recordItemList(viewModel, on: scheduler, bag: bag)
            scheduler.scheduleAt(20) { backend.publish([key: threeProducts]) }
            // 15 + 180 = 195: before it the last fetch is served again (no backend call).
            trigger(viewModel, at: [10, 100, 195], on: scheduler)

            scheduler.start()

            XCTAssertEqual(res.items.events, [.next(0, []), .next(17, two), .next(102, two), .next(202, three)])
            XCTAssertEqual(
                res.isLoading.events,
                [
                    .next(0, false), .next(10, true), .next(18, false),
                    .next(100, true), .next(103, false),
                    .next(195, true), .next(203, false),
                ])
            XCTAssertEqual(backend.fetchCount, 2)
        }
    }

    func testItemList_expirationDurationIsConfigurable() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: twoProducts], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, expirationDuration: 0, scheduler: scheduler)
            let bag = DisposeBag()
            let res = recordItemList(viewModel, on: scheduler, bag: bag)
            scheduler.scheduleAt(20) { backend.publish([key: threeProducts]) }
            trigger(viewModel, at: [10, 30], on: scheduler)

            scheduler.start()

            XCTAssertEqual(res.items.events, [.next(0, []), .next(17, two), .next(37, three)])
            XCTAssertEqual(backend.fetchCount, 2)
        }
    }

    func testItemList_triggerWhileLoadingIsRefusedWithNotEnabled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: twoProducts], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, scheduler: scheduler)
            let bag = DisposeBag()
            let res = recordItemList(viewModel, on: scheduler, bag: bag)
            trigger(viewModel, at: [10, 12, 17, 18, 19], on: scheduler)

            scheduler.start()

            // 12, 17 and 18 come while the first fetch runs (its items arrive at 17, and loading
            // ends at 18, one observe(on:) step later, after the trigger, which was scheduled
            // first); 19 starts a new one, served from the last fetch.
            XCTAssertEqual(res.errors.events, [.next(12, .notEnabled), .next(17, .notEnabled), .next(18, .notEnabled)])
            XCTAssertEqual(res.isLoading.events, [.next(0, false), .next(10, true), .next(18, false), .next(19, true), .next(22, false)])
            XCTAssertEqual(res.items.events, [.next(0, []), .next(17, two), .next(21, two)])
            XCTAssertEqual(backend.fetchCount, 1)
        }
    }

    // MARK: Bad values

    func testItemList_invalidJSONIsAnErrorAndKeepsTheLastItems() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: twoProducts], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, expirationDuration: 0, scheduler: scheduler)
            let bag = DisposeBag()
            let res = recordItemList(viewModel, on: scheduler, bag: bag)
            scheduler.scheduleAt(20) { backend.publish([key: #"[{"id": 1, "title": "Lipstick"}"#]) }
            trigger(viewModel, at: [10, 30], on: scheduler)

            scheduler.start()

            XCTAssertEqual(res.items.events, [.next(0, []), .next(17, two)])
            XCTAssertEqual(res.errors.events, [.next(37, .list(.invalidJSON(key: key, reason: #"unexpected end of data, expected "," or "]""#)))])
            XCTAssertEqual(res.isLoading.events, [.next(0, false), .next(10, true), .next(18, false), .next(30, true), .next(37, false)])
        }
    }

    func testItemList_jsonThatIsNotAnArrayIsAnError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: #"{"not": "a list"}"#], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, scheduler: scheduler)
            let bag = DisposeBag()
            let res = recordItemList(viewModel, on: scheduler, bag: bag)
            trigger(viewModel, at: [10], on: scheduler)

            scheduler.start()

            XCTAssertEqual(res.items.events, [.next(0, [])])
            XCTAssertEqual(res.errors.events, [.next(17, .list(.notAnArray(key: key, found: #"{"not":"a list"}"#)))])
        }
    }

    func testItemList_missingKeyIsAnError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["other": "1"], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, scheduler: scheduler)
            let bag = DisposeBag()
            let res = recordItemList(viewModel, on: scheduler, bag: bag)
            trigger(viewModel, at: [10], on: scheduler)

            scheduler.start()

            XCTAssertEqual(res.items.events, [.next(0, [])])
            XCTAssertEqual(res.errors.events, [.next(17, .list(.missingKey(key)))])
            XCTAssertEqual(res.isLoading.events, [.next(0, false), .next(10, true), .next(17, false)])
        }
    }

    func testItemList_keyOnlyInTheDefaultsIsRead() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["other": "1"], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            remoteConfig.setDefaults([key: twoProducts])
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, scheduler: scheduler)
            let bag = DisposeBag()
            let res = recordItemList(viewModel, on: scheduler, bag: bag)
            trigger(viewModel, at: [10], on: scheduler)

            scheduler.start()

            XCTAssertEqual(res.items.events, [.next(0, []), .next(17, two)])
            XCTAssertEqual(res.errors.events, [])
        }
    }

    func testItemList_badElementFailsTheWholeListNamingTheIndex() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: twoProducts], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, expirationDuration: 0, scheduler: scheduler)
            let bag = DisposeBag()
            let res = recordItemList(viewModel, on: scheduler, bag: bag)
            scheduler.scheduleAt(20) {
                backend.publish([key: #"[{"id": 1, "title": "Lipstick"}, {"id": "two", "title": "Mascara"}, {"id": 3}]"#])
            }
            trigger(viewModel, at: [10, 30], on: scheduler)

            scheduler.start()

            XCTAssertEqual(res.items.events, [.next(0, []), .next(17, two)], "no partial list")
            XCTAssertEqual(
                res.errors.events,
                [.next(37, .list(.invalidElement(key: key, index: 1, reason: "id: expected Int: Expected to decode Int but found a string instead.")))])
        }
    }

    func testItemList_fetchFailureIsAnErrorAndKeepsTheLastItems() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: twoProducts], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, expirationDuration: 0, scheduler: scheduler)
            let bag = DisposeBag()
            let res = recordItemList(viewModel, on: scheduler, bag: bag)
            scheduler.scheduleAt(20) { backend.failNextFetches(1, with: .network(message: "offline")) }
            trigger(viewModel, at: [10, 30, 50], on: scheduler)

            scheduler.start()

            XCTAssertEqual(res.items.events, [.next(0, []), .next(17, two), .next(57, two)])
            XCTAssertEqual(res.errors.events, [.next(37, .config(.backend(.network(message: "offline"))))])
            XCTAssertEqual(
                res.isLoading.events,
                [
                    .next(0, false), .next(10, true), .next(18, false),
                    .next(30, true), .next(37, false),
                    .next(50, true), .next(58, false),
                ])
        }
    }

    // MARK: Outputs and lifetime

    func testItemList_lateSubscriberSeesTheCurrentItems() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: twoProducts], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, scheduler: scheduler)
            trigger(viewModel, at: [10], on: scheduler)
            let items = scheduler.start { viewModel.outputs.items }
            XCTAssertEqual(items.events, [.next(200, two)])
        }
    }

    func testItemList_releasedViewModelFreesEverything() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: [key: twoProducts], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            var viewModel: ItemListViewModel<Product>? = ItemListViewModel(remoteConfig: remoteConfig, itemsKey: key, scheduler: scheduler)
            weak let released = viewModel
            let items = scheduler.createObserver([Product].self)
            let subscription = viewModel?.outputs.items.subscribe(items)
            scheduler.scheduleAt(10) { viewModel?.inputs.fetchTrigger.onNext(()) }
            scheduler.scheduleAt(12) { viewModel = nil }

            scheduler.start()

            XCTAssertNil(released)
            XCTAssertEqual(items.events, [.next(0, [])], "a running fetch is dropped with the view model")
            subscription?.dispose()
        }
    }

    func testItemList_triggersFromAnotherThreadAreAllAccountedFor() {
        XCTAssertNoLeaksEventually {
            let queue = DispatchQueue(label: "ItemListViewModelTests.scheduler")
            let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
            let backend = InMemoryRemoteConfigBackend(values: [key: twoProducts], latency: .milliseconds(1), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: key, expirationDuration: 0, scheduler: scheduler)
            let tally = LockedState((loads: 0, refused: 0, failures: 0, loading: [Bool]()))
            let bag = DisposeBag()
            viewModel.outputs.items.skip(1).subscribe(onNext: { items in
                XCTAssertEqual(items, two)
                tally.withLock { $0.loads += 1 }
            }).disposed(by: bag)
            viewModel.outputs.error.subscribe(onNext: { error in
                tally.withLock { if case .notEnabled = error { $0.refused += 1 } else { $0.failures += 1 } }
            }).disposed(by: bag)
            viewModel.outputs.isLoading.subscribe(onNext: { value in tally.withLock { $0.loading.append(value) } }).disposed(by: bag)
            let triggers = 300
            let thread = DispatchQueue(label: "ItemListViewModelTests.triggers")
            thread.sync {
                for index in 0..<triggers {
                    if index.isMultiple(of: 50) { backend.publish([key: twoProducts]) }
                    viewModel.inputs.fetchTrigger.onNext(())
                }
            }
            // Wait for the last fetch: a fetch joins the one in flight, if any.
            let drained = DispatchSemaphore(value: 0)
            _ = remoteConfig.fetch(withExpirationDuration: 1e9).asObservable().subscribe(onError: { _ in drained.signal() }, onCompleted: { drained.signal() })
            XCTAssertEqual(drained.wait(timeout: .now() + 30), .success)
            queue.sync {}
            queue.sync {}

            let result = tally.withLock { $0 }
            XCTAssertEqual(result.loads + result.refused + result.failures, triggers)
            XCTAssertEqual(result.failures, 0)
            XCTAssertGreaterThan(result.loads, 0)
            XCTAssertEqual(result.loading.first, false)
            XCTAssertEqual(result.loading.last, false)
            XCTAssertEqual(result.loading.count, 1 + 2 * result.loads, "one true/false pair per fetch")
            // Not asserted: strict alternation. With triggers on another thread than the one a
            // fetch ends on, `Action` may publish the next fetch's `true` before the previous
            // one's `false` (it publishes `executing` outside its lock). Triggers sent on
            // `scheduler`'s thread (the UI thread) always alternate.
            XCTAssertEqual(result.loading.filter { $0 }.count, result.loads)
        }
    }
}

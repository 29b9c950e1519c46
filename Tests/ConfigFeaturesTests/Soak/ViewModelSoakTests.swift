import Foundation
import XCTest
import ConfigFeatures
import Streams
import StreamsTest

/// Each seed feature's storyline, run 1,000 times on a fresh `TestScheduler`: every run must
/// give the same transcript (events with their virtual times) and leave no live resources
/// (issue 17, soak test). A leak of one sink per run, or a timeline that depends on anything but
/// virtual time, fails here.
final class ViewModelSoakTests: XCTestCase {
    private static let runs = 1_000

    /// Runs `storyline` `runs` times; every transcript must equal the first, and
    /// `Resources.total` must be back at its baseline after each run.
    private func soak(_ name: String, file: StaticString = #filePath, line: UInt = #line, _ storyline: () -> [String]) {
        let baseline = Resources.total
        let first = storyline()
        XCTAssertFalse(first.isEmpty, "\(name): the storyline recorded nothing", file: file, line: line)
        XCTAssertEqual(Resources.total, baseline, "\(name): run 1 left live resources: \(Resources.liveCounts)", file: file, line: line)
        for run in 2...Self.runs {
            let transcript = storyline()
            if transcript != first {
                XCTFail(
                    "\(name): run \(run) differs:\n\(transcript.joined(separator: "\n"))\nfirst run:\n\(first.joined(separator: "\n"))", file: file, line: line)
                return
            }
            if Resources.total != baseline {
                XCTFail("\(name): run \(run) left \(Resources.total - baseline) live resources: \(Resources.liveCounts)", file: file, line: line)
                return
            }
        }
    }

    private func lines<Element>(_ label: String, _ observer: TestableObserver<Element>) -> [String] {
        observer.events.map { "\(label) \($0.value) @ \($0.time)" }
    }

    // MARK: Seed 000: launch

    private struct TabTitles: Decodable, Equatable {
        let tabTitles: String
        let tabTitlesEn: String
    }

    func testSoak_launchStoryline() {
        soak("launch") {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["tabTitles": "ホーム", "tabTitlesEn": "home"], latency: .seconds(3), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            remoteConfig.setDefaults(["tabTitles": "メイク", "tabTitlesEn": "make"])
            let feed = scheduler.createColdObservable([.next(2, "feed"), .completed(4)])
            let viewModel = LaunchViewModel<TabTitles, String>(
                remoteConfig: remoteConfig, strategy: .fetchAndActivateBeforeShowing, timeout: .seconds(10), scheduler: scheduler
            ) { config in feed.asObservable().map { "\($0) for \(config.tabTitlesEn)" } }
            let splash = scheduler.createObserver(Bool.self)
            let config = scheduler.createObserver(TabTitles.self)
            let content = scheduler.createObserver(String.self)
            let errors = scheduler.createObserver(String.self)
            let bag = DisposeBag()
            viewModel.outputs.isSplashVisible.subscribe(splash).disposed(by: bag)
            viewModel.outputs.config.subscribe(config).disposed(by: bag)
            viewModel.outputs.content.subscribe(content).disposed(by: bag)
            viewModel.outputs.error.map { "\($0)" }.subscribe(errors).disposed(by: bag)
            scheduler.start()
            return lines("splash", splash) + lines("config", config) + lines("content", content) + lines("error", errors)
        }
    }

    // MARK: Seed 001: item list

    private struct Product: Decodable, Equatable {
        let id: Int
        let title: String
    }

    func testSoak_itemListStoryline() {
        soak("item list") {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["item_json": #"[{"id": 1, "title": "Lipstick"}]"#], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler)
            let viewModel = ItemListViewModel<Product>(remoteConfig: remoteConfig, itemsKey: "item_json", expirationDuration: 0, scheduler: scheduler)
            let items = scheduler.createObserver([Product].self)
            let loading = scheduler.createObserver(Bool.self)
            let errors = scheduler.createObserver(String.self)
            let bag = DisposeBag()
            viewModel.outputs.items.subscribe(items).disposed(by: bag)
            viewModel.outputs.isLoading.subscribe(loading).disposed(by: bag)
            viewModel.outputs.error.map { "\($0)" }.subscribe(errors).disposed(by: bag)
            scheduler.scheduleAt(20) { backend.publish(["item_json": #"[{"id": 1, "title": "Lipstick"}, {"id": 2, "title": "Mascara"}]"#]) }
            scheduler.scheduleAt(40) { backend.publish(["item_json": "not json"]) }
            for time in [10, 12, 30, 50] {
                scheduler.scheduleAt(TestTime(time)) { viewModel.inputs.fetchTrigger.onNext(()) }
            }
            scheduler.start()
            return lines("items", items) + lines("loading", loading) + lines("error", errors)
        }
    }

    // MARK: Seed 002: forced update

    func testSoak_forceUpdateStoryline() {
        soak("force update") {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["required_version": "3.0.0", "latest_version": "3.2.1"], scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, scheduler: scheduler, randomSource: { 0.5 })
            let viewModel = ForceUpdateViewModel(
                remoteConfig: remoteConfig,
                currentVersion: AppVersion("3.2.1")!,
                requiredVersionKey: "required_version",
                latestVersionKey: "latest_version",
                storeURL: URL(string: "https://apps.apple.com/app/id1")!,
                scheduler: scheduler
            )
            let required = scheduler.createObserver(Bool.self)
            let alerts = scheduler.createObserver(String.self)
            let urls = scheduler.createObserver(URL.self)
            let errors = scheduler.createObserver(String.self)
            let bag = DisposeBag()
            viewModel.outputs.isUpdateRequired.subscribe(required).disposed(by: bag)
            viewModel.outputs.presentAlert.map { "\($0)" }.subscribe(alerts).disposed(by: bag)
            viewModel.outputs.openStoreURL.subscribe(urls).disposed(by: bag)
            viewModel.outputs.error.map { "\($0)" }.subscribe(errors).disposed(by: bag)
            let session = SerialDisposable()
            scheduler.scheduleAt(200) { session.disposable = viewModel.startObserving() }
            scheduler.scheduleAt(300) { backend.publish(["required_version": "3.3.0"]) }
            scheduler.scheduleAt(400) { viewModel.inputs.openStoreTapped.onNext(()) }
            scheduler.scheduleAt(500) { backend.publish(["latest_version": "3.4.0"]) }
            scheduler.scheduleAt(1000) { session.dispose() }
            scheduler.start()
            return lines("required", required) + lines("alert", alerts) + lines("url", urls) + lines("error", errors)
        }
    }

    // MARK: Seed 004: group comments

    func testSoak_groupCommentsStoryline() throws {
        var failure: Error?
        soak("group comments") {
            do {
                let scheduler = TestScheduler(initialClock: 0)
                let database = try InMemoryRealtimeDatabase(
                    scheduler: scheduler,
                    value: [
                        "Users": ["user1": ["group0", "group1"]],
                        "Groups": ["group0": ["hello"], "group1": ["hi"], "group2": ["hey"]],
                    ])
                let listener = GroupCommentsListener(database: database)
                let writes: [(TestTime, JSONValue, String)] = [
                    (300, "comment0-1", "Groups/group0/1"),
                    (400, "group2", "Users/user1/2"),
                    (450, "comment2-1", "Groups/group2/1"),
                    (500, ["group2"], "Users/user1"),
                    (600, "nobody listens", "Groups/group0/2"),
                ]
                for (time, value, path) in writes {
                    scheduler.scheduleAt(time) { try? database.setValue(value, at: path) }
                }
                let res = scheduler.start {
                    listener.listen(user: "user1").map { snapshot in
                        snapshot.keys.sorted().map { "\($0)=\(snapshot[$0]!)" }.joined(separator: " ")
                    }
                }
                return lines("comments", res)
            } catch {
                failure = error
                return ["setup failed: \(error)"]
            }
        }
        if let failure { throw failure }
    }
}

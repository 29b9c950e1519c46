import XCTest
import Streams
import StreamsTest

/// A user-defined `Driver`-like type, written the way apps write an activity indicator: `true`
/// while at least one sequence it tracks is subscribed. It conforms with `asSharedSequence()`
/// alone; everything else (`asObservable()`, `drive`, the operators, `Driver.combineLatest`)
/// comes from `SharedSequenceConvertibleType`.
final class LoadingTracker: SharedSequenceConvertibleType {
    typealias Element = Bool
    typealias SharingStrategy = DriverSharingStrategy

    /// How many tracked subscriptions are running (used from the test scheduler's thread only).
    private let running = BehaviorRelay(value: 0)
    private let isLoading: Driver<Bool>

    init() {
        isLoading = running.asDriver().map { $0 > 0 }.distinctUntilChanged()
    }

    /// `source`, counted as running from its subscription until its disposal.
    func track<Source: ObservableConvertibleType>(_ source: Source) -> Observable<Source.Element> {
        let running = self.running
        return Observable.deferred {
            running.accept(running.value + 1)
            return source.asObservable().do(onDispose: { running.accept(running.value - 1) })
        }
    }

    func asSharedSequence() -> SharedSequence<DriverSharingStrategy, Bool> {
        isLoading
    }
}

extension ObservableConvertibleType {
    /// Marks `tracker` as loading while this sequence is subscribed.
    func trackLoading(_ tracker: LoadingTracker) -> Observable<Element> {
        tracker.track(self)
    }
}

/// A user-defined `Signal`-like type: taps of a button, sent by `tap()`.
final class TapEvents: SharedSequenceConvertibleType {
    typealias Element = Int
    typealias SharingStrategy = SignalSharingStrategy

    private let relay = PublishRelay<Int>()
    private let taps: Signal<Int>

    init() {
        taps = relay.asSignal()
    }

    func tap(_ count: Int) {
        relay.accept(count)
    }

    func asSharedSequence() -> SharedSequence<SignalSharingStrategy, Int> {
        taps
    }
}

/// A sign-up screen's view model in the shape of RxExample's GitHub sign-up (Driver version):
/// the activity tracker is combined with drivers, tracks the API call, and is exposed as a Driver.
private struct SignUpViewModel {
    let signingIn: Driver<Bool>
    let signUpEnabled: Driver<Bool>
    let signedIn: Driver<Bool>

    init(username: Driver<String>, password: Driver<String>, taps: Signal<Void>, signUp: @escaping (String, String) -> Observable<Bool>) {
        let tracker = LoadingTracker()
        signingIn = tracker.asDriver()
        let credentials = Driver.combineLatest(username, password) { (username: $0, password: $1) }
        signUpEnabled = Driver.combineLatest(username.map { !$0.isEmpty }, password.map { $0.count >= 3 }, tracker) { validName, validPassword, busy in
            validName && validPassword && !busy
        }
        .distinctUntilChanged()
        signedIn = taps.withLatestFrom(credentials)
            .flatMapLatest { credentials in
                signUp(credentials.username, credentials.password)
                    .trackLoading(tracker)
                    .asDriver(onErrorJustReturn: false)
            }
    }
}

/// Generic code that only knows `ObservableConvertibleType`.
private func observable<Source: ObservableConvertibleType>(of source: Source) -> Observable<Source.Element> {
    source.asObservable()
}

final class SharedSequenceConvertibleTypeTests: XCTestCase {
    struct SignUpError: Error {}

    func testCustomType_signUpViewModel_combinesTracksAndDrives() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let username = scheduler.createHotObservable([.next(210, "ann")])
                let password = scheduler.createHotObservable([.next(220, "pw"), .next(230, "secret")])
                let taps = scheduler.createHotObservable([.next(300, ()), .next(500, ())])
                let calls = [
                    scheduler.createColdObservable([.next(50, true), .completed(50)]),
                    scheduler.createColdObservable([Recorded<Event<Bool>>.error(20, SignUpError())]),
                ]
                var callCount = 0
                let viewModel = SignUpViewModel(
                    username: username.asDriver(onErrorJustReturn: ""),
                    password: password.asDriver(onErrorJustReturn: ""),
                    taps: taps.asSignal(onErrorJustReturn: ()),
                    signUp: { _, _ in
                        defer { callCount += 1 }
                        return calls[callCount].asObservable()
                    }
                )
                let signingIn = scheduler.createObserver(Bool.self)
                let enabled = scheduler.createObserver(Bool.self)
                let signedIn = scheduler.createObserver(Bool.self)
                var bag = DisposeBag()
                scheduler.scheduleAt(200) {
                    viewModel.signingIn.drive(signingIn).disposed(by: bag)
                    viewModel.signUpEnabled.drive(enabled).disposed(by: bag)
                    viewModel.signedIn.drive(signedIn).disposed(by: bag)
                }
                scheduler.scheduleAt(1000) { bag = DisposeBag() }
                scheduler.start()

                // The tracker's relay starts at 0 (delivered one tick after subscription); each
                // tap subscribes the call, tracked until it ends.
                XCTAssertEqual(signingIn.events, [.next(201, false), .next(302, true), .next(352, false), .next(502, true), .next(522, false)])
                XCTAssertEqual(enabled.events, [.next(221, false), .next(231, true), .next(302, false), .next(352, true), .next(502, false), .next(522, true)])
                XCTAssertEqual(signedIn.events, [.next(352, true), .next(522, false)])
                XCTAssertEqual(calls[0].subscriptions, [Subscription(301, 351)])
                XCTAssertEqual(calls[1].subscriptions, [Subscription(501, 521)])
            }
        }
    }

    func testCustomType_isObservableConvertibleWithoutWritingAsObservable() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let tracker = LoadingTracker()
                let work = scheduler.createColdObservable([.next(10, 1), .completed(40)])
                scheduler.scheduleAt(250) { _ = work.trackLoading(tracker).subscribe() }
                let res = scheduler.start { observable(of: tracker) }
                XCTAssertEqual(res.events, [.next(201, false), .next(251, true), .next(291, false)])
            }
        }
    }

    func testCustomType_driveForms() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let tracker = LoadingTracker()
                let observer = scheduler.createObserver(Bool.self)
                let optionals = scheduler.createObserver(Bool?.self)
                let relay = BehaviorRelay(value: true)
                var closure: [Bool] = []
                var bag = DisposeBag()
                scheduler.scheduleAt(200) {
                    tracker.drive(observer).disposed(by: bag)
                    tracker.drive(optionals).disposed(by: bag)
                    tracker.drive(relay).disposed(by: bag)
                    tracker.drive(onNext: { closure.append($0) }).disposed(by: bag)
                    tracker.asDriver().drive().disposed(by: bag)
                }
                scheduler.scheduleAt(300) { bag = DisposeBag() }
                scheduler.start()
                XCTAssertEqual(observer.events, [.next(201, false)])
                XCTAssertEqual(optionals.events, [.next(201, false)])
                XCTAssertEqual(relay.value, false)
                XCTAssertEqual(closure, [false])
            }
        }
    }

    func testCustomType_operators() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let tracker = LoadingTracker()
                let work = scheduler.createColdObservable([.completed(30, Bool.self)])
                scheduler.scheduleAt(300) { _ = work.trackLoading(tracker).subscribe() }
                scheduler.scheduleAt(400) { _ = work.trackLoading(tracker).subscribe() }
                // The tracker emits false at 201, true at 301 and 401, false at 331 and 431.
                let labels = Driver.of("a", "b")
                var bag = DisposeBag()
                scheduler.scheduleAt(1000) { bag = DisposeBag() }
                func record<S, E>(_ sequence: SharedSequence<S, E>) -> TestableObserver<E> {
                    let observer = scheduler.createObserver(E.self)
                    scheduler.scheduleAt(200) { sequence.asObservable().subscribe(observer).disposed(by: bag) }
                    return observer
                }
                let mapped = record(tracker.map { $0 ? 1 : 0 })
                let filtered = record(tracker.filter { $0 })
                let compacted = record(tracker.compactMap { $0 ? "busy" : nil })
                let started = record(tracker.startWith(true))
                let skipped = record(tracker.skip(1))
                let scanned = record(tracker.scan(0) { count, busy in busy ? count + 1 : count })
                let distinct = record(tracker.map { _ in 1 }.distinctUntilChanged())
                let sameStrategy = record(tracker.flatMapLatest { busy in Driver.just(busy ? "on" : "off") })
                let merged = record(tracker.flatMap { busy in Signal.just(busy) })
                let debounced = record(tracker.debounce(.seconds(50)))
                let throttled = record(tracker.throttle(.seconds(200), latest: false))
                let delayed = record(tracker.delay(.seconds(5)))
                let latest = record(tracker.withLatestFrom(labels))
                let combined = record(tracker.withLatestFrom(labels) { busy, label in "\(label)\(busy)" })
                let zipped = record(Driver.zip(labels, tracker))
                let combinedLatest = record(Driver.combineLatest(tracker, labels))
                scheduler.start()

                XCTAssertEqual(mapped.events, [.next(201, 0), .next(301, 1), .next(331, 0), .next(401, 1), .next(431, 0)])
                XCTAssertEqual(filtered.events, [.next(301, true), .next(401, true)])
                XCTAssertEqual(compacted.events, [.next(301, "busy"), .next(401, "busy")])
                XCTAssertEqual(started.events, [.next(200, true), .next(201, false), .next(301, true), .next(331, false), .next(401, true), .next(431, false)])
                XCTAssertEqual(skipped.events, [.next(301, true), .next(331, false), .next(401, true), .next(431, false)])
                XCTAssertEqual(scanned.events, [.next(201, 0), .next(301, 1), .next(331, 1), .next(401, 2), .next(431, 2)])
                XCTAssertEqual(distinct.events, [.next(201, 1)])
                XCTAssertEqual(sameStrategy.events, [.next(202, "off"), .next(302, "on"), .next(332, "off"), .next(402, "on"), .next(432, "off")])
                XCTAssertEqual(merged.events, [.next(202, false), .next(302, true), .next(332, false), .next(402, true), .next(432, false)])
                XCTAssertEqual(debounced.events, [.next(251, false), .next(381, false), .next(481, false)])
                XCTAssertEqual(throttled.events, [.next(201, false), .next(401, true)])
                XCTAssertEqual(delayed.events, [.next(206, false), .next(306, true), .next(336, false), .next(406, true), .next(436, false)])
                XCTAssertEqual(latest.events, [.next(301, "b"), .next(331, "b"), .next(401, "b"), .next(431, "b")])
                XCTAssertEqual(combined.events, [.next(301, "btrue"), .next(331, "bfalse"), .next(401, "btrue"), .next(431, "bfalse")])
                XCTAssertEqual(zipped.events.map(\.time), [201, 301])
                XCTAssertEqual(zipped.events.compactMap { $0.value.element.map { "\($0.0)\($0.1)" } }, ["afalse", "btrue"])
                XCTAssertEqual(
                    combinedLatest.events.compactMap { $0.value.element.map { "\($0.0)\($0.1)" } }, ["falsea", "falseb", "trueb", "falseb", "trueb", "falseb"])
            }
        }
    }

    func testCustomSignalType_emitsAndCombines() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let taps = TapEvents()
                let observer = scheduler.createObserver(Int.self)
                let relay = PublishRelay<Int>()
                let relayed = scheduler.createObserver(Int.self)
                let sums = scheduler.createObserver(Int.self)
                let pairs = scheduler.createObserver(String.self)
                var bag = DisposeBag()
                let other = scheduler.createHotObservable([.next(205, 100)]).asSignal(onErrorJustReturn: 0)
                scheduler.scheduleAt(200) {
                    taps.emit(to: observer).disposed(by: bag)
                    relay.subscribe(relayed).disposed(by: bag)
                    taps.emit(to: relay).disposed(by: bag)
                    Signal.combineLatest(taps, other) { $0 + $1 }.emit(to: sums).disposed(by: bag)
                    Signal.zip(taps.asSignal(), taps.map { $0 * 10 }).map { "\($0)-\($1)" }.emit(to: pairs).disposed(by: bag)
                }
                scheduler.scheduleAt(210) { taps.tap(1) }
                scheduler.scheduleAt(220) { taps.tap(2) }
                scheduler.scheduleAt(300) { bag = DisposeBag() }
                scheduler.start()
                XCTAssertEqual(observer.events, [.next(211, 1), .next(221, 2)])
                XCTAssertEqual(relayed.events, [.next(211, 1), .next(221, 2)])
                XCTAssertEqual(sums.events, [.next(211, 101), .next(221, 102)])
                XCTAssertEqual(pairs.events, [.next(211, "1-10"), .next(221, "2-20")])
            }
        }
    }

    func testSharedSequence_asInfallible() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable([.next(210, 1), .error(220, SignUpError())])
                let infallible: Infallible<Int> = xs.asDriver(onErrorJustReturn: -1).asInfallible()
                let res = scheduler.start { infallible.asObservable() }
                XCTAssertEqual(res.events, [.next(211, 1), .next(221, -1), .completed(221)])
            }
        }
    }
}

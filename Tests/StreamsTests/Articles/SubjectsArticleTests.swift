import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The timelines of the Subjects article (Sources/Streams/Streams.docc/Subjects.md), run and
/// compared with the article: one column per tick; the `onNext` (or `accept`) lane is sent into
/// the subject, and every other lane is an observer subscribed at the lane's first column (after
/// what is sent in that column).
final class SubjectsArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/Subjects.md", testFile: #filePath) }

    private func check(
        _ anchor: String, send label: String = "onNext", file: StaticString = #filePath, line: UInt = #line,
        _ make: (_ value: String?) -> (send: (Event<String>) -> Void, observable: Observable<String>)
    ) throws {
        let lanes = try ArticleLanes(article(), anchor)
        let scheduler = TestScheduler(initialClock: 0)
        let subject = make(lanes.lanes["value"]?.marbles)
        for recorded in try lanes.events(label) {
            scheduler.scheduleAt(recorded.time) { subject.send(recorded.value) }
        }
        var observers: [String: TestableObserver<String>] = [:]
        let bag = DisposeBag()
        for (observerLabel, lane) in lanes.lanes where observerLabel != label && observerLabel != "value" {
            let observer = scheduler.createObserver(String.self)
            observers[observerLabel] = observer
            scheduler.scheduleAt(TestTime(lane.column)) { subject.observable.subscribe(observer).disposed(by: bag) }
        }
        scheduler.start()
        XCTAssertFalse(observers.isEmpty, file: file, line: line)
        for (observerLabel, observer) in observers {
            XCTAssertEqual(try lanes.tokens(observerLabel), articleDrawing(observer.events), "\(anchor): \(observerLabel)", file: file, line: line)
        }
    }

    /// PublishSubject.
    func testPublishSubject() throws {
        try check("(subscribed after completion: just the terminal event)") { _ in
            let subject = PublishSubject<String>()
            return (subject.on, subject.asObservable())
        }
    }

    /// BehaviorSubject (the `value` lane is its initial value).
    func testBehaviorSubject() throws {
        try check("late:         1--2--|     (subscribed between 1 and 2)") { value in
            let subject = BehaviorSubject(value: value ?? "?")
            return (subject.on, subject.asObservable())
        }
    }

    /// ReplaySubject (bufferSize: 2).
    func testReplaySubject() throws {
        try check("(bufferSize: 2, subscribed after completion)") { _ in
            let subject = ReplaySubject<String>.create(bufferSize: 2)
            return (subject.on, subject.asObservable())
        }
    }

    /// AsyncSubject: completing, then failing.
    func testAsyncSubject() throws {
        for anchor in ["late:           (3|)", "late:         #"] {
            try check(anchor) { _ in
                let subject = AsyncSubject<String>()
                return (subject.on, subject.asObservable())
            }
        }
    }

    /// Relays: the three relays, each with a late observer.
    func testRelays() throws {
        try check("(PublishRelay)", send: "accept") { _ in
            let relay = PublishRelay<String>()
            return ({ if case .next(let element) = $0 { relay.accept(element) } }, relay.asObservable())
        }
        try check("(BehaviorRelay)", send: "accept") { value in
            let relay = BehaviorRelay(value: value ?? "?")
            return ({ if case .next(let element) = $0 { relay.accept(element) } }, relay.asObservable())
        }
        try check("(ReplayRelay, bufferSize: 2)", send: "accept") { _ in
            let relay = ReplayRelay<String>.create(bufferSize: 2)
            return ({ if case .next(let element) = $0 { relay.accept(element) } }, relay.asObservable())
        }
    }

    /// Threading contract, "Reentrant sends are depth-first".
    func testReentrantSendsAreDepthFirst() throws {
        let subject = PublishSubject<Int>()
        var a: [String] = []
        var b: [String] = []
        let bag = DisposeBag()
        subject.subscribe(onNext: { element in
            a.append("\(element)")
            if element == 1 { subject.onNext(2) }
        }).disposed(by: bag)
        subject.subscribe(onNext: { b.append("\($0)") }).disposed(by: bag)
        subject.onNext(1)
        let text = try article()
        XCTAssertTrue(text.says("observers A, B; A sends 2 when it receives 1"))
        XCTAssertTrue(text.says("subject.onNext(1)  →  A: \(a.joined(separator: " "))    B: \(b.joined(separator: " "))"), "A: \(a) B: \(b)")
    }

    /// bind(to:): a subject gets every event, a relay only the elements; an error sent to a relay
    /// goes to Hooks.defaultErrorHandler.
    func testBindTo() throws {
        let original = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = original }
        for anchor in ["bind(to: relay)   (completion is not forwarded)", "the error goes to Hooks.defaultErrorHandler"] {
            let lanes = try ArticleLanes(article(), anchor)
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable(try lanes.events("source"))
            let subject = PublishSubject<String>()
            let relay = PublishRelay<String>()
            let subjectObserver = scheduler.createObserver(String.self)
            let relayObserver = scheduler.createObserver(String.self)
            var reported: [Recorded<Event<String>>] = []
            Hooks.defaultErrorHandler = { _, _ in reported.append(.error(scheduler.clock, MarbleError())) }
            let bag = DisposeBag()
            scheduler.scheduleAt(0) {
                subject.subscribe(subjectObserver).disposed(by: bag)
                relay.subscribe(relayObserver).disposed(by: bag)
                if lanes.lanes["subject"] != nil { source.bind(to: subject).disposed(by: bag) }
                source.bind(to: relay).disposed(by: bag)
            }
            scheduler.start()
            if lanes.lanes["subject"] != nil {
                XCTAssertEqual(try lanes.tokens("subject"), articleDrawing(subjectObserver.events))
                XCTAssertEqual(reported.count, 0)
            } else {
                XCTAssertEqual(articleDrawing(reported), try lanes.tokens("source").filter { $0.text == "#" }, "reported when the source fails")
            }
            XCTAssertEqual(try lanes.tokens("relay"), articleDrawing(relayObserver.events), anchor)
        }
    }

    /// Binder and .rx: the elements are applied to the target (on MainScheduler.instance, from the
    /// main thread: at once); completion is ignored.
    func testBinder() throws {
        final class Target {
            var applied: [Recorded<Event<String>>] = []
        }
        let lanes = try ArticleLanes(article(), "binding:       --a--b ")
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable(try lanes.events("source"))
        let target = Target()
        let binder = Binder<String>(target, scheduler: MainScheduler.instance) { target, value in target.applied.append(.next(scheduler.clock, value)) }
        let bag = DisposeBag()
        scheduler.scheduleAt(0) { source.bind(to: binder).disposed(by: bag) }
        scheduler.start()
        XCTAssertEqual(try lanes.tokens("binding"), articleDrawing(target.applied))
    }

    /// Common rules, "Delivery order": the `flatMapLatest` recording.
    func testDeliveryOrder_flatMapLatestRecording() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let h = scheduler.createHotObservable([.next(300, 9), .next(400, 6), .next(500, 8)])
        let res = scheduler.start {
            h.startWith(1).concat(Observable.never()).flatMapLatest { v in h.map { v * 10 + $0 } }
        }
        let recording = res.events.compactMap { recorded in recorded.value.element.map { "\(recorded.time):\($0)" } }.joined(separator: " ")
        XCTAssertTrue(try article().says("records `\(recording)`, because each new inner subscription"), recording)
    }
}

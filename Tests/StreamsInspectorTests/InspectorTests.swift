#if Inspector
import Dispatch
import Foundation
import Streams
import StreamsInspector
import StreamsTest
import XCTest

final class InspectorTests: XCTestCase {
    override func tearDown() {
        Inspector.stop()
        Inspector.reset()
        super.tearDown()
    }

    func testInspector_isOffByDefaultAndRecordsNothingThen() {
        XCTAssertFalse(Inspector.isRecording)
        Inspector.reset()
        let subject = PublishSubject<Int>()
        let subscription = subject.map { $0 + 1 }.named("off").subscribe(onNext: { _ in })
        subject.onNext(1)
        subscription.dispose()
        XCTAssertEqual(Inspector.snapshot().chains, [])
        XCTAssertEqual(Inspector.events(), [])
    }

    func testInspector_recordsTheChainItsLinksAndLiveCounts() throws {
        Inspector.start()
        let subject = PublishSubject<Int>()
        let subscription = subject.map { $0 + 1 }.filter { $0.isMultiple(of: 2) }.named("evens").subscribe(onNext: { _ in })

        let chain = try XCTUnwrap(Inspector.snapshot().chains.first)
        XCTAssertEqual(Inspector.snapshot().chains.count, 1)
        XCTAssertEqual(chain.name, "evens")
        XCTAssertTrue(chain.isLive)
        XCTAssertEqual(chain.operators.map(\.name), ["named", "filter", "map", "PublishSubject"])
        XCTAssertEqual(chain.operators.map(\.label), ["evens", nil, nil, nil])
        let ids = chain.operators.map(\.id)
        XCTAssertEqual(chain.operators.map(\.parent), [nil, ids[0], ids[1], ids[2]])
        XCTAssertEqual(chain.operators.map(\.liveSubscriptions), [1, 1, 1, 1])
        XCTAssertEqual(chain.liveSubscriptions, 4)

        subscription.dispose()
        let ended = try XCTUnwrap(Inspector.snapshot().chains.first)
        XCTAssertFalse(ended.isLive)
        XCTAssertEqual(ended.liveSubscriptions, 0)
        XCTAssertEqual(ended.operators.map(\.totalSubscriptions), [1, 1, 1, 1])
    }

    func testInspector_logsEachOperatorsEventsWithTheirKindsAndValues() {
        Inspector.start()
        let subject = PublishSubject<Int>()
        let subscription = subject.map { $0 + 1 }.filter { $0.isMultiple(of: 2) }.named("evens").subscribe(onNext: { _ in }, onError: { _ in })
        subject.onNext(1)
        subject.onNext(2)
        subject.onError(MarbleError("boom"))
        subscription.dispose()

        let labelled = Inspector.events(labelled: "evens")
        XCTAssertEqual(labelled.map(\.kind), [.next, .error])
        XCTAssertEqual(labelled.map(\.value), ["2", "boom"])
        let chainEvents = Inspector.events(ofChainNamed: "evens")
        XCTAssertEqual(chainEvents.filter { $0.operatorName == "map" }.map(\.value), ["2", "3", "boom"])
        XCTAssertEqual(chainEvents.filter { $0.operatorName == "PublishSubject" }.count, 3)
        XCTAssertEqual(chainEvents.map(\.time), chainEvents.map(\.time).sorted(), "times never go back")
        XCTAssertTrue(chainEvents.allSatisfy { $0.thread == "main" || !$0.thread.isEmpty })
        XCTAssertFalse(Inspector.snapshot().chains[0].isLive, "the error ended every subscription")
    }

    func testInspector_completionEndsTheChainWithoutDispose() throws {
        Inspector.start()
        _ = Observable.of(1, 2).named("two").subscribe(onNext: { _ in })
        let chain = try XCTUnwrap(Inspector.snapshot().chains.first)
        XCTAssertFalse(chain.isLive)
        XCTAssertEqual(Inspector.events(labelled: "two").map(\.kind), [.next, .next, .completed])
    }

    func testInspector_innerSubscriptionsOfFlatMapLatestBelongToItsChain() throws {
        Inspector.start()
        let scheduler = TestScheduler(initialClock: 0)
        let outer = PublishSubject<Int>()
        let subscription = outer.flatMapLatest { value in Observable.just(value * 10) }.named("latest").subscribe(onNext: { _ in })
        outer.onNext(1)
        outer.onNext(2)
        outer.onNext(3)
        _ = scheduler

        let snapshot = Inspector.snapshot()
        XCTAssertEqual(snapshot.chains.count, 1, "inner subscriptions are not chains of their own")
        let chain = try XCTUnwrap(snapshot.chains.first)
        let just = try XCTUnwrap(chain.operators.first { $0.name == "just" })
        let flatMapLatest = try XCTUnwrap(chain.operators.first { $0.name == "flatMapLatest" })
        XCTAssertEqual(just.parent, flatMapLatest.id)
        XCTAssertEqual(just.totalSubscriptions, 3)
        XCTAssertEqual(just.liveSubscriptions, 0)
        XCTAssertEqual(Inspector.events(labelled: "latest").map(\.value), ["10", "20", "30"])
        subscription.dispose()
    }

    func testInspector_showsWhatIsStillSubscribed() throws {
        Inspector.start()
        let subject = PublishSubject<Int>()
        let kept = subject.map { $0 }.named("leaky").subscribe(onNext: { _ in })
        subject.map { $0 }.named("tidy").subscribe(onNext: { _ in }).dispose()

        let live = Inspector.snapshot().liveChains
        XCTAssertEqual(live.map(\.name), ["leaky"])
        XCTAssertFalse(try XCTUnwrap(live.first).callStack.isEmpty, "where it was subscribed")
        kept.dispose()
        XCTAssertEqual(Inspector.snapshot().liveChains.count, 0)
    }

    func testInspector_memoryIsBounded() throws {
        Inspector.start(Inspector.Configuration(eventsPerChain: 10, retainedEndedChains: 3, valueLength: 8))
        let subject = PublishSubject<String>()
        let subscription = subject.named("busy").subscribe(onNext: { _ in })
        for index in 0..<100 { subject.onNext("a long value number \(index)") }
        let busy = try XCTUnwrap(Inspector.snapshot().chains.first { $0.name == "busy" })
        XCTAssertEqual(busy.recordedEvents, 10)
        XCTAssertEqual(busy.droppedEvents, 190, "100 events at the subject and 100 at the label")
        XCTAssertTrue(Inspector.events(labelled: "busy").allSatisfy { $0.value?.hasPrefix("a long v…(truncated, ") == true })
        XCTAssertEqual(Inspector.events(labelled: "busy").last?.value, "a long v…(truncated, 22 bytes)")
        subscription.dispose()

        for _ in 0..<10 { _ = Observable.just(1).subscribe(onNext: { _ in }) }
        XCTAssertEqual(Inspector.snapshot().chains.count, 3, "only the three most recently ended chains are kept")
    }

    func testInspector_doesNotRetainValues() {
        Inspector.start()
        final class Payload: CustomStringConvertible {
            var description: String { "payload" }
        }
        weak var weakPayload: Payload?
        let subject = PublishSubject<Payload>()
        let subscription = subject.named("payloads").subscribe(onNext: { _ in })
        do {
            let payload = Payload()
            weakPayload = payload
            subject.onNext(payload)
        }
        XCTAssertNil(weakPayload, "only the description is kept")
        XCTAssertEqual(Inspector.events(labelled: "payloads").map(\.value), ["payload"])
        subscription.dispose()
    }

    func testInspector_isThreadSafeUnderFourThreads() {
        Inspector.start(Inspector.Configuration(eventsPerChain: 64, retainedEndedChains: 8))
        let subject = PublishSubject<Int>()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<200 {
                let subscription = subject.map { $0 + thread }.filter { _ in true }.named("t\(thread)").subscribe(onNext: { _ in })
                subject.onNext(round)
                if round.isMultiple(of: 50) { _ = Inspector.snapshot() }
                subscription.dispose()
            }
        }
        let snapshot = Inspector.snapshot()
        XCTAssertEqual(snapshot.liveChains.count, 0)
        XCTAssertLessThanOrEqual(snapshot.chains.count, 8)
        XCTAssertTrue(snapshot.chains.allSatisfy { $0.recordedEvents <= 64 })
    }

    func testExport_jsonRoundTripsAndHTMLShowsOneLanePerLabel() throws {
        Inspector.start()
        let clicks = PublishSubject<String>()
        let search = PublishSubject<String>()
        let first = clicks.named("clicks").subscribe(onNext: { _ in })
        let second = search.map { $0.uppercased() }.named("search").subscribe(onNext: { _ in })
        clicks.onNext("a")
        clicks.onNext("<b>")
        search.onNext("q")

        struct Export: Decodable {
            var snapshot: InspectorSnapshot
            var events: [InspectorEvent]
        }
        let export = try JSONDecoder().decode(Export.self, from: Data(Inspector.exportJSON().utf8))
        XCTAssertEqual(export.snapshot, Inspector.snapshot())
        XCTAssertEqual(export.events, Inspector.events())

        let html = Inspector.exportHTML(title: "demo")
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("id=\"named-streams\""))
        XCTAssertTrue(html.contains("data-title=\"clicks\" data-marks=\"2\""))
        XCTAssertTrue(html.contains("data-title=\"search\" data-marks=\"1\""))
        XCTAssertTrue(html.contains("&lt;b&gt;"))
        let visible = try XCTUnwrap(html.components(separatedBy: "<script").first)
        XCTAssertFalse(visible.contains("<b>"), "values are escaped in the page")
        XCTAssertFalse(html.contains("</b>"), "and cannot close the JSON's script element")
        XCTAssertTrue(html.contains("id=\"inspector-data\""))
        first.dispose()
        second.dispose()
    }

    func testNamed_isThePlainSequenceWhenTheInspectorIsOff() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(220, MarbleError("e"))])
            let res = scheduler.start { xs.named("x") }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, MarbleError("e"))])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }
}
#endif

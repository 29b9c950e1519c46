#if Inspector
import Foundation
import Streams
import StreamsInspector
import StreamsTest
import XCTest

final class InspectorRedactionTests: XCTestCase {
    override func tearDown() {
        Inspector.stop()
        Inspector.reset()
        super.tearDown()
    }

    private struct Leaked: Error, CustomStringConvertible {
        var description: String { "secret-in-error" }
    }

    func testRedactedInInspector_recordsEveryValueAndErrorOfItsChainAsRedacted() {
        Inspector.start()
        let secrets = PublishSubject<String>()
        let subscription = secrets.redactedInInspector()
            .map { "Bearer \($0)" }
            .named("header")
            .subscribe(onNext: { _ in }, onError: { _ in })
        secrets.onNext("token-1")
        secrets.onError(Leaked())
        subscription.dispose()

        let events = Inspector.events(ofChainNamed: "header")
        XCTAssertEqual(events.filter { $0.operatorName == "map" }.map(\.kind), [.next, .error])
        XCTAssertEqual(events.filter { $0.kind != .completed }.compactMap(\.value).count, events.filter { $0.kind != .completed }.count)
        XCTAssertTrue(events.allSatisfy { $0.value == nil || $0.value == "<redacted>" }, "\(events.map(\.value))")
        let exported = Inspector.exportJSON()
        XCTAssertFalse(exported.contains("token-1"))
        XCTAssertFalse(exported.contains("secret-in-error"))
        XCTAssertFalse(Inspector.exportHTML().contains("token-1"))
    }

    func testRedactedInInspector_leavesOtherChainsAndTheValuesThemselvesAlone() {
        Inspector.start()
        let source = PublishSubject<Int>()
        var received: [Int] = []
        let secret = source.redactedInInspector().named("secret").subscribe(onNext: { received.append($0) })
        let plain = source.map { $0 * 10 }.named("plain").subscribe(onNext: { _ in })
        source.onNext(1)
        secret.dispose()
        plain.dispose()

        XCTAssertEqual(received, [1], "the marker changes nothing but the record")
        XCTAssertEqual(Inspector.events(labelled: "secret").map(\.value), ["<redacted>"])
        XCTAssertEqual(Inspector.events(labelled: "plain").map(\.value), ["10"])
    }

    func testRedactedInInspector_marksTheChainOfAnInnerSubscriptionToo() {
        Inspector.start()
        let outer = PublishSubject<Int>()
        let subscription = outer.flatMap { value in Observable.just("secret-\(value)").redactedInInspector() }
            .named("requests")
            .subscribe(onNext: { _ in })
        outer.onNext(7)
        subscription.dispose()

        let values = Inspector.events(ofChainNamed: "requests").compactMap(\.value)
        XCTAssertFalse(values.contains { $0.contains("secret-7") }, "\(values)")
        XCTAssertTrue(values.contains("<redacted>"))
    }

    func testRedactedInInspector_withTheInspectorOffPassesEventsThroughAndLeaksNothing() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let res = scheduler.start { xs.redactedInInspector() }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }
}
#endif

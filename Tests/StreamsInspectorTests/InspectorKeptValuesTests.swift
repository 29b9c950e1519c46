#if Inspector
import Foundation
import StreamsTest
import XCTest

import Streams
@testable import StreamsInspector

/// Which values the inspector keeps and describes when read (events(), the exports), and which
/// it describes when sent; and that both show what was sent. Behaviour only: the per-event cost
/// is measured in the benchmark, not asserted here.
final class InspectorKeptValuesTests: XCTestCase {
    override func tearDown() {
        Inspector.stop()
        Inspector.reset()
        super.tearDown()
    }

    private struct PlainPoint {
        var x: Int
        var y: Double
    }

    private struct DescribedPoint: CustomStringConvertible {
        var x: Int
        var description: String { "point \(x)" }
    }

    private struct Named {
        var name: String
    }

    private final class Box: CustomStringConvertible {
        var items: [Int]
        init(items: [Int]) { self.items = items }
        var description: String { "Box(\(items))" }
    }

    private struct Holder {
        var box: Box
    }

    private enum Light {
        case red, green
    }

    func testKeeping_isDecidedByTheElementType() {
        typealias Kind = InspectorKeptValues.Kind
        func kind(_ type: Any.Type) -> String { "\(InspectorKeptValues.kind(of: type))" }
        XCTAssertEqual(kind(Int.self), "keep")
        XCTAssertEqual(kind(Double.self), "keep")
        XCTAssertEqual(kind(Bool.self), "keep")
        XCTAssertEqual(kind(Int?.self), "keep")
        XCTAssertEqual(kind(PlainPoint.self), "keep", "no references, no description of its own")
        XCTAssertEqual(kind(Light.self), "keep")
        XCTAssertEqual(kind(Void.self), "keep")
        XCTAssertEqual(kind(String.self), "keepIfSmall")
        XCTAssertEqual(kind([Int].self), "keepIfSmall")
        XCTAssertEqual(kind([String: [String]].self), "keepIfSmall")
        XCTAssertEqual(kind(Set<String?>.self), "keepIfSmall")
        XCTAssertEqual(kind(DescribedPoint.self), "describe", "its description may read anything")
        XCTAssertEqual(kind(Named.self), "describe", "holds a string: not trivially copyable")
        XCTAssertEqual(kind(Box.self), "describe", "a class instance may change after its event")
        XCTAssertEqual(kind(Holder.self), "describe")
        XCTAssertEqual(kind([Box].self), "describe")
        XCTAssertEqual(kind(Any.self), "describe")
        XCTAssertEqual(kind(JSONValueLike.self), "describe")
    }

    private indirect enum JSONValueLike {
        case string(String)
        case array([JSONValueLike])
    }

    func testKeeping_keepsOnlySmallStringsAndCollections() {
        func fits<Value>(_ value: Value, limit: Int = 4096) -> Bool {
            guard case .keepIfSmall(let fits) = InspectorKeeping<Value>.forElement else { return false }
            return fits(value, limit)
        }
        XCTAssertTrue(fits("short"))
        XCTAssertFalse(fits(String(repeating: "x", count: 5_000)), "beyond the byte limit: described (bounded) when sent")
        XCTAssertFalse(fits("twelve bytes", limit: 8))
        XCTAssertTrue(fits(["chat": ["comment 1", "comment 2"]]))
        XCTAssertTrue(fits(Array(0..<10)))
        XCTAssertFalse(fits(Array(0..<100_000)), "more values than a small description holds")
        XCTAssertFalse(fits([String(repeating: "y", count: 5_000)]))
    }

    /// The value each event of the labelled point recorded, after `send` pushed values through.
    private func recorded<Value>(_ type: Value.Type, _ send: (PublishSubject<Value>) -> Void) -> [String?] {
        Inspector.start()
        let subject = PublishSubject<Value>()
        let subscription = subject.named("value").subscribe(onNext: { _ in })
        send(subject)
        subscription.dispose()
        return Inspector.events(labelled: "value").filter { $0.kind == .next }.map(\.value)
    }

    func testKeptValues_exportTheDescriptionTheyHadWhenSent() throws {
        XCTAssertEqual(
            recorded(Int.self) {
                $0.onNext(42); $0.onNext(-7)
            }, ["42", "-7"])
        XCTAssertEqual(recorded(Double.self) { $0.onNext(2.5) }, ["2.5"])
        XCTAssertEqual(recorded(String.self) { $0.onNext("text") }, ["text"])
        XCTAssertEqual(
            recorded(Int?.self) {
                $0.onNext(3); $0.onNext(nil)
            }, ["Optional(3)", "nil"])
        XCTAssertEqual(recorded([String: [String]].self) { $0.onNext(["chat": ["a", "b"]]) }, [#"["chat": ["a", "b"]]"#])
        XCTAssertEqual(recorded(PlainPoint.self) { $0.onNext(PlainPoint(x: 1, y: 2.5)) }, [String(describing: PlainPoint(x: 1, y: 2.5))])
        XCTAssertEqual(recorded(Light.self) { $0.onNext(.green) }, ["green"])

        let json = try XCTUnwrap(Inspector.exportJSON().data(using: .utf8))
        let exported = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        let values = (exported["events"] as? [[String: Any]])?.compactMap { $0["value"] as? String }
        XCTAssertTrue(values?.contains("green") == true, "the JSON export describes kept values too")
    }

    func testKeptValues_showTheValueAsSentWhenTheSenderChangesItsCopy() {
        let values = recorded([Int].self) { subject in
            var items = [1]
            subject.onNext(items)
            items.append(2)  // the sender's copy changes; the kept one is the value sent
            subject.onNext(items)
        }
        XCTAssertEqual(values, ["[1]", "[1, 2]"])
    }

    func testAClassInstance_isDescribedWhenSent() {
        let box = Box(items: [1])
        let values = recorded(Holder.self) { subject in
            subject.onNext(Holder(box: box))
            box.items.append(2)
        }
        XCTAssertEqual(values.count, 1)
        XCTAssertTrue(values.first??.contains("Box([1])") == true, "described when sent, not as it is now: \(values)")
        XCTAssertEqual(
            recorded(Box.self) { subject in
                subject.onNext(box)
                box.items = []
            }, ["Box([1, 2])"])
    }

    func testARedactedChain_keepsNoValue() {
        Inspector.start()
        let subject = PublishSubject<Int>()
        let subscription = subject.redactedInInspector().named("secret").subscribe(onNext: { _ in })
        subject.onNext(1234)
        subscription.dispose()
        let values = Inspector.events(ofChainNamed: "secret").compactMap(\.value)
        XCTAssertFalse(values.isEmpty)
        XCTAssertTrue(values.allSatisfy { $0 == "<redacted>" }, "\(values)")
    }

    func testAChainRedactedAfterAValueWasKept_showsItRedacted() {
        Inspector.start()
        let subject = PublishSubject<Int>()
        let subscription = subject.named("first")
            .flatMap { _ in Observable.just("token").redactedInInspector() }
            .subscribe(onNext: { _ in })
        subject.onNext(1234)  // kept at `first`, then the inner `redactedInInspector()` marks the chain
        subscription.dispose()
        let values = Inspector.events().compactMap(\.value)
        XCTAssertFalse(values.isEmpty)
        XCTAssertFalse(values.contains("1234"), "\(values)")
        XCTAssertFalse(values.contains("token"), "\(values)")
    }

    func testOneChainLoggedFromFourThreads_keepsItsRingBound() throws {
        Inspector.start(Inspector.Configuration(eventsPerChain: 100))
        let subject = PublishSubject<Int>()
        let subscription = subject.map { $0 }.named("shared").subscribe(onNext: { _ in })
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<250 {
                subject.onNext(thread * 1_000 + round)
                if round.isMultiple(of: 50) { _ = Inspector.events(labelled: "shared") }
            }
        }
        let chain = try XCTUnwrap(Inspector.snapshot().chains.first { $0.name == "shared" })
        XCTAssertEqual(chain.recordedEvents, 100)
        XCTAssertEqual(chain.recordedEvents + chain.droppedEvents, 3 * 1_000, "1,000 events at each of the subject, map and the label")
        let events = Inspector.events(ofChainNamed: "shared")
        XCTAssertEqual(events.count, 100)
        XCTAssertTrue(events.allSatisfy { $0.value.flatMap(Int.init) != nil && !$0.thread.isEmpty })
        subscription.dispose()
    }
}
#endif

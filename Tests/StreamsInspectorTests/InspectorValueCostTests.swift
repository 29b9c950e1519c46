#if Inspector
import Foundation
import Streams
import StreamsInspector
import StreamsTest
import XCTest

/// Recording an event costs the same whatever the value's size: the inspector never describes
/// a large value whole. The work is asserted structurally (descriptions called, `Mirror`
/// children visited, the length of what is kept), never by timing.
final class InspectorValueCostTests: XCTestCase {
    override func tearDown() {
        Inspector.stop()
        Inspector.reset()
        super.tearDown()
    }

    /// Counts calls made on the test's thread.
    private final class Counter: @unchecked Sendable {
        // Safety: only the test's thread reads and writes it (the events are delivered on it).
        var count = 0
    }

    /// An element whose description counts its calls.
    private struct Counted: CustomStringConvertible {
        let counter: Counter
        let index: Int
        var description: String {
            counter.count += 1
            return "counted \(index)"
        }
    }

    /// A value whose own description walks all its items, and counts its calls.
    private struct Huge: CustomStringConvertible {
        let counter: Counter
        let items: [Int]
        var description: String {
            counter.count += 1
            return "Huge \(items)"
        }
    }

    /// A value reflecting a million children, counting each one `Mirror` produces.
    private struct Wide: CustomReflectable {
        let counter: Counter
        var customMirror: Mirror {
            let counter = counter
            return Mirror(
                self,
                children: (0..<1_000_000).lazy.map { index -> Mirror.Child in
                    counter.count += 1
                    return (label: "f\(index)", value: index)
                })
        }
    }

    /// A recursive value like a JSON tree.
    private indirect enum Tree {
        case leaf(String)
        case object([String: Tree])
    }

    private final class Box: CustomStringConvertible {
        var items: [Int]
        init(items: [Int]) { self.items = items }
        var description: String { "Box(\(items))" }
    }

    /// The value the inspector recorded for `value`, pushed through a labelled subject.
    private func recorded<Value>(_ value: Value, _ configuration: Inspector.Configuration = Inspector.Configuration()) -> String? {
        Inspector.start(configuration)
        defer { Inspector.stop() }
        let subject = PublishSubject<Value>()
        let subscription = subject.named("value").subscribe(onNext: { _ in })
        subject.onNext(value)
        subscription.dispose()
        return Inspector.events(labelled: "value").first?.value
    }

    func testInspector_recordsTheFirstBytesOfAMegabyteString() throws {
        let megabyte = String(repeating: "abcdefgh", count: 131_072)
        let value = try XCTUnwrap(recorded(megabyte))
        XCTAssertEqual(value, String(megabyte.prefix(4096)) + "…(truncated, 1048576 bytes)")
    }

    func testInspector_recordsAHundredThousandElementArrayAsItsCountAndFirstElements() throws {
        let value = try XCTUnwrap(recorded(Array(0..<100_000)))
        XCTAssertEqual(value, "[0, 1, 2, 3, 4, 5, 6, 7, … (100000 elements)]")
        XCTAssertLessThanOrEqual(value.utf8.count, 4096)
    }

    func testInspector_describesOnlyTheElementsItShows() throws {
        let counter = Counter()
        let elements = (0..<100_000).map { Counted(counter: counter, index: $0) }
        let value = try XCTUnwrap(recorded(elements))
        XCTAssertEqual(counter.count, 16, "the 8 elements shown, at the subject and at the label, not 100,000")
        XCTAssertTrue(value.hasPrefix("[counted 0, counted 1, "), value)
        XCTAssertTrue(value.hasSuffix(", counted 7, … (100000 elements)]"), value)
    }

    func testInspector_neverCallsTheDescriptionOfALargeValue() throws {
        let counter = Counter()
        let value = try XCTUnwrap(recorded(Huge(counter: counter, items: Array(0..<100_000))))
        XCTAssertEqual(counter.count, 0, "its description would walk 100,000 items")
        XCTAssertTrue(value.hasPrefix("Huge(counter: "), value)
        XCTAssertTrue(value.hasSuffix("items: [0, 1, 2, 3, 4, 5, 6, 7, … (100000 elements)])"), value)
    }

    func testInspector_callsTheDescriptionOfASmallValue() throws {
        let counter = Counter()
        XCTAssertEqual(recorded(Huge(counter: counter, items: [1, 2, 3])), "Huge [1, 2, 3]")
        XCTAssertEqual(counter.count, 2, "once at the subject, once at the label")
    }

    func testInspector_visitsABoundedNumberOfMirrorChildren() throws {
        let counter = Counter()
        let value = try XCTUnwrap(recorded(Wide(counter: counter)))
        XCTAssertLessThanOrEqual(counter.count, 512, "a million children reflected, a few hundred at most visited")
        XCTAssertTrue(value.hasPrefix("Wide(f0: 0, f1: 1, "), value)
        XCTAssertTrue(value.hasSuffix("f7: 7, …)"), value)
    }

    func testInspector_boundsTheDescriptionOfANestedTree() throws {
        let entries = Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("c\($0)", Tree.leaf("comment \($0)")) })
        let value = try XCTUnwrap(recorded(Tree.object(entries)))
        XCTAssertTrue(value.hasPrefix("object([\"c"), value)
        XCTAssertTrue(value.hasSuffix(", … (10000 entries)])"), value)
        XCTAssertLessThanOrEqual(value.utf8.count, 4096)
    }

    func testInspector_keepsTheByteLimitForLargeValues() throws {
        let rows = (0..<1_000).map { String(repeating: "row \($0) ", count: 100) }
        let value = try XCTUnwrap(recorded(rows, Inspector.Configuration(valueLength: 64)))
        XCTAssertTrue(value.hasPrefix("[\"row 0 row 0 "), value)
        XCTAssertTrue(value.hasSuffix("…(truncated)"), value)
        XCTAssertLessThanOrEqual(value.utf8.count, 64 + "…(truncated)".utf8.count)
    }

    func testInspector_describesSmallValuesAsStringDescribingDoes() {
        struct Point: Equatable {
            var x: Int
            var y: Double
        }
        XCTAssertEqual(recorded(Point(x: 1, y: 2.5)), String(describing: Point(x: 1, y: 2.5)))
        XCTAssertEqual(recorded([1, 2, 3]), "[1, 2, 3]")
        XCTAssertEqual(recorded(["a": 1]), #"["a": 1]"#)
        XCTAssertEqual(recorded(Optional(3)), "Optional(3)")
        XCTAssertEqual(recorded(Optional("text")), #"Optional("text")"#)
        XCTAssertEqual(recorded([Optional(1), nil]), "[Optional(1), nil]")
        XCTAssertEqual(recorded(Array(0..<20).map { Optional($0) }).map { String($0.prefix(24)) }, "[Optional(0), Optional(1")
        XCTAssertEqual(recorded((1, "two")), #"(1, "two")"#)
        XCTAssertEqual(recorded(Tree.leaf("x")), #"leaf("x")"#)
        XCTAssertEqual(recorded(42), "42")
        XCTAssertEqual(recorded("text"), "text")
    }

    func testInspector_describesALargeStructsFieldsAsMirrorShowsThem() throws {
        struct Nested {
            var id: Int
            var tags: [String]
        }
        struct Page {
            var title: String
            var rows: [Int]
            var flag: Bool
            var nested: Nested
            var pair: (Int, String)
        }
        let page = Page(title: "t", rows: Array(0..<1_000), flag: true, nested: Nested(id: 7, tags: ["a"]), pair: (1, "one"))
        let value = try XCTUnwrap(recorded(page))
        XCTAssertTrue(value.hasPrefix(#"Page(title: "t", rows: [0, 1, 2, 3, 4, 5, 6, 7, … (1000 elements)], flag: true, "#), value)
        XCTAssertTrue(value.hasSuffix(#"Nested(id: 7, tags: ["a"]), pair: (1, "one"))"#), value)
    }

    func testInspector_readsAStructsWeakAndUnownedReferencesAsMirrorDoes() throws {
        struct Held {
            weak var box: Box?
            unowned let owner: Box
            var rows: [Int]
        }
        let box = Box(items: [1])
        let owner = Box(items: [2])
        let value = try withExtendedLifetime((box, owner)) {
            try XCTUnwrap(recorded(Held(box: box, owner: owner, rows: Array(0..<1_000))))
        }
        XCTAssertTrue(value.hasPrefix("Held(box: Optional(Box([1])), owner: "), value)
        XCTAssertTrue(value.hasSuffix("rows: [0, 1, 2, 3, 4, 5, 6, 7, … (1000 elements)])"), value)
    }

    func testInspector_showsAReferenceAsItWasWhenItsEventWasDelivered() throws {
        Inspector.start()
        let subject = PublishSubject<Box>()
        let subscription = subject.named("box").subscribe(onNext: { _ in })
        let box = Box(items: [1])
        subject.onNext(box)
        box.items.append(2)
        subscription.dispose()
        let value = try XCTUnwrap(Inspector.events(labelled: "box").first?.value)
        XCTAssertEqual(value, "Box([1])", "described when delivered, not as it is now (Box([1, 2]))")
    }

    func testInspector_withRecordingPausedRecordsNothingMeanwhileThenResumes() {
        Inspector.start()
        let subject = PublishSubject<Int>()
        let recorded = subject.named("recorded").subscribe(onNext: { _ in })
        let returned = Inspector.withRecordingPaused { () -> Int in
            XCTAssertFalse(Inspector.isRecording)
            let unrecorded = subject.named("unrecorded").subscribe(onNext: { _ in })
            subject.onNext(1)
            unrecorded.dispose()
            return 7
        }
        XCTAssertEqual(returned, 7)
        XCTAssertTrue(Inspector.isRecording, "recording resumes")
        subject.onNext(2)
        recorded.dispose()
        XCTAssertEqual(Inspector.events(labelled: "recorded").compactMap(\.value), ["2"], "what came before stays; nothing meanwhile")
        XCTAssertEqual(Inspector.events(labelled: "unrecorded"), [])

        Inspector.stop()
        Inspector.withRecordingPaused { XCTAssertFalse(Inspector.isRecording) }
        XCTAssertFalse(Inspector.isRecording, "not recording before: not recording after")
    }

    func testRedactedInInspector_neverDescribesAValueLargeOrSmall() {
        Inspector.start()
        let counter = Counter()
        let subject = PublishSubject<[Counted]>()
        let subscription = subject.redactedInInspector().map { $0 }.named("secret").subscribe(onNext: { _ in })
        subject.onNext((0..<100_000).map { Counted(counter: counter, index: $0) })
        subject.onNext([Counted(counter: counter, index: 1)])
        subscription.dispose()
        XCTAssertEqual(counter.count, 0)
        let values = Inspector.events(ofChainNamed: "secret").compactMap(\.value)
        XCTAssertEqual(values.count, 8, "two values at each of the subject, the marker, map and the label")
        XCTAssertTrue(values.allSatisfy { $0 == "<redacted>" }, "\(values)")
    }
}
#endif

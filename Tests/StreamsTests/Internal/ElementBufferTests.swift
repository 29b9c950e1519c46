import XCTest
@testable import Streams

/// `ElementBuffer`: order, growth, clearing with and without keeping memory, and releasing its
/// elements when it goes away.
final class ElementBufferTests: XCTestCase {
    private final class Counter {
        var live = 0
    }

    private final class Tracked {
        let id: Int
        let counter: Counter
        init(_ id: Int, _ counter: Counter) {
            self.id = id
            self.counter = counter
            counter.live += 1
        }
        deinit { counter.live -= 1 }
    }

    func testAppend_keepsOrderAcrossGrowth() {
        var buffer = ElementBuffer<Int>()
        XCTAssertTrue(buffer.isEmpty)
        for value in 0..<1_000 { buffer.append(value) }
        XCTAssertEqual(buffer.count, 1_000)
        XCTAssertEqual((0..<buffer.count).map { buffer[$0] }, Array(0..<1_000))
    }

    func testRemoveAll_releasesElementsAndCanBeReused() {
        let counter = Counter()
        var buffer = ElementBuffer<Tracked>()
        for id in 0..<40 { buffer.append(Tracked(id, counter)) }
        XCTAssertEqual(counter.live, 40)
        buffer.removeAll(keepingCapacityUpTo: 64)
        XCTAssertEqual(counter.live, 0, "cleared elements are released")
        XCTAssertTrue(buffer.isEmpty)
        buffer.append(Tracked(7, counter))
        XCTAssertEqual(buffer[0].id, 7, "a kept buffer takes new elements")
        buffer.removeAll()
        XCTAssertEqual(counter.live, 0)
        buffer.append(Tracked(8, counter))
        XCTAssertEqual(buffer.count, 1, "a freed buffer allocates again")
        XCTAssertEqual(buffer[0].id, 8)
    }

    func testDeinit_releasesElements() {
        let counter = Counter()
        do {
            var buffer = ElementBuffer<Tracked>()
            for id in 0..<20 { buffer.append(Tracked(id, counter)) }
            XCTAssertEqual(counter.live, 20)
        }
        XCTAssertEqual(counter.live, 0)
    }

    func testSwap_exchangesContents() {
        var first = ElementBuffer<String>()
        var second = ElementBuffer<String>()
        first.append("a")
        first.append("b")
        swap(&first, &second)
        XCTAssertTrue(first.isEmpty)
        XCTAssertEqual(second.count, 2)
        XCTAssertEqual(second[1], "b")
    }
}

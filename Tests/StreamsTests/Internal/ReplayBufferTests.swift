import XCTest
@testable import Streams

/// `ReplayBuffer`: the ring of the latest `limit` elements (or all), its raw-memory storage shared
/// between copies until one changes, and every element released exactly once.
final class ReplayBufferTests: XCTestCase {
    /// Counts the instances alive, so that the tests can see every element released.
    private final class Probe {
        static let live = LockedState(0)
        let id: Int
        init(_ id: Int) {
            self.id = id
            Self.live.withLock { $0 += 1 }
        }
        deinit { Self.live.withLock { $0 -= 1 } }
    }

    private func ids(_ buffer: ReplayBuffer<Probe>) -> [Int] { buffer.elements.map(\.id) }

    func testBoundedBuffer_keepsTheLatestInOrderAndHandsBackTheEvicted() {
        let before = Probe.live.withLock { $0 }
        do {
            var buffer = ReplayBuffer<Probe>(limit: 3)
            XCTAssertTrue(buffer.isEmpty)
            for id in 0..<3 { XCTAssertNil(buffer.append(Probe(id))) }
            XCTAssertEqual(ids(buffer), [0, 1, 2])
            for id in 3..<10 { XCTAssertEqual(buffer.append(Probe(id))?.id, id - 3, "the oldest is evicted") }
            XCTAssertEqual(ids(buffer), [7, 8, 9])
            var slot = Probe(10)
            buffer.push(&slot)
            XCTAssertEqual(slot.id, 7, "push leaves the evicted element in the slot")
            XCTAssertEqual(ids(buffer), [8, 9, 10])
            XCTAssertFalse(buffer.isEmpty)
        }
        XCTAssertEqual(Probe.live.withLock { $0 }, before, "every element released once")
    }

    func testUnboundedBuffer_growsAndKeepsEverything() {
        let before = Probe.live.withLock { $0 }
        do {
            var buffer = ReplayBuffer<Probe>(capacity: Int.max)
            for id in 0..<100 {
                var slot = Probe(id)
                buffer.push(&slot)
                XCTAssertEqual(slot.id, id, "nothing evicted: the slot keeps its element")
            }
            XCTAssertEqual(ids(buffer), Array(0..<100))
        }
        XCTAssertEqual(Probe.live.withLock { $0 }, before)
    }

    func testBoundedBuffer_growsUpToItsLimit() {
        var buffer = ReplayBuffer<Probe>(limit: 40)
        for id in 0..<45 { buffer.append(Probe(id)) }
        XCTAssertEqual(ids(buffer), Array(5..<45), "grown past its first storage, then a ring")
    }

    func testZeroLimit_keepsNothing() {
        var buffer = ReplayBuffer<Probe>(capacity: -2)
        XCTAssertEqual(buffer.append(Probe(1))?.id, 1, "the element itself comes back")
        var slot = Probe(2)
        buffer.push(&slot)
        XCTAssertEqual(slot.id, 2)
        XCTAssertTrue(buffer.isEmpty)
        XCTAssertEqual(ids(buffer), [])
    }

    func testCopies_shareUntilOneChanges() {
        let before = Probe.live.withLock { $0 }
        do {
            var buffer = ReplayBuffer<Probe>(limit: 2)
            for id in 0..<3 { buffer.append(Probe(id)) }
            var copy = buffer
            copy.append(Probe(3))
            XCTAssertEqual(ids(buffer), [1, 2], "the original is unchanged")
            XCTAssertEqual(ids(copy), [2, 3])
            let kept = buffer
            buffer.removeAll()
            XCTAssertTrue(buffer.isEmpty)
            XCTAssertEqual(ids(kept), [1, 2], "a copy keeps the elements a cleared buffer dropped")
            buffer.append(Probe(4))
            XCTAssertEqual(ids(buffer), [4])
        }
        XCTAssertEqual(Probe.live.withLock { $0 }, before)
    }
}

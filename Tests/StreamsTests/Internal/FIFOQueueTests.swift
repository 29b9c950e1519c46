import XCTest
@testable import Streams

final class FIFOQueueTests: XCTestCase {
    func testEmptyQueue() {
        var queue = FIFOQueue<Int>()
        XCTAssertTrue(queue.isEmpty)
        XCTAssertEqual(queue.count, 0)
        XCTAssertNil(queue.first)
        XCTAssertNil(queue.popFirst())
    }

    func testElementsComeOutInOrder() {
        var queue = FIFOQueue<String>()
        for value in ["a", "b", "c"] { queue.append(value) }
        XCTAssertEqual(queue.count, 3)
        XCTAssertEqual(queue.first, "a")
        XCTAssertEqual(queue.popFirst(), "a")
        queue.append("d")
        XCTAssertEqual([queue.popFirst(), queue.popFirst(), queue.popFirst()], ["b", "c", "d"])
        XCTAssertNil(queue.popFirst())
        XCTAssertTrue(queue.isEmpty)
    }

    func testInterleavedUseKeepsOrderAcrossCompactions() {
        var queue = FIFOQueue<Int>()
        var expected = 0
        var next = 0
        for round in 0..<1_000 {
            for _ in 0..<(round % 7) + 2 {
                queue.append(next)
                next += 1
            }
            for _ in 0..<(round % 5) + 1 {
                guard let value = queue.popFirst() else { break }
                XCTAssertEqual(value, expected)
                expected += 1
            }
        }
        while let value = queue.popFirst() {
            XCTAssertEqual(value, expected)
            expected += 1
        }
        XCTAssertEqual(expected, next)
    }

    /// A queue that never empties (a steady producer just ahead of its consumer) must not keep
    /// the consumed prefix: its storage stays proportional to what is queued.
    func testStorageStaysBoundedWhenTheQueueNeverEmpties() {
        var queue = FIFOQueue<Int>()
        for value in 0..<10 { queue.append(value) }
        for value in 10..<100_000 {
            queue.append(value)
            XCTAssertEqual(queue.popFirst(), value - 10)
        }
        XCTAssertEqual(queue.count, 10)
        XCTAssertLessThanOrEqual(queue.storageCount, 2 * 64)
    }

    func testRemoveAllReleasesElements() {
        final class Token {}
        weak var weakToken: Token?
        var queue = FIFOQueue<Token>()
        do {
            let token = Token()
            weakToken = token
            queue.append(token)
            queue.append(Token())
        }
        _ = queue.popFirst()
        XCTAssertNil(weakToken, "a popped element is not kept by the storage")
        queue.removeAll()
        XCTAssertTrue(queue.isEmpty)
        queue.append(Token())
        XCTAssertEqual(queue.count, 1)
    }
}

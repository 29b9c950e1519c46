import XCTest
@testable import Streams

/// `KeyedList`: registration order, removal by key in any order, the inline lone value and the
/// snapshots handed out for delivery after the lock.
final class KeyedListTests: XCTestCase {
    private final class Box {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    private func values(_ slots: KeyedList<Box>.Slots) -> [Int] {
        var ids: [Int] = []
        slots.forEachValue { ids.append($0.id) }
        return ids
    }

    private func iterated(_ slots: KeyedList<Box>.Slots) -> [Int?] {
        slots.map { $0?.id }
    }

    func testLoneValue_isDeliveredAndRemoved() {
        var list = KeyedList<Box>()
        XCTAssertTrue(list.isEmpty)
        XCTAssertTrue(list.slots.isEmpty)
        let key = list.insert(Box(1))
        XCTAssertEqual(list.count, 1)
        XCTAssertFalse(list.slots.isEmpty)
        XCTAssertEqual(values(list.slots), [1])
        XCTAssertEqual(iterated(list.slots), [1])
        XCTAssertNil(list.remove(key &+ 1), "an unknown key removes nothing")
        XCTAssertEqual(list.remove(key)?.id, 1)
        XCTAssertNil(list.remove(key), "removing twice is harmless")
        XCTAssertTrue(list.isEmpty)
        XCTAssertEqual(values(list.slots), [])
    }

    func testSecondValue_keepsRegistrationOrder() {
        var list = KeyedList<Box>()
        let first = list.insert(Box(1))
        let second = list.insert(Box(2))
        let third = list.insert(Box(3))
        XCTAssertEqual(values(list.slots), [1, 2, 3])
        XCTAssertEqual(list.remove(second)?.id, 2)
        XCTAssertEqual(values(list.slots), [1, 3])
        XCTAssertEqual(iterated(list.slots), [1, nil, 3], "a removed value leaves a hole until squeezed")
        XCTAssertEqual(list.remove(first)?.id, 1)
        XCTAssertEqual(list.remove(third)?.id, 3)
        XCTAssertTrue(list.isEmpty)
        // Emptied, it starts over with an inline value, under a fresh key.
        let fourth = list.insert(Box(4))
        XCTAssertGreaterThan(fourth, third, "keys are never reused")
        XCTAssertEqual(values(list.slots), [4])
        let fifth = list.insert(Box(5))
        XCTAssertEqual(values(list.slots), [4, 5])
        XCTAssertEqual(list.remove(fourth)?.id, 4)
        XCTAssertEqual(list.remove(fifth)?.id, 5)
    }

    func testSnapshot_isUnaffectedByLaterChanges() {
        var list = KeyedList<Box>()
        let lone = list.insert(Box(1))
        let loneSnapshot = list.slots
        _ = list.insert(Box(2))
        _ = list.remove(lone)
        XCTAssertEqual(values(loneSnapshot), [1])
        let manySnapshot = list.slots
        _ = list.insert(Box(3))
        XCTAssertEqual(values(manySnapshot), [2])
        XCTAssertEqual(values(list.slots), [2, 3])
    }

    func testRemoveAll_returnsEveryValueInOrderAndEmpties() {
        var list = KeyedList<Box>()
        XCTAssertEqual(values(list.removeAll()), [])
        _ = list.insert(Box(1))
        XCTAssertEqual(values(list.removeAll()), [1])
        XCTAssertTrue(list.isEmpty)
        let keys = (1...40).map { list.insert(Box($0)) }
        for key in keys where key % 3 == 0 { list.remove(key) }
        let expected = zip(1..., keys).filter { $0.1 % 3 != 0 }.map(\.0)
        XCTAssertEqual(list.count, expected.count)
        XCTAssertEqual(values(list.removeAll()), expected)
        XCTAssertTrue(list.isEmpty)
        XCTAssertEqual(values(list.slots), [])
    }

    func testRemovalInAnyOrder_squeezesHolesAndKeepsOrder() {
        var list = KeyedList<Box>()
        let keys = (0..<200).map { list.insert(Box($0)) }
        var remaining = Set(0..<200)
        for index in (0..<200).reversed() where index % 3 != 0 {
            XCTAssertEqual(list.remove(keys[index])?.id, index)
            remaining.remove(index)
        }
        XCTAssertEqual(values(list.slots), remaining.sorted())
        XCTAssertLessThan(list.slots.underestimatedCount, 200, "holes were squeezed out")
        for index in remaining.sorted() { XCTAssertEqual(list.remove(keys[index])?.id, index) }
        XCTAssertTrue(list.isEmpty)
    }

    func testArrayLiteral_isAnEmptySnapshot() {
        let empty: KeyedList<Box>.Slots = []
        XCTAssertTrue(empty.isEmpty)
        XCTAssertEqual(values(empty), [])
    }

    func testReplace_swapsTheValueUnderAKeyAndReportsMissingKeys() {
        var list = KeyedList<Box>()
        let lone = list.insert(Box(1))
        XCTAssertTrue(list.contains(lone))
        XCTAssertFalse(list.contains(lone &+ 1))
        XCTAssertNil(list.replace(lone &+ 1, with: Box(9)), "an unknown key stores nothing")
        XCTAssertEqual(list.replace(lone, with: Box(2))?.id, 1, "the lone value is replaced inline")
        XCTAssertEqual(values(list.slots), [2])
        let second = list.insert(Box(3))
        let third = list.insert(Box(4))
        XCTAssertEqual(list.replace(second, with: Box(30))?.id, 3)
        XCTAssertEqual(values(list.slots), [2, 30, 4], "replacing keeps registration order")
        list.remove(third)
        XCTAssertFalse(list.contains(third), "a removed key is gone")
        XCTAssertNil(list.replace(third, with: Box(40)), "a removed key's hole is not refilled")
        XCTAssertEqual(values(list.slots), [2, 30])
        XCTAssertEqual(list.count, 2)
        XCTAssertTrue(list.contains(lone) && list.contains(second))
    }
}

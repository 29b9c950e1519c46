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
        XCTAssertEqual(values(list.slots), [3, 2], "the freed first slot goes to the next value")
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

    func testNewestFirstRemoval_leavesNoHoles() {
        var list = KeyedList<Box>()
        let keys = (0..<40).map { list.insert(Box($0)) }
        for index in (10..<40).reversed() {
            XCTAssertEqual(list.remove(keys[index])?.id, index)
            XCTAssertEqual(list.slots.count, index, "the newest slot is dropped, not left as a hole")
        }
        XCTAssertEqual(iterated(list.slots), Array(0..<10))
    }

    func testNewestRemoval_dropsTheHolesBeforeIt() {
        var list = KeyedList<Box>()
        let keys = (0..<6).map { list.insert(Box($0)) }
        list.remove(keys[3])
        list.remove(keys[4])
        XCTAssertEqual(iterated(list.slots), [0, 1, 2, nil, nil, 5])
        XCTAssertEqual(list.remove(keys[5])?.id, 5)
        XCTAssertEqual(iterated(list.slots), [0, 1, 2], "the holes before the newest slot go with it")
        XCTAssertEqual(list.count, 3)
        XCTAssertNil(list.remove(keys[4]), "a key dropped with its hole removes nothing")
        let again = list.insert(Box(6))
        XCTAssertEqual(iterated(list.slots), [0, 1, 2, 6])
        XCTAssertEqual(list.remove(again)?.id, 6)
    }

    func testOldestFirstRemoval_keepsOrderAndFindsEveryKey() {
        var list = KeyedList<Box>()
        let keys = (0..<100).map { list.insert(Box($0)) }
        list.remove(keys[1])  // a hole right after the oldest value
        for index in 0..<99 where index != 1 {
            XCTAssertEqual(list.remove(keys[index])?.id, index)
            XCTAssertNil(list.remove(keys[index]), "removing twice is harmless")
            XCTAssertEqual(values(list.slots), Array((index + 1)..<100).filter { $0 != 1 })
        }
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list.remove(keys[99])?.id, 99)
        XCTAssertTrue(list.isEmpty)
    }

    func testMixedRemovalOrders_matchAModel() {
        // A fixed-seed walk through inserts and removals (newest, oldest, any), checked after
        // every step against a model of RxSwift's `Bag` order: a first slot, delivered first and
        // taken by the next insert whenever it is free, then the others in insertion order.
        var generator = SplitMix(seed: 30)
        var list = KeyedList<Box>()
        var first: (key: UInt64, id: Int)?
        var others: [(key: UInt64, id: Int)] = []
        var removed: [UInt64] = []
        for step in 0..<5_000 {
            let roll = generator.next() % 10
            let model = (first.map { [$0] } ?? []) + others
            if model.isEmpty || roll < 4 {
                let entry = (key: list.insert(Box(step)), id: step)
                if first == nil { first = entry } else { others.append(entry) }
            } else {
                let position: Int
                switch roll {
                case 4, 5: position = model.count - 1
                case 6, 7: position = 0
                default: position = Int(generator.next() % UInt64(model.count))
                }
                let (key, id) = model[position]
                if first?.key == key { first = nil } else { others.removeAll { $0.key == key } }
                XCTAssertEqual(list.remove(key)?.id, id)
                removed.append(key)
            }
            if let stale = removed.last, roll == 9 { XCTAssertNil(list.remove(stale)) }
            let expected = (first.map { [$0] } ?? []) + others
            XCTAssertEqual(values(list.slots), expected.map(\.id))
            XCTAssertEqual(list.count, expected.count)
            for entry in expected where step % 97 == 0 { XCTAssertTrue(list.contains(entry.key)) }
        }
    }

    /// RxSwift's `Bag` order: the first observer's slot goes to the next one once it is free.
    func testFreedFirstSlot_goesToTheNextInsert() {
        var list = KeyedList<Box>()
        let a = list.insert(Box(1))
        let b = list.insert(Box(2))
        list.remove(a)
        let c = list.insert(Box(3))
        XCTAssertEqual(values(list.slots), [3, 2])
        let d = list.insert(Box(4))
        XCTAssertEqual(values(list.slots), [3, 2, 4])
        list.remove(b)
        let e = list.insert(Box(5))
        XCTAssertEqual(values(list.slots), [3, 4, 5])
        XCTAssertEqual(list.remove(c)?.id, 3)
        XCTAssertEqual(values(list.slots), [4, 5])
        _ = list.insert(Box(6))
        XCTAssertEqual(values(list.slots), [6, 4, 5])
        XCTAssertEqual(list.remove(d)?.id, 4)
        XCTAssertEqual(list.remove(e)?.id, 5)
        XCTAssertNil(list.remove(b))
        XCTAssertEqual(values(list.slots), [6])
    }

    /// A small deterministic generator (SplitMix64) for the model test.
    private struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
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

    func testReservedKey_holdsNothingUntilInsertedAndKeepsKeyOrder() {
        var list = KeyedList<Box>()
        let reserved = list.reserveKey()
        XCTAssertTrue(list.isEmpty, "a reserved key holds no slot")
        XCTAssertFalse(list.contains(reserved))
        let later = list.insert(Box(2))
        XCTAssertGreaterThan(later, reserved, "a reserved key is never handed out again")
        list.insert(Box(1), reservedKey: reserved)
        XCTAssertEqual(values(list.slots), [1, 2], "an older reserved key goes before newer ones (inline lone value)")
        let newest = list.reserveKey()
        list.insert(Box(3), reservedKey: newest)
        XCTAssertEqual(values(list.slots), [1, 2, 3], "the newest reserved key goes last")
        XCTAssertEqual(list.remove(newest)?.id, 3)
        XCTAssertEqual(list.remove(reserved)?.id, 1)
        XCTAssertEqual(list.remove(later)?.id, 2)
        XCTAssertTrue(list.isEmpty)
        let lone = list.reserveKey()
        list.insert(Box(4), reservedKey: lone)
        XCTAssertEqual(values(list.slots), [4])
        XCTAssertEqual(list.remove(lone)?.id, 4, "a lone reserved value is held inline and found")
    }

    func testReservedKey_olderThanStoredKeys_isInsertedInOrderBeforeHoles() {
        var list = KeyedList<Box>()
        let keys = (0..<4).map { _ in list.insert(Box(0)) }
        let reserved = list.reserveKey()
        let newer = (0..<4).map { _ in list.insert(Box(0)) }
        // Holes at the front (oldest-first removal moves `front` past them).
        for key in keys { list.remove(key) }
        list.insert(Box(5), reservedKey: reserved)
        XCTAssertTrue(list.contains(reserved))
        XCTAssertEqual(list.count, 5)
        XCTAssertEqual(iterated(list.slots).compactMap { $0 }.first, 5, "inserted before the newer keys")
        for key in newer { XCTAssertEqual(list.remove(key)?.id, 0) }
        XCTAssertEqual(list.remove(reserved)?.id, 5)
        XCTAssertTrue(list.isEmpty)
    }

    /// Inserting takes one reference and removing hands it back (moved, not copied): once the
    /// removed value is dropped nothing holds it, whether it was the lone value, the newest, the
    /// oldest or one in the middle; values still in the list stay alive.
    func testRemoval_handsBackTheOnlyReference() {
        var list = KeyedList<Box>()
        weak var lone: Box?
        do {
            let box = Box(0)
            lone = box
            let key = list.insert(box)
            XCTAssertEqual(list.remove(key)?.id, 0)
        }
        XCTAssertNil(lone, "the lone value is released once removed")

        var watched: [Box?] = []
        var keys: [UInt64] = []
        do {
            let boxes = (1...5).map(Box.init)
            keys = boxes.map { list.insert($0) }
            watched = boxes
        }
        weak let oldest = watched[0], middle = watched[2], newest = watched[4], kept = watched[3]
        watched = []
        XCTAssertNotNil(oldest, "the list holds its values")
        XCTAssertEqual(list.remove(keys[0])?.id, 1)
        XCTAssertNil(oldest, "the oldest is released once removed")
        XCTAssertEqual(list.remove(keys[2])?.id, 3)
        XCTAssertNil(middle, "a middle value is released once removed (its slot holds nothing)")
        XCTAssertEqual(list.remove(keys[4])?.id, 5)
        XCTAssertNil(newest, "the newest is released once removed")
        XCTAssertNotNil(kept, "the others stay")
        XCTAssertEqual(values(list.slots), [2, 4])
        _ = list.removeAll()
        XCTAssertNil(kept, "removeAll hands back the last references")
    }

    /// Oldest-first removal (a ``DisposeBag`` emptying) moves nothing: snapshots start at the first
    /// value (no leading holes to walk), an append into a full buffer reuses the front holes'
    /// room instead of growing it, and every key is still found, in order.
    func testOldestFirstRemoval_snapshotsSkipFrontHolesAndAppendsReuseTheirRoom() {
        var list = KeyedList<Box>()
        var keys = (0..<64).map { list.insert(Box($0)) }
        for key in keys.prefix(40) { XCTAssertNotNil(list.remove(key)) }
        XCTAssertEqual(iterated(list.slots), Array(40..<64), "no leading holes in the snapshot")
        XCTAssertEqual(list.slots.count, 24)
        let capacity = list.bufferCapacity
        var next = 64
        for _ in 0..<(capacity - 64 + 8) {
            keys.append(list.insert(Box(next)))
            next += 1
        }
        XCTAssertEqual(list.bufferCapacity, capacity, "the front holes' room was reused, not grown")
        // The first value inserted after the first slot was freed took it (RxSwift's order).
        XCTAssertEqual(values(list.slots), [64] + Array(40..<64) + Array(65..<next))
        for (id, key) in keys.enumerated() { XCTAssertEqual(list.contains(key), id >= 40) }
        XCTAssertEqual(list.remove(keys[50])?.id, 50, "found after the block move")
        for key in keys.dropFirst(40) { list.remove(key) }
        XCTAssertTrue(list.isEmpty)
        XCTAssertTrue(list.slots.isEmpty)
        XCTAssertEqual(list.bufferCapacity, 0, "an emptied large list frees its buffer")
        let again = list.insert(Box(1))
        _ = list.insert(Box(2))
        XCTAssertEqual(iterated(list.slots), [1, 2])
        XCTAssertEqual(list.remove(again)?.id, 1)
    }
}

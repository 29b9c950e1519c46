/// Values registered under increasing keys, kept in registration order, with removal by key in
/// any order (a subject's observers: `ObserverList`).
///
/// Meant for class references: a hole is an `Optional` `nil`, which for a class is a null
/// pointer. (For an existential such as `any Disposable`, storing and clearing optionals goes
/// through the runtime's generic value witnesses, which cost more than the hashing of a
/// dictionary: `CompositeDisposable` keeps its dictionary.)
///
/// Removal leaves a hole (`nil`) instead of shifting the values after it; the holes are squeezed
/// out once they are more than half of the slots, so removing is O(log n) to find the key plus
/// O(1) amortized, whatever the order of removal (see Guides/Performance.md, "Unsubscribing").
/// Readers of `slots` skip the holes.
struct KeyedList<Value> {
    /// The slots, holes included.
    typealias Slots = ContiguousArray<Value?>

    /// The slots, in registration order; `nil` where a value was removed.
    private(set) var slots: Slots = []
    /// The key of each slot (holes keep theirs), so it is sorted: keys are handed out in
    /// increasing order and slots keep registration order.
    private var keys: ContiguousArray<UInt64> = []
    private var holes = 0
    private var nextKey: UInt64 = 0

    /// The largest capacity an emptied list keeps (larger buffers are freed).
    private static var keptCapacity: Int { 16 }

    /// The number of values held.
    var count: Int { slots.count - holes }

    /// Whether no value is held.
    var isEmpty: Bool { slots.count == holes }

    /// Adds `value` under a new key, which it returns.
    mutating func insert(_ value: Value) -> UInt64 {
        let key = nextKey
        nextKey &+= 1
        slots.append(value)
        keys.append(key)
        return key
    }

    /// Removes the value registered under `key` and returns it, so the caller can release it
    /// after leaving its lock (dropping the last reference may run arbitrary deinit code);
    /// `nil` if there is none (removed already, or never registered).
    ///
    /// - Complexity: O(log n) to find it, O(1) amortized to remove it.
    @discardableResult
    mutating func remove(_ key: UInt64) -> Value? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = low &+ (high &- low) / 2
            if keys[middle] < key { low = middle &+ 1 } else { high = middle }
        }
        guard low < keys.count, keys[low] == key, let value = slots[low] else { return nil }
        slots[low] = nil
        holes &+= 1
        if holes == slots.count {
            // Emptied: a small list keeps its buffers, so a subscribe/dispose cycle on it (one
            // subscriber coming and going, one flatMap inner after another) allocates nothing.
            // (`removeLast()` in a loop: `removeAll(keepingCapacity:)` goes through the generic
            // `replaceSubrange`, ~100 instructions.)
            if slots.capacity <= Self.keptCapacity {
                while !slots.isEmpty {
                    slots.removeLast()
                    keys.removeLast()
                }
            } else {
                slots = []
                keys = []
            }
            holes = 0
        } else if holes > 16 && holes &* 2 > slots.count {
            squeeze()
        }
        return value
    }

    /// Drops the holes (O(n), run after n/2 removals at the least).
    private mutating func squeeze() {
        var kept = 0
        for index in slots.indices where slots[index] != nil {
            slots.swapAt(kept, index)
            keys[kept] = keys[index]
            kept &+= 1
        }
        slots.removeLast(slots.count &- kept)
        keys.removeLast(keys.count &- kept)
        holes = 0
    }

    /// Removes every value and returns the slots (holes included), for release after the lock.
    mutating func removeAll() -> Slots {
        defer {
            slots = []
            keys = []
            holes = 0
        }
        return slots
    }
}

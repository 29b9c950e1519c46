/// Values registered under increasing keys, kept in registration order, with removal by key in
/// any order (a subject's observers: `ObserverList`).
///
/// Meant for class references: a hole is an `Optional` `nil`, which for a class is a null
/// pointer. (For an existential such as `any Disposable`, storing and clearing optionals goes
/// through the runtime's generic value witnesses, which cost more than the hashing of a
/// dictionary: ``CompositeDisposable`` keeps its dictionary.)
///
/// Removal leaves a hole (`nil`) instead of shifting the values after it; the holes after the
/// first value are squeezed out once they are more than half of the slots from it, so removing is
/// O(log n) to find the key plus O(1) amortized, whatever the order of removal (see
/// <doc:Performance>, "Unsubscribing"). The holes before the first value (oldest-first removal, a
/// ``DisposeBag`` emptying) are never walked: snapshots start at the first value, and those slots
/// are reclaimed when the buffer would otherwise grow, or all at once when the list empties.
/// The newest and the oldest value are found without a search (the orders in which subscriptions
/// usually end: last-in first-out, or a ``DisposeBag`` releasing in insertion order), and the
/// newest leaves no hole: its slot is dropped, with the holes before it.
/// Readers of `slots` skip the holes. A lone value is held inline, without a buffer.
///
/// The order is RxSwift's `Bag`'s (which decides the order in which a subject's observers get
/// each element): the first value inserted holds a first slot, delivered before the others;
/// once that value is removed while others remain, the next value `insert(_:)` adds takes the
/// first slot again (it goes first), and every other value goes after the ones already there.
/// (RxSwift keeps more than 31 values partly in a dictionary, in no defined order; here they
/// stay in insertion order.) So the first slot's key may be newer than the keys after it: it is
/// the one key out of order, always at `front` while the first slot is held.
struct KeyedList<Value> {
    /// A snapshot of the values (holes included, as `nil`), in registration order, for delivery
    /// after the lock: the lone value, or the slots.
    struct Slots: Sequence, ExpressibleByArrayLiteral {
        /// One case per shape, so a copy retains one object (the value or the buffer).
        fileprivate enum Shape {
            case single(Value)
            case many(ContiguousArray<Value?>, start: Int)
        }

        fileprivate let shape: Shape

        fileprivate init(single: Value?, many: ContiguousArray<Value?>, start: Int) {
            if let single { shape = .single(single) } else { shape = .many(many, start: start) }
        }

        /// A snapshot of `elements` (`[]`: nothing to deliver).
        init(arrayLiteral elements: Value?...) {
            shape = .many(ContiguousArray(elements), start: 0)
        }

        /// Calls `body` with each value (the holes skipped), in registration order: the delivery
        /// path (a plain loop over the buffer, cheaper than the `Sequence` iterator).
        @inline(__always)
        func forEachValue(_ body: (Value) -> Void) {
            switch shape {
            case .single(let value): body(value)
            case .many(let slots, let start):
                for index in start..<slots.count {
                    if let value = slots[index] { body(value) }
                }
            }
        }

        /// Walks the slots, holes included (as `nil`).
        struct Iterator: IteratorProtocol {
            fileprivate var single: Value?
            fileprivate var many: IndexingIterator<ArraySlice<Value?>>

            mutating func next() -> Value?? {
                if let value = single {
                    single = nil
                    return .some(value)
                }
                return many.next()
            }
        }

        func makeIterator() -> Iterator {
            switch shape {
            case .single(let value): return Iterator(single: value, many: ArraySlice().makeIterator())
            case .many(let slots, let start): return Iterator(single: nil, many: slots[start...].makeIterator())
            }
        }

        /// The number of slots, holes included.
        var count: Int {
            switch shape {
            case .single: return 1
            case .many(let slots, let start): return slots.count &- start
            }
        }

        var underestimatedCount: Int { count }

        /// Whether there are no slots at all (holes count as slots).
        var isEmpty: Bool {
            if case .many(let slots, let start) = shape { return slots.count == start }
            return false
        }
    }

    /// The value held while it is the only one (`buffer` is then empty): a list that never holds
    /// two values at once (most subjects, one ``ObservableType/flatMap(_:)`` inner at a time) allocates nothing.
    private var single: Value?
    private var singleKey: UInt64 = 0
    /// The slots once two values were held at once, in registration order; `nil` where a value
    /// was removed.
    private var buffer: ContiguousArray<Value?> = []
    /// The key of each slot of `buffer` (holes keep theirs), so it is sorted: keys are handed
    /// out in increasing order and slots keep registration order.
    private var keys: ContiguousArray<UInt64> = []
    private var holes = 0
    /// The first slot that may hold a value: every slot before it is a hole.
    private var front = 0
    /// Whether the first slot (RxSwift's `Bag` slot 0) is free while the buffer holds values:
    /// the next `insert(_:)` then goes before them. While it is not, the value at `front` is the
    /// first slot's (the only key that may be out of order).
    private var firstSlotFree = false
    private var nextKey: UInt64 = 0

    /// The largest capacity an emptied list keeps (larger buffers are freed).
    private static var keptCapacity: Int { 16 }

    /// The values, in registration order, holes included (for delivery after the lock), from the
    /// first value on (the holes before it are left out).
    var slots: Slots { Slots(single: single, many: buffer, start: front) }

    /// The capacity of the buffer (kept when a small list empties; 0 while a lone value is inline).
    var bufferCapacity: Int { buffer.capacity }

    /// The number of values held.
    var count: Int { buffer.count - holes + (single == nil ? 0 : 1) }

    /// Whether no value is held.
    var isEmpty: Bool { single == nil && buffer.count == holes }

    /// Adds `value` under a new key, which it returns.
    ///
    /// `value` is taken owned (`consuming`): a caller that holds a +1 reference (a subject's new
    /// node) hands it over instead of the list retaining it and the caller releasing its own.
    mutating func insert(_ value: consuming Value) -> UInt64 {
        let key = nextKey
        nextKey &+= 1
        if buffer.isEmpty {
            guard let lone = single else {
                single = value
                singleKey = key
                return key
            }
            // A second value: both go to the buffer, the older first.
            buffer.append(lone)
            keys.append(singleKey)
            single = nil
        } else if firstSlotFree {
            // Into the first slot: before every value held (in the hole before them, if any).
            firstSlotFree = false
            if front > 0 {
                front &-= 1
                holes &-= 1
                buffer[front] = value
                keys[front] = key
            } else {
                buffer.insert(value, at: 0)
                keys.insert(key, at: 0)
            }
            return key
        } else {
            reclaimFrontIfFull()
        }
        buffer.append(value)
        keys.append(key)
        return key
    }

    /// Takes the next key without storing anything under it yet (see `insert(_:reservedKey:)`):
    /// a caller that may never store the value (``ObservableType/flatMap(_:)``'s inner sequence
    /// that completes while it is being subscribed) then touches no slot at all.
    mutating func reserveKey() -> UInt64 {
        defer { nextKey &+= 1 }
        return nextKey
    }

    /// Adds `value` under `key`, a key from `reserveKey()` that holds nothing yet. Usually it is
    /// newer than every stored key (the caller stores values in reservation order) and goes last;
    /// an older one is put in key order, so lookups stay correct either way. (A list takes its
    /// values either all through this or all through `insert(_:)`: this keeps key order and
    /// leaves the first slot free.)
    mutating func insert(_ value: Value, reservedKey key: UInt64) {
        if buffer.isEmpty {
            guard let lone = single else {
                single = value
                singleKey = key
                return
            }
            // A second value: both go to the buffer, in key order (no first slot: the values
            // stay in key order, so every key is in order).
            single = nil
            firstSlotFree = true
            if singleKey < key {
                buffer.append(lone)
                keys.append(singleKey)
                buffer.append(value)
                keys.append(key)
            } else {
                buffer.append(value)
                keys.append(key)
                buffer.append(lone)
                keys.append(singleKey)
            }
            return
        }
        reclaimFrontIfFull()
        guard let newest = keys.last, newest > key else {
            buffer.append(value)
            keys.append(key)
            return
        }
        // Older than a stored key: insert before the first newer one.
        var index = keys.count &- 1
        while index > 0 && keys[index &- 1] > key { index &-= 1 }
        buffer.insert(value, at: index)
        keys.insert(key, at: index)
        if index < front { front = index }
    }

    /// Removes the value registered under `key` and returns it, so the caller can release it
    /// after leaving its lock (dropping the last reference may run arbitrary deinit code);
    /// `nil` if there is none (removed already, or never registered).
    ///
    /// - Complexity: O(log n) to find it, O(1) amortized to remove it.
    @discardableResult
    mutating func remove(_ key: UInt64) -> Value? {
        if single != nil {
            guard key == singleKey else { return nil }
            return single.take()
        }
        let last = keys.count &- 1
        if last >= 0 && keys[last] == key { return removeLast() }
        let index: Int
        if front < last && keys[front] == key {
            index = front
            if !firstSlotFree { firstSlotFree = true }  // the first slot's value
        } else {
            guard let found = bufferIndex(of: key) else { return nil }
            index = found
            if index == front && !firstSlotFree { firstSlotFree = true }
        }
        // Moved out of the slot (`take()`), not copied and then overwritten with `nil`: no
        // retain and release of the value per removal.
        guard let value = buffer[index].take() else { return nil }
        holes &+= 1
        if index == front {
            front &+= 1
            while buffer[front] == nil { front &+= 1 }  // the last slot holds a value
        }
        // Only the holes after `front` are walked by deliveries (and count here).
        let walkedHoles = holes &- front
        if walkedHoles > 16 && walkedHoles &* 2 > buffer.count &- front { squeeze() }
        return value
    }

    /// Drops the holes before `front` when the buffer is full, so that an append reuses their
    /// room instead of growing the buffer (a block move of the live slots, which the append's
    /// reallocation would have copied anyway).
    @inline(__always)
    private mutating func reclaimFrontIfFull() {
        guard front > 0 && buffer.count == buffer.capacity else { return }
        buffer.removeSubrange(0..<front)
        keys.removeSubrange(0..<front)
        holes &-= front
        front = 0
    }

    /// Removes the newest slot's value (`nil` if it is a hole) and drops that slot and the holes
    /// before it, so that removing in last-in first-out order leaves no holes at all.
    private mutating func removeLast() -> Value? {
        guard let value = buffer.removeLast() else {
            // A hole already: put it back (nothing to remove).
            buffer.append(nil)
            return nil
        }
        keys.removeLast()
        if buffer.count == holes {
            // Emptied (only holes left, dropped at once, not one by one): a small list keeps its
            // buffers, so a subscribe/dispose cycle on it (one subscriber coming and going, one
            // flatMap inner after another) allocates nothing.
            if buffer.capacity > Self.keptCapacity {
                buffer = []
                keys = []
            } else {
                buffer.removeAll(keepingCapacity: true)
                keys.removeAll(keepingCapacity: true)
            }
            holes = 0
            front = 0
            firstSlotFree = false
            return value
        }
        // A value is left (at `front` or after it), so this stops there.
        while let tail = buffer.last, tail == nil {
            buffer.removeLast()
            keys.removeLast()
            holes &-= 1
        }
        return value
    }

    /// Puts `value` in place of the one registered under `key` and returns the old one (for
    /// release after the lock); `nil`, storing nothing, if there is none. `value` is only
    /// evaluated when the key is found.
    ///
    /// - Complexity: O(log n).
    @discardableResult
    mutating func replace(_ key: UInt64, with value: @autoclosure () -> Value) -> Value? {
        if let lone = single {
            guard key == singleKey else { return nil }
            single = value()
            return lone
        }
        guard let index = bufferIndex(of: key), let old = buffer[index] else { return nil }
        buffer[index] = value()
        return old
    }

    /// Whether a value is registered under `key`.
    func contains(_ key: UInt64) -> Bool {
        if single != nil { return key == singleKey }
        guard let index = bufferIndex(of: key) else { return false }
        return buffer[index] != nil
    }

    /// The buffer index of `key` (the first slot's, else a binary search of the slots after
    /// it: their keys only grow), or `nil`. Slots before `front` are holes and not searched.
    private func bufferIndex(of key: UInt64) -> Int? {
        var low = front
        if !firstSlotFree && low < keys.count {
            if keys[low] == key { return low }
            low &+= 1
        }
        var high = keys.count
        while low < high {
            let middle = low &+ (high &- low) / 2
            if keys[middle] < key { low = middle &+ 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key ? low : nil
    }

    /// Drops the holes (O(n), run after n/2 removals at the least).
    private mutating func squeeze() {
        if holes == front {
            // Every hole is before `front` (oldest-first removal): one block move.
            buffer.removeSubrange(0..<front)
            keys.removeSubrange(0..<front)
            holes = 0
            front = 0
            return
        }
        var kept = 0
        for index in buffer.indices where buffer[index] != nil {
            buffer.swapAt(kept, index)
            keys[kept] = keys[index]
            kept &+= 1
        }
        buffer.removeLast(buffer.count &- kept)
        keys.removeLast(keys.count &- kept)
        holes = 0
        front = 0
    }

    /// Removes every value and returns the slots (holes included), for release after the lock.
    mutating func removeAll() -> Slots {
        defer {
            single = nil
            buffer = []
            keys = []
            holes = 0
            front = 0
            firstSlotFree = false
        }
        return slots
    }
}

/// A first-in first-out queue with amortized O(1) `append` and `popFirst`.
///
/// `Array.removeFirst()` shifts every remaining element, so a queue that stays long (a producer
/// outrunning its drainer) costs O(n) per element and can fall behind for good. This keeps a
/// head index instead and compacts the storage only when the consumed prefix is at least half of
/// it, so memory stays proportional to what is queued even when the queue never fully empties.
package struct FIFOQueue<Element> {
    private var storage: ContiguousArray<Element?> = []
    private var head = 0

    /// An empty queue.
    package init() {}

    /// Whether nothing is queued.
    package var isEmpty: Bool { head == storage.count }

    /// How many elements are queued.
    package var count: Int { storage.count - head }

    /// The slots the storage holds, consumed ones included (at most about twice `count` once
    /// 64 have been consumed): for tests of the memory bound.
    package var storageCount: Int { storage.count }

    /// The oldest element, if any, without removing it.
    package var first: Element? { isEmpty ? nil : storage[head] }

    /// Adds `element` at the back.
    package mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the oldest element, or `nil` when the queue is empty.
    package mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head].take()
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.count <= 64)
            head = 0
        } else if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes every element.
    package mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}

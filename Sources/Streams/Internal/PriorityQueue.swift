/// A binary min-heap ordered by `isBefore`; ties must be broken by the caller (e.g. by sequence number).
struct PriorityQueue<Element> {
    private var heap: [Element] = []
    private let isBefore: (Element, Element) -> Bool

    init(isBefore: @escaping (Element, Element) -> Bool) {
        self.isBefore = isBefore
    }

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    var first: Element? { heap.first }

    mutating func insert(_ element: Element) {
        heap.append(element)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard isBefore(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> Element? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var best = parent
            if left < heap.count, isBefore(heap[left], heap[best]) { best = left }
            if right < heap.count, isBefore(heap[right], heap[best]) { best = right }
            if best == parent { break }
            heap.swapAt(parent, best)
            parent = best
        }
        return first
    }

    /// Removes every element matching `predicate` (O(n)).
    mutating func removeAll(where predicate: (Element) -> Bool) {
        let kept = heap.filter { !predicate($0) }
        heap = []
        for element in kept { insert(element) }
    }
}

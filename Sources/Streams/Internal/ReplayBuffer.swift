/// The elements a replaying subject keeps (``ReplaySubject``, `share(replay:)`, ``ObservableType/replay(_:)``):
/// the latest `limit` (a ring), or all when `limit` is nil.
struct ReplayBuffer<Element> {
    private let limit: Int?
    private var storage: ContiguousArray<Element> = []
    /// Index of the oldest element once a bounded buffer is full.
    private var start = 0

    init(limit: Int?) {
        self.limit = limit.map { max(0, $0) }
    }

    /// A buffer of `capacity` elements; `Int.max` means unbounded, negative means 0.
    init(capacity: Int) {
        self.init(limit: capacity == Int.max ? nil : capacity)
    }

    /// Whether nothing is buffered.
    var isEmpty: Bool { storage.isEmpty }

    /// Adds `element`; returns the element it evicted from a full bounded buffer (or
    /// `element` itself when `limit` is 0), so the caller can release it outside its lock.
    @discardableResult
    mutating func append(_ element: Element) -> Element? {
        guard let limit else {
            storage.append(element)
            return nil
        }
        if storage.count < limit {
            storage.append(element)
            return nil
        }
        guard limit > 0 else { return element }
        let evicted = storage[start]
        storage[start] = element
        start += 1
        if start == limit { start = 0 }
        return evicted
    }

    /// Adds the element in `slot` and leaves in `slot` what the caller must release after its
    /// lock: the element evicted from a full bounded buffer, or (when nothing was evicted) a copy
    /// of the element itself. No `Optional<Element>`, so unspecialized callers look up no
    /// metadata per element.
    mutating func push(_ slot: inout Element) {
        guard let limit else {
            storage.append(slot)
            return
        }
        if storage.count < limit {
            storage.append(slot)
            return
        }
        guard limit > 0 else { return }
        swap(&storage[start], &slot)
        start += 1
        if start == limit { start = 0 }
    }

    /// The buffered elements, oldest first.
    var elements: [Element] {
        if start == 0 { return Array(storage) }
        return Array(storage[start...]) + Array(storage[..<start])
    }

    mutating func removeAll() {
        storage = []
        start = 0
    }
}

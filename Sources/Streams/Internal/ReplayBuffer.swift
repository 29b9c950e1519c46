/// The elements a replaying subject keeps (``ReplaySubject``, `share(replay:)`, ``ObservableType/replay(_:)``):
/// the latest `limit` (a ring), or all when `limit` is nil.
///
/// The elements live in a `ReplayStorage` (a class holding raw memory), shared between copies
/// of the buffer and copied before a shared one is changed. Not a `ContiguousArray`: in the
/// unspecialized code of the subjects, every mutation of a `ContiguousArray<Element>` asked the
/// runtime for its metadata (~300 instructions per element replayed by `share(replay: 1)`; see
/// <doc:Performance>), while raw memory needs only the element's own value witnesses. The
/// buffer holds the storage by its non-generic base class, so checking and reading it looks up
/// no metadata either (only creating, growing or copying a storage does).
struct ReplayBuffer<Element> {
    private let limit: Int?
    /// The elements (`nil` while there are none): in order from index 0 until a bounded buffer
    /// is full, then a ring whose oldest element is at `start`.
    private var storage: ReplayStorageBase?
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
    var isEmpty: Bool { (storage?.count ?? 0) == 0 }

    /// Adds `element`; returns the element it evicted from a full bounded buffer (or
    /// `element` itself when `limit` is 0), so the caller can release it outside its lock.
    @discardableResult
    mutating func append(_ element: Element) -> Element? {
        if limit == 0 { return element }
        var slot = element
        guard evict(into: &slot) else { return nil }
        return slot
    }

    /// Adds the element in `slot` and leaves in `slot` what the caller must release after its
    /// lock: the element evicted from a full bounded buffer, or (when nothing was evicted) a copy
    /// of the element itself. No `Optional<Element>`, so unspecialized callers look up no
    /// metadata per element.
    @inline(__always)  // a call to a generic struct's method passes its metadata: a lookup per element
    mutating func push(_ slot: inout Element) {
        if limit == 0 { return }
        evict(into: &slot)
    }

    /// Stores a copy of `slot`'s element; when that evicts the oldest one (a full bounded
    /// buffer), leaves the evicted element in `slot` and returns `true`.
    @inline(__always)
    @discardableResult
    private mutating func evict(into slot: inout Element) -> Bool {
        makeUnique()
        var storage = self.storage.unsafelyUnwrapped
        if let limit, storage.count == limit {
            swap(&(storage.raw.assumingMemoryBound(to: Element.self) + start).pointee, &slot)
            start &+= 1
            if start == limit { start = 0 }
            return true
        }
        if storage.count == storage.capacity {
            grow()
            storage = self.storage.unsafelyUnwrapped
        }
        (storage.raw.assumingMemoryBound(to: Element.self) + storage.count).initialize(to: slot)
        storage.count &+= 1
        return false
    }

    /// Makes `storage` one this buffer alone holds: created if there is none, copied if it is
    /// shared with another buffer.
    @inline(__always)
    private mutating func makeUnique() {
        if isKnownUniquelyReferenced(&storage) { return }
        if let shared = storage {
            storage = ReplayStorage<Element>.copy(of: shared)
        } else {
            storage = ReplayStorage<Element>(capacity: Swift.min(limit ?? Int.max, 16))
        }
    }

    /// Moves the elements to a storage twice as large (at most `limit`); only before a bounded
    /// buffer is full, so they are in order from index 0.
    @inline(never)
    private mutating func grow() {
        let old = storage.unsafelyUnwrapped
        let capacity = Swift.min(limit ?? Int.max, Swift.max(16, old.capacity &* 2))
        storage = ReplayStorage<Element>.moving(from: old, toCapacity: capacity)
    }

    /// The buffered elements, oldest first.
    var elements: [Element] {
        guard let storage else { return [] }
        let all = UnsafeBufferPointer(start: storage.raw.assumingMemoryBound(to: Element.self), count: storage.count)
        if start == 0 { return Array(all) }
        return Array(all[start...]) + Array(all[..<start])
    }

    mutating func removeAll() {
        storage = nil
        start = 0
    }
}

/// The memory of a `ReplayBuffer`: `count` initialized elements at `raw`, room for `capacity`.
/// Not generic, so that a buffer can check and read it without the runtime's help (see
/// `ReplayBuffer`); `ReplayStorage` knows the element type and frees the elements.
class ReplayStorageBase {
    let raw: UnsafeMutableRawPointer
    let capacity: Int
    /// The number of initialized elements (changed by the one buffer holding the storage alone).
    /// Not checked for exclusive access at run time (a class's stored property is, on every
    /// access: ~76 instructions per element through `share(replay: 1)`): every buffer lives in
    /// its owner's lock-guarded state, and a storage is written only by the buffer that holds it
    /// uniquely (`makeUnique()` copies a shared one first).
    @exclusivity(unchecked) final var count = 0

    init(raw: UnsafeMutableRawPointer, capacity: Int) {
        self.raw = raw
        self.capacity = capacity
    }
}

/// A `ReplayStorageBase` of `Element`s.
final class ReplayStorage<Element>: ReplayStorageBase {
    init(capacity: Int) {
        super.init(raw: UnsafeMutableRawPointer(UnsafeMutablePointer<Element>.allocate(capacity: capacity)), capacity: capacity)
    }

    deinit {
        let base = raw.assumingMemoryBound(to: Element.self)
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// A storage of the same capacity holding copies of `other`'s elements, in the same slots.
    static func copy(of other: ReplayStorageBase) -> ReplayStorage<Element> {
        let copy = ReplayStorage(capacity: other.capacity)
        copy.raw.assumingMemoryBound(to: Element.self).initialize(from: other.raw.assumingMemoryBound(to: Element.self), count: other.count)
        copy.count = other.count
        return copy
    }

    /// A storage of `capacity` (at least `other.count`) that `other`'s elements are moved to,
    /// leaving `other` empty.
    static func moving(from other: ReplayStorageBase, toCapacity capacity: Int) -> ReplayStorage<Element> {
        let moved = ReplayStorage(capacity: capacity)
        moved.raw.assumingMemoryBound(to: Element.self).moveInitialize(from: other.raw.assumingMemoryBound(to: Element.self), count: other.count)
        moved.count = other.count
        other.count = 0
        return moved
    }
}

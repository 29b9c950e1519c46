import Synchronization

/// A process-wide, lock-free cache of the generic sink types that subscribing creates, keyed by
/// the identities of the two types they are built from.
///
/// In an operator's unspecialized `run(_:cancel:)`, naming `MapSink<Source, Result, Observer>`
/// asks the runtime for that type's metadata: a lookup in its concurrent hash map, ~330
/// instructions, once per sink of every subscription. The sink type is a function of the
/// producer's own (dynamic) type and the observer's type, both of which the unspecialized code
/// has for free, so a small table keyed by the pair answers in ~20 instructions (see the
/// producers of ``ObservableType/map(_:)`` and ``ObservableType/filter(_:)``, and <doc:Performance>).
///
/// The table has a fixed number of slots, each an `Atomic` pointer to an immutable entry
/// (owner, observer, metatype) that is never freed: an entry is published with a releasing
/// compare-exchange into an empty slot and read with an acquiring load, so a reader that sees
/// the pointer sees the entry. A pair that finds neither its entry nor an empty slot within
/// `maxProbes` is not cached (`make()` runs every time: the runtime's own lookup). A program
/// has as many entries as distinct (operator, observer) type pairs it subscribes.
enum MetatypeCache {
    @inline(__always) private static var capacityBits: Int { 10 }
    @inline(__always) private static var maxProbes: Int { 8 }

    /// The table's address, 0 until the first lookup allocates it (statically initialized: no
    /// `swift_once` per lookup).
    private static let address = Atomic<UInt>(0)

    /// One cached type: immutable once published.
    private struct Entry {
        let owner: UnsafeRawPointer
        let observer: UnsafeRawPointer
        let type: UnsafeRawPointer

        /// Whether this entry is the one for (`owner`, `observer`).
        @inline(__always)
        func matches(_ owner: UnsafeRawPointer, _ observer: UnsafeRawPointer) -> Bool {
            self.owner == owner && self.observer == observer
        }
    }

    /// The metatype `make()` returns for (`owner`, `observer`), as a raw pointer for the caller
    /// to bit-cast back to the type it names in `make`. The caller must build the same type for
    /// the same pair every time (the pair must determine the type).
    @inline(__always)
    static func type(owner: Any.Type, observer: Any.Type, make: () -> Any.Type) -> UnsafeRawPointer {
        lookUp(owner: owner, observer: observer, in: table, capacityBits: capacityBits, make: make)
    }

    /// The metatype `make()` returns for (`owner`, the fused stage that `owner` makes with a next
    /// stage producing `Result`s): the type of the fused producer that `mapStage(_:)` builds (see
    /// `Observable.mapStage(_:)`), which the pair must determine.
    ///
    /// The key is the result type's metadata address plus one: metadata is pointer-aligned, so
    /// no observer type's key is odd, and these entries never meet the sink entries of the same
    /// owner (even when `Result` is itself an observer type).
    @inline(__always)
    static func stageType(owner: Any.Type, result: Any.Type, make: () -> Any.Type) -> UnsafeRawPointer {
        let ownerKey = unsafeBitCast(owner, to: UnsafeRawPointer.self)
        let stageKey = unsafeBitCast(result, to: UnsafeRawPointer.self) + 1
        return lookUp(ownerKey: ownerKey, observerKey: stageKey, in: table, capacityBits: capacityBits, make: make)
    }

    /// `type(owner:observer:make:)` on a given table of `1 << capacityBits` slots (tests use
    /// small ones of their own to fill them).
    @inline(__always)
    static func lookUp(
        owner: Any.Type, observer: Any.Type, in slots: UnsafeMutablePointer<Atomic<UInt>>, capacityBits: Int,
        make: () -> Any.Type
    ) -> UnsafeRawPointer {
        lookUp(
            ownerKey: unsafeBitCast(owner, to: UnsafeRawPointer.self), observerKey: unsafeBitCast(observer, to: UnsafeRawPointer.self),
            in: slots, capacityBits: capacityBits, make: make)
    }

    /// The lookup itself, on the two keys (type metadata addresses, or a tagged one).
    @inline(__always)
    private static func lookUp(
        ownerKey: UnsafeRawPointer, observerKey: UnsafeRawPointer, in slots: UnsafeMutablePointer<Atomic<UInt>>, capacityBits: Int,
        make: () -> Any.Type
    ) -> UnsafeRawPointer {
        let mask = 1 &<< capacityBits &- 1
        var index = home(ownerKey, observerKey, capacityBits: capacityBits)
        for _ in 0..<min(maxProbes, mask &+ 1) {
            let current = slots[index].load(ordering: .acquiring)
            if current == 0 { break }
            let entry = UnsafePointer<Entry>(bitPattern: current).unsafelyUnwrapped
            if entry.pointee.matches(ownerKey, observerKey) {
                return entry.pointee.type
            }
            index = (index &+ 1) & mask
        }
        return insert(ownerKey, observerKey, unsafeBitCast(make(), to: UnsafeRawPointer.self), in: slots, capacityBits: capacityBits)
    }

    /// Publishes a new entry in the first empty slot of its probe sequence (or finds that another
    /// thread published the same one first); returns the metatype either way.
    @inline(never)
    private static func insert(
        _ owner: UnsafeRawPointer, _ observer: UnsafeRawPointer, _ type: UnsafeRawPointer,
        in slots: UnsafeMutablePointer<Atomic<UInt>>, capacityBits: Int
    ) -> UnsafeRawPointer {
        let entry = UnsafeMutablePointer<Entry>.allocate(capacity: 1)
        entry.initialize(to: Entry(owner: owner, observer: observer, type: type))
        let bits = UInt(bitPattern: entry)
        let mask = 1 &<< capacityBits &- 1
        var index = home(owner, observer, capacityBits: capacityBits)
        for _ in 0..<min(maxProbes, mask &+ 1) {
            let (exchanged, current) = slots[index].compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
            if exchanged { return type }
            let other = UnsafePointer<Entry>(bitPattern: current).unsafelyUnwrapped
            if other.pointee.matches(owner, observer) { break }
            index = (index &+ 1) & mask
        }
        // Published by another thread meanwhile, or no room: not cached.
        entry.deinitialize(count: 1)
        entry.deallocate()
        return type
    }

    /// The first slot to probe for a pair.
    @inline(__always)
    private static func home(_ owner: UnsafeRawPointer, _ observer: UnsafeRawPointer, capacityBits: Int) -> Int {
        let mixed = (UInt(bitPattern: owner) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt(bitPattern: observer) &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: (mixed ^ (mixed &>> 29)) &>> (UInt.bitWidth &- capacityBits))
    }

    /// A table of `1 << capacityBits` empty slots (the shared one is never freed; tests free
    /// theirs with `freeTable`).
    static func allocateTable(capacityBits: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        let capacity = 1 &<< capacityBits
        let fresh = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: capacity)
        for index in 0..<capacity { (fresh + index).initialize(to: Atomic<UInt>(0)) }
        return fresh
    }

    /// Frees a table and its entries (only one no other thread can reach any more).
    static func freeTable(_ slots: UnsafeMutablePointer<Atomic<UInt>>, capacityBits: Int) {
        let capacity = 1 &<< capacityBits
        for index in 0..<capacity {
            if let entry = UnsafeMutablePointer<Entry>(bitPattern: slots[index].load(ordering: .relaxed)) {
                entry.deinitialize(count: 1)
                entry.deallocate()
            }
        }
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// The slots (allocated by the first lookup; never freed: a `ProcessTable`).
    @inline(__always)
    private static var table: UnsafeMutablePointer<Atomic<UInt>> {
        let base = ProcessTable.base(
            address, allocate: { UnsafeMutableRawPointer(allocateTable(capacityBits: capacityBits)) },
            free: { freeTable($0.assumingMemoryBound(to: Atomic<UInt>.self), capacityBits: capacityBits) })
        return base.assumingMemoryBound(to: Atomic<UInt>.self)
    }
}

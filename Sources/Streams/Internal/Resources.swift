import Synchronization

/// Leak counting: the number of live Streams resources (sinks, subjects, relays), in total and
/// by type.
///
/// Unlike RxSwift, where the counter exists only with `-D TRACE_RESOURCES`, this counter is
/// always compiled in. It goes up when a subscription's sink, a subject or a relay is created
/// and down when it is deallocated, so once every chain is disposed or terminated it returns
/// to its starting value. Compare it before and after a test (see `StreamsTest`'s
/// `XCTAssertNoLeaks`, which also names the types that leaked, from `liveCounts`).
public enum Resources {
    /// The name under which `liveCounts` lists resources counted by `incrementTotal()` (no type).
    public static let untypedName = "(untyped)"

    /// The name under which `liveCounts` lists resources of types the table had no room for.
    public static let otherTypesName = "(other types)"

    /// The number of live resources.
    ///
    /// Exact when nothing is being created or released concurrently (as in a test between
    /// steps); while other threads subscribe and dispose it is a sum of moving counts.
    public static var total: Int { ResourceTable.total }

    /// The live resources by type name (`String(describing:)` of the type, with its generic
    /// arguments, e.g. `"PublishSubject<Int>"`), only the names whose count is not zero.
    ///
    /// Resources counted without a type (`incrementTotal()`) are listed as `untypedName`; types
    /// seen after the fixed-size table filled up (over a few thousand distinct types in one
    /// process) are listed together as `otherTypesName`. Its values add up to `total`.
    /// Reading it builds a dictionary: meant for tests and diagnostics, not hot paths.
    public static var liveCounts: [String: Int] { ResourceTable.liveCounts }

    /// Counts one more live resource without a type (for custom operators built on Streams'
    /// types; prefer `incrementTotal(for:)`, which `liveCounts` can name).
    public static func incrementTotal() { ResourceTable.add(1, for: UntypedResource.self) }

    /// Counts one fewer live resource without a type.
    public static func decrementTotal() { ResourceTable.add(-1, for: UntypedResource.self) }

    /// Counts one more live resource of `type` (call it from the resource's `init`).
    public static func incrementTotal(for type: Any.Type) { ResourceTable.add(1, for: type) }

    /// Counts one fewer live resource of `type` (call it from the resource's `deinit`).
    public static func decrementTotal(for type: Any.Type) { ResourceTable.add(-1, for: type) }

    /// Counts a new resource of `type` (the library's own sinks, subjects and relays).
    @inline(__always)
    static func increment(_ type: Any.Type) { ResourceTable.add(1, for: type) }

    /// Counts a released resource of `type`.
    @inline(__always)
    static func decrement(_ type: Any.Type) { ResourceTable.add(-1, for: type) }
}

/// The key of resources counted without a type.
private enum UntypedResource {}

/// Live counts by type: the process's `ResourceSlots` table, plus a count of resources whose
/// type found no slot.
///
/// The slots are allocated by the first count and never freed. Their address is kept in an
/// `Atomic` (statically initialized to 0) rather than a lazily initialized `static let`, so a
/// count costs one load instead of a `swift_once` call (a `ProcessTable`).
enum ResourceTable {
    /// 4096 slots (64 KiB): room for the distinct sink and subject types of a large app or test suite.
    /// (Computed constants, so that they fold into the counting code.)
    @inline(__always) static var capacityBits: Int { 12 }
    /// Linear probing stops here; past it a type counts as one of the "other types".
    @inline(__always) static var maxProbes: Int { 64 }

    /// The address of the slots, 0 until the first count.
    private static let address = Atomic<UInt>(0)
    /// Resources of types that found no slot.
    private static let overflow = Atomic<Int>(0)

    /// The table (allocated on first use). Only the address varies, so the sizes fold into the
    /// counting code.
    @inline(__always)
    private static var slots: ResourceSlots {
        ResourceSlots(base: base, capacityBits: capacityBits)
    }

    @inline(__always)
    private static var base: UnsafeMutablePointer<ResourceSlots.Slot> {
        let base = ProcessTable.base(
            address, allocate: { UnsafeMutableRawPointer(ResourceSlots.allocate(capacityBits: capacityBits).base) },
            free: { ResourceSlots(base: $0.assumingMemoryBound(to: ResourceSlots.Slot.self), capacityBits: capacityBits).deallocate() })
        return base.assumingMemoryBound(to: ResourceSlots.Slot.self)
    }

    /// Adds `delta` to the count of `type`.
    @inline(__always)
    static func add(_ delta: Int, for type: Any.Type) {
        if !slots.add(delta, key: UInt(bitPattern: ObjectIdentifier(type)), maxProbes: maxProbes) {
            overflow.wrappingAdd(delta, ordering: .relaxed)
        }
    }

    /// The sum of every count.
    static var total: Int {
        var sum = overflow.load(ordering: .relaxed)
        slots.forEachCount { _, count in sum &+= count }
        return sum
    }

    /// The non-zero counts by type name (names shared by several types are added up).
    static var liveCounts: [String: Int] {
        var counts: [String: Int] = [:]
        slots.forEachCount { key, count in counts[name(ofKey: key), default: 0] += count }
        let others = overflow.load(ordering: .relaxed)
        if others != 0 { counts[Resources.otherTypesName, default: 0] += others }
        return counts.filter { $0.value != 0 }
    }

    /// The type name for a slot key: the key is the address of a type's metadata, so it
    /// converts back to that type.
    private static func name(ofKey key: UInt) -> String {
        let type = unsafeBitCast(key, to: Any.Type.self)
        if type == UntypedResource.self { return Resources.untypedName }
        return String(describing: type)
    }
}

/// A fixed-size open-addressing table of (key, count) slots, all atomics: lookups are lock-free
/// and a count is one load of the key and one atomic add (no lock, no allocation, no
/// reference counting).
///
/// A key (for `ResourceTable`, the address of a type's metadata: never 0, never freed) claims an
/// empty slot with a compare-exchange and keeps it for ever, so every thread probing for a key
/// from its hash reaches the same slot. A key that finds neither its slot nor an empty one
/// within `maxProbes` is not counted (`add` returns `false`); since slots are never freed, the
/// same happens when it is released, so the caller can count it elsewhere consistently.
struct ResourceSlots: @unchecked Sendable {
    // Safety: a table is shared memory read and written only through the `Atomic`s of its
    // slots; the process's table is never freed (`deallocate()` is for tables no other thread
    // can reach any more).

    /// One slot: 0 as key means empty.
    struct Slot: ~Copyable {
        let key = Atomic<UInt>(0)
        let count = Atomic<Int>(0)
    }

    let base: UnsafeMutablePointer<Slot>
    /// The table has `1 << capacityBits` slots.
    let capacityBits: Int

    var capacity: Int { 1 &<< capacityBits }

    /// A new table of empty slots (never freed unless `deallocate()` is called).
    static func allocate(capacityBits: Int) -> ResourceSlots {
        let capacity = 1 &<< capacityBits
        let base = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        for index in 0..<capacity {
            (base + index).initialize(to: Slot())
        }
        return ResourceSlots(base: base, capacityBits: capacityBits)
    }

    /// Frees the slots (only for a table no other thread can reach).
    func deallocate() {
        base.deinitialize(count: capacity)
        base.deallocate()
    }

    /// Adds `delta` to the count of `key` (not 0); `false` if it has no slot and none is free
    /// within `maxProbes` (at most `capacity`) slots.
    @inline(__always)
    func add(_ delta: Int, key: UInt, maxProbes: Int) -> Bool {
        var index = home(of: key)
        for _ in 0..<maxProbes {
            let slot = base + index
            var current = slot.pointee.key.load(ordering: .relaxed)
            if current == 0 {
                current = slot.pointee.key.compareExchange(expected: 0, desired: key, ordering: .relaxed).original
                if current == 0 { current = key }
            }
            if current == key {
                slot.pointee.count.wrappingAdd(delta, ordering: .relaxed)
                return true
            }
            index = (index &+ 1) & (capacity &- 1)
        }
        return false
    }

    /// The first slot to probe for `key` (Fibonacci hashing: the top bits of `key * 2^64/φ`).
    @inline(__always)
    func home(of key: UInt) -> Int {
        let golden = UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
        return Int(truncatingIfNeeded: (key &* golden) &>> UInt(UInt.bitWidth - capacityBits))
    }

    /// Calls `body` with the key and count of every claimed slot whose count is not zero.
    func forEachCount(_ body: (_ key: UInt, _ count: Int) -> Void) {
        for index in 0..<capacity {
            let key = base[index].key.load(ordering: .relaxed)
            guard key != 0 else { continue }
            let count = base[index].count.load(ordering: .relaxed)
            if count != 0 { body(key, count) }
        }
    }
}

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The second form of the library's one lock primitive: the same `pthread_mutex_t` as
/// `LockedState`, taken from a fixed table of mutexes by the address of the object it guards,
/// for objects created so often that a lock of their own is a measurable cost.
///
/// A `LockedState` is a heap object of its own: a ``BehaviorSubject`` created per element
/// (`flatMapLatest { BehaviorSubject(value: $0) }`) paid a second allocation and free, ~300
/// instructions, for its lock. An object that uses a `StripedLock` keeps its state in its own
/// fields and locks the table's mutex for its address, as the Objective-C runtime does for
/// `@synchronized` and atomic properties (its `StripedMap`). It either finds the stripe on each
/// use (~9 instructions) or keeps it in a field written right after `super.init()` (which costs
/// a retain and a release of the new object): see <doc:Performance> for which object does which.
///
/// The price: two objects whose addresses fall on the same stripe share a mutex, so a thread
/// locking one can wait for a thread locking the other. Critical sections are a few
/// instructions long and never call out (decide under the lock, act after it), so that is rare
/// and short, and it cannot deadlock: no code takes a lock while holding one. ThreadSanitizer
/// sees the mutexes as it sees `LockedState`'s.
struct StripedLock: @unchecked Sendable {
    // Safety: `mutex` points into `LockStripes`' table, whose mutexes are initialized before
    // it is installed and which is never freed; the mutex is only used
    // through `pthread_mutex_lock`/`pthread_mutex_unlock`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// The stripe for `object`: its address, hashed.
    @inline(__always)
    init(for object: ObjectIdentifier) {
        mutex = LockStripes.mutex(for: UInt(bitPattern: object))
    }

    /// A lock that must not be used: what a field holds until its object can name itself, right
    /// after `super.init()`.
    static var unassigned: StripedLock {
        StripedLock(mutex: UnsafeMutablePointer(bitPattern: UInt(MemoryLayout<pthread_mutex_t>.alignment)).unsafelyUnwrapped)
    }

    @inline(__always)
    private init(mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        self.mutex = mutex
    }

    /// Runs `body` holding the stripe's mutex. `body` must not call out to observers, user
    /// closures, `dispose()` or schedulers, nor take another lock.
    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Takes the stripe's mutex, for an object's own scoped `withLock`-style method that must
    /// begin the access to its guarded field after the mutex is taken (pass the field `inout`
    /// to a locking call and the access begins before the call: ThreadSanitizer then sees it
    /// unguarded) without wrapping the caller's closure in another one (which is then not
    /// inlined: +35 instructions per element of `publish_subject_pump` with cross-module
    /// optimization). Always paired with `unlock()` in a `defer` right after it.
    @inline(__always)
    func lock() {
        pthread_mutex_lock(mutex)
    }

    /// Releases the stripe's mutex taken by `lock()`.
    @inline(__always)
    func unlock() {
        pthread_mutex_unlock(mutex)
    }
}

/// The table behind `StripedLock`: 128 mutexes, each on its own cache line.
enum LockStripes {
    /// The number of stripes (a power of two).
    static var count: Int { 128 }
    /// Bytes from one mutex to the next: a cache line or more, so two stripes never share one.
    private static var stride: Int { (MemoryLayout<pthread_mutex_t>.stride + 63) & ~63 }

    /// The address of the table (a `ProcessTable`: one load per lookup, no `swift_once`).
    private static let address = Atomic<UInt>(0)

    /// The table: allocated by the first lock, its mutexes initialized before it is installed,
    /// never freed.
    @inline(__always)
    private static var table: UnsafeMutableRawPointer {
        ProcessTable.base(address, allocate: allocateTable, free: { $0.deallocate() })
    }

    private static func allocateTable() -> UnsafeMutableRawPointer {
        let table = UnsafeMutableRawPointer.allocate(byteCount: count * stride, alignment: 64)
        for index in 0..<count {
            initializeMutex((table + index * stride).bindMemory(to: pthread_mutex_t.self, capacity: 1))
        }
        return table
    }

    /// The mutex of the stripe for `address`.
    @inline(__always)
    static func mutex(for address: UInt) -> UnsafeMutablePointer<pthread_mutex_t> {
        (table + index(for: address) &* stride).assumingMemoryBound(to: pthread_mutex_t.self)
    }

    /// The stripe for `address` (0 ..< `count`): Fibonacci hashing of the address without its
    /// alignment bits, so that objects allocated one after another land on different stripes.
    @inline(__always)
    static func index(for address: UInt) -> Int {
        let hash = (address >> 4) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: hash >> UInt(UInt.bitWidth - count.trailingZeroBitCount))
    }
}

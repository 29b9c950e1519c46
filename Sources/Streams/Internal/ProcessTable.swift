import Synchronization

/// The address of a table that lives as long as the process, allocated by its first user and
/// kept in an `Atomic` that is statically initialized to 0: reading it costs one load, where a
/// lazily initialized `static let` costs a `swift_once` call on every read (see <doc:Performance>).
///
/// Two threads arriving first may both allocate a table; one installs it with a compare-exchange
/// and the other frees its own (it was never shared) and uses the winner's.
enum ProcessTable {
    /// The table whose address `address` holds, allocated with `allocate` if there is none yet.
    @inline(__always)
    static func base(
        _ address: borrowing Atomic<UInt>, allocate: () -> UnsafeMutableRawPointer, free: (UnsafeMutableRawPointer) -> Void
    ) -> UnsafeMutableRawPointer {
        if let base = UnsafeMutableRawPointer(bitPattern: address.load(ordering: .acquiring)) { return base }
        return install(address, allocate: allocate, free: free)
    }

    /// Allocates a table and installs it, or returns the one another thread installed first.
    @inline(never)
    private static func install(
        _ address: borrowing Atomic<UInt>, allocate: () -> UnsafeMutableRawPointer, free: (UnsafeMutableRawPointer) -> Void
    ) -> UnsafeMutableRawPointer {
        let fresh = allocate()
        let (installed, winner) = address.compareExchange(expected: 0, desired: UInt(bitPattern: fresh), ordering: .acquiringAndReleasing)
        if installed { return fresh }
        free(fresh)
        return UnsafeMutableRawPointer(bitPattern: winner).unsafelyUnwrapped
    }
}

import Dispatch
import Synchronization
import XCTest

@testable import Streams

/// `ProcessTable`: the table a process allocates on first use, whose address an atomic keeps.
/// Threads that arrive first together all get one table, and every other table made on the way
/// is freed.
final class ProcessTableTests: XCTestCase {
    /// Two threads both find no table and both allocate one (each waits inside `allocate`
    /// until the other is there too, so the race happens every run): one installs its table,
    /// the other frees its own and returns the installed one.
    func testTwoThreadsThatBothAllocateShareOneTableAndTheLoserFreesItsOwn() throws {
        let shared = Race()
        let finished = DispatchGroup()
        for _ in 0..<2 {
            finished.enter()
            Thread.detachNewThread {
                let base = ProcessTable.base(shared.address, allocate: shared.allocate, free: shared.free)
                shared.seen.withLock { $0.append(UInt(bitPattern: base)) }
                finished.leave()
            }
        }
        // A guard against a hang (the body takes microseconds), not a timing assertion.
        XCTAssertEqual(finished.wait(timeout: .now() + 60), .success)
        let seen = shared.seen.withLock { $0 }
        XCTAssertEqual(seen.count, 2)
        XCTAssertEqual(Set(seen), [shared.address.load(ordering: .relaxed)], "both threads get the installed table")
        XCTAssertEqual(shared.made.load(ordering: .relaxed), 2, "both allocated")
        XCTAssertEqual(shared.freed.load(ordering: .relaxed), 1, "the loser freed its table")
        UnsafeMutableRawPointer(bitPattern: shared.address.load(ordering: .relaxed))?.deallocate()
    }

    func testLaterReadsReturnTheInstalledTableWithoutAllocating() {
        let address = Atomic<UInt>(0)
        var made = 0
        func allocate() -> UnsafeMutableRawPointer {
            made += 1
            return .allocate(byteCount: 8, alignment: 8)
        }
        let first = ProcessTable.base(address, allocate: allocate, free: { $0.deallocate() })
        let second = ProcessTable.base(address, allocate: allocate, free: { $0.deallocate() })
        XCTAssertEqual(first, second)
        XCTAssertEqual(made, 1)
        first.deallocate()
    }
}

/// The state the racing threads share.
private final class Race: Sendable {
    let address = Atomic<UInt>(0)
    let made = Atomic<Int>(0)
    let freed = Atomic<Int>(0)
    let seen = LockedState<[UInt]>([])
    private let inside = Atomic<Int>(0)
    private let bothInside = DispatchSemaphore(value: 0)

    /// Allocates a table once both threads are here.
    func allocate() -> UnsafeMutableRawPointer {
        if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == 2 {
            bothInside.signal()
            bothInside.signal()
        }
        bothInside.wait()
        made.wrappingAdd(1, ordering: .relaxed)
        return .allocate(byteCount: 64, alignment: 64)
    }

    func free(_ table: UnsafeMutableRawPointer) {
        freed.wrappingAdd(1, ordering: .relaxed)
        table.deallocate()
    }
}

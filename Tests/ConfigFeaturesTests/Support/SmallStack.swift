import Foundation
import Streams

/// The stack size deep-input tests run with: a quarter of a typical 2 MiB secondary thread
/// stack (and the size of some platforms' dispatch worker threads), so an operation that
/// recurses once per level of its input overflows at a few hundred to a few thousand levels.
let smallStackSize = 512 * 1024

/// Runs `body` on a new thread with a `smallStackSize` stack and returns its result once the
/// thread finished (a stack overflow there crashes the test process: that is the failure).
func onSmallStack<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
    let result = LockedState<Result?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let value = body()
        result.withLock { $0 = value }
        done.signal()
    }
    thread.stackSize = smallStackSize
    thread.start()
    done.wait()
    return result.withLock { $0! }
}

/// A deterministic pseudo-random generator (SplitMix64), so randomized tests replay exactly.
struct DeterministicRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

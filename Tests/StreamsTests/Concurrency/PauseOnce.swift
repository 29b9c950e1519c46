import Foundation
@testable import Streams

/// A test hook that holds the first thread calling it until `resume()`, to drive a race
/// interleaving deterministically: install `hook` in a `…TestHooks` slot, start the racing
/// thread, `waitUntilPaused()`, do the competing step, then `resume()`.
final class PauseOnce: Sendable {
    private let paused = DispatchSemaphore(value: 0)
    private let resumed = DispatchSemaphore(value: 0)
    private let armed = LockedState(true)

    /// Holds the first caller until `resume()`; later calls return at once.
    func hook() {
        guard
            armed.withLock({ armed in
                defer { armed = false }; return armed
            })
        else { return }
        paused.signal()
        resumed.wait()
    }

    /// Returns once a thread is held in `hook()`.
    func waitUntilPaused() { paused.wait() }

    /// Lets the held thread go on.
    func resume() { resumed.signal() }
}

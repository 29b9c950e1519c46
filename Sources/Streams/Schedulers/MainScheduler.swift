import Dispatch
import Foundation
import Synchronization

/// Runs work on the main queue; `instance` runs at once when already on the main thread.
///
/// - Important: On Linux the main queue only runs work while the main thread drains it. An
///   executable does so by ending `main.swift` with `dispatchMain()` (never returns; call
///   `exit(_:)` when done) or by running `RunLoop.main.run(until:)`. A test drains it with
///   `RunLoop.main.run(until:)` or uses the virtual `TestScheduler` instead.
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
    // Safety: `pending` is atomic; the rest is immutable.
    private let pending = Atomic<Int>(0)

    /// Creates a scheduler on the main queue.
    public init() {
        super.init(serialQueue: DispatchQueue.main)
    }

    /// The shared main scheduler: runs immediately when called on the main thread with nothing queued.
    public static let instance = MainScheduler()

    /// A main-queue scheduler that always schedules asynchronously (never runs inline).
    public static let asyncInstance = SerialDispatchQueueScheduler(serialQueue: DispatchQueue.main)

    /// Whether the caller is on the main thread.
    public static var isMainThread: Bool { Thread.isMainThread }

    /// Stops the program if not called on the main thread.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        precondition(
            Thread.isMainThread,
            errorMessage ?? "Executing on a background thread. Please use `MainScheduler.instance.schedule` to schedule work on the main thread.")
    }

    /// Stops the program if not called on the main thread.
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        ensureExecutingOnScheduler(errorMessage: errorMessage)
    }

    /// Runs `action` at once on the main thread when nothing is queued, else queues it.
    public override func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let previous = pending.add(1, ordering: .acquiringAndReleasing).oldValue
        if Thread.isMainThread && previous == 0 {
            let disposable = action(state)
            pending.subtract(1, ordering: .acquiringAndReleasing)
            return disposable
        }
        let cancel = SingleAssignmentDisposable()
        // Safety: ownership of the action passes to the main queue.
        let work = UncheckedSendable((state, action))
        let counter = UncheckedSendable(self)
        DispatchQueue.main.async {
            defer { counter.value.pending.subtract(1, ordering: .acquiringAndReleasing) }
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        return cancel
    }
}

#if canImport(Observation)
import Observation

extension ObservableType {
    /// A sequence of `read()`'s result: its value at subscription, then again after each change of
    /// the `@Observable` properties it reads (Swift Observation's `withObservationTracking`).
    ///
    ///     model:      count = 1      count = 2, count = 3 (one turn)      count = 4
    ///     observing:  0 ─── 1 ──────────────── 3 ──────────────────────── 4 ──▶
    ///
    /// Observation reports a change before it is stored, so the new value is read on `scheduler`,
    /// after the change, and tracking is registered again with that read. Changes made in one turn
    /// of `scheduler` are therefore delivered once, with the latest value; none is lost, none is
    /// read twice. Mutate the model on `scheduler`'s thread (the main thread for the default, as
    /// SwiftUI models are), so that the read always follows the completed change.
    ///
    /// The sequence never completes; dispose the subscription to stop. Equal consecutive values
    /// are delivered when the model reports a change; add `distinctUntilChanged()` to drop them.
    /// - Parameters:
    ///   - scheduler: Where the changed values are read and delivered; it must run work after the
    ///     current change, as an asynchronous scheduler or a `TestScheduler` does.
    ///   - read: Reads the properties to follow and returns the element.
    /// - Returns: The sequence of read values.
    /// - Note: Delivers the first value on the subscribing thread, the rest on `scheduler`. See
    ///   <doc:Concurrency>.
    public static func observing(
        on scheduler: ImmediateSchedulerType = MainScheduler.asyncInstance,
        _ read: @escaping () -> Element
    ) -> Observable<Element> {
        Observable.create { observer in
            let tracker = ObservationTracker(read: read, observer: observer, scheduler: scheduler)
            tracker.emit()
            return tracker
        }
    }
}

/// Reads, tracks and delivers for ``ObservableType/observing(on:_:)``; the disposable of one subscription.
private final class ObservationTracker<Element>: Disposable, @unchecked Sendable {
    // Safety: `read` and `observer` are used only by the one `emit` that holds `emitting`
    // (decided under `state`'s lock), so they are never called concurrently; `scheduler` is
    // thread-safe; the mutable flags live in `state`.
    private let read: () -> Element
    private let observer: AnyObserver<Element>
    private let scheduler: ImmediateSchedulerType
    private let state = LockedState(Flags())
    private let scheduled = SerialDisposable()

    private struct Flags {
        var isDisposed = false
        var isScheduled = false
        var isEmitting = false
        var changedWhileEmitting = false
    }

    init(read: @escaping () -> Element, observer: AnyObserver<Element>, scheduler: ImmediateSchedulerType) {
        self.read = read
        self.observer = observer
        self.scheduler = scheduler
        Resources.increment(Self.self)
    }

    deinit { Resources.decrement(type(of: self)) }

    /// Reads with tracking and delivers the value, unless another emit is running (then that one
    /// schedules a fresh read when it ends).
    func emit() {
        let mayEmit = state.withLock { flags -> Bool in
            flags.isScheduled = false
            guard !flags.isDisposed else { return false }
            if flags.isEmitting {
                flags.changedWhileEmitting = true
                return false
            }
            flags.isEmitting = true
            return true
        }
        guard mayEmit else { return }
        let value = withObservationTracking(read) { [weak self] in self?.changed() }
        observer.onNext(value)
        let again = state.withLock { flags -> Bool in
            flags.isEmitting = false
            defer { flags.changedWhileEmitting = false }
            return flags.changedWhileEmitting
        }
        if again { changed() }
    }

    /// Observation's change callback: schedules one read, however many changes come before it.
    private func changed() {
        let shouldSchedule = state.withLock { flags -> Bool in
            guard !flags.isDisposed, !flags.isScheduled else { return false }
            flags.isScheduled = true
            return true
        }
        guard shouldSchedule else { return }
        scheduled.disposable = scheduler.schedule(()) { [weak self] _ in
            self?.emit()
            return Disposables.create()
        }
    }

    func dispose() {
        let first = state.withLock { flags -> Bool in
            defer { flags.isDisposed = true }
            return !flags.isDisposed
        }
        if first { scheduled.dispose() }
    }
}
#endif

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A trampoline on the current thread: the first `schedule` runs its action at once and then
/// drains, in order, everything scheduled meanwhile; nested `schedule` calls only enqueue.
///
/// Recursive scheduling therefore runs in a loop instead of growing the stack.
public final class CurrentThreadScheduler: ImmediateSchedulerType, Sendable {
    /// The shared trampoline.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// Whether a `schedule` call on this thread would run at once (no trampoline is running).
    public static var isScheduleRequired: Bool { TrampolineQueue.current == nil }

    /// Runs `action` now if no trampoline runs on this thread, else enqueues it.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if let queue = TrampolineQueue.current {
            let item = TrampolineItem { action(state) }
            queue.items.append(item)
            return item
        }
        let queue = TrampolineQueue()
        TrampolineQueue.current = queue
        defer { TrampolineQueue.current = nil }
        let disposable = action(state)
        // Index-based draining: `removeFirst()` would make a long queue quadratic.
        var index = 0
        while index < queue.items.count {
            let item = queue.items[index]
            index += 1
            item.run()
            if index >= 1024 && index * 2 >= queue.items.count {
                queue.items.removeFirst(index)
                index = 0
            }
        }
        queue.items.removeAll()
        return disposable
    }
}

/// The per-thread queue of a running trampoline (only touched by its own thread).
private final class TrampolineQueue {
    var items: [TrampolineItem] = []

    /// The thread-local slot (created once, thread-safely, by the lazy global initializer).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The queue of the trampoline running on this thread.
    static var current: TrampolineQueue? {
        get {
            guard let raw = pthread_getspecific(key) else { return nil }
            return Unmanaged<TrampolineQueue>.fromOpaque(raw).takeUnretainedValue()
        }
        set {
            if let old = pthread_getspecific(key) {
                Unmanaged<TrampolineQueue>.fromOpaque(old).release()
            }
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0).toOpaque() })
        }
    }
}

/// One enqueued trampoline action.
private final class TrampolineItem: Cancelable, @unchecked Sendable {
    // Safety: `action` is created, run and cleared on the trampoline's own thread; `dispose`
    // from another thread only flips the atomic flag.
    private var action: (() -> Disposable)?
    private let cancelled = BooleanDisposable()
    private let result = SingleAssignmentDisposable()

    init(_ action: @escaping () -> Disposable) {
        self.action = action
    }

    var isDisposed: Bool { cancelled.isDisposed }

    func run() {
        guard let action, !cancelled.isDisposed else { return }
        self.action = nil
        result.setDisposable(action())
    }

    func dispose() {
        cancelled.dispose()
        result.dispose()
    }
}

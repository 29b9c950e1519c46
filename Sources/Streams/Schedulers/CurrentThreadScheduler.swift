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
/// As in RxSwift, every subscription to an operator runs on this trampoline (a subscription made
/// while none runs starts one), and the synchronous sources (``ObservableType/of(_:scheduler:)``, `from`, ``ObservableType/range(start:count:scheduler:)``,
/// ``ObservableType/repeatElement(_:scheduler:)``, ``ObservableType/generate(initialState:condition:scheduler:iterate:)`` on their default scheduler) emit each element as one trampoline
/// step. So `merge(.of(1, 2), .of(3, 4))` gives `1 3 2 4`, and an endless synchronous source
/// below `take(n)` stops once `take` has its elements. Recursive scheduling runs in a loop
/// instead of growing the stack. See <doc:Schedulers>.
public final class CurrentThreadScheduler: ImmediateSchedulerType, Sendable {
    /// The shared trampoline.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// Whether a `schedule` call on this thread would run at once (no trampoline is running).
    public static var isScheduleRequired: Bool { !Trampoline.current.isRunning }

    /// Runs `action` now if no trampoline runs on this thread, else enqueues it.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let trampoline = Trampoline.current
        if trampoline.isRunning {
            let item = TrampolineItem { action(state) }
            trampoline.enqueue(item)
            return item
        }
        trampoline.isRunning = true
        let disposable = action(state)
        trampoline.drain()
        return disposable
    }
}

/// Work that a trampoline runs as one step.
protocol TrampolineWork: AnyObject {
    /// Runs the step (on the trampoline's thread, with the trampoline running).
    func runOnTrampoline()
}

/// The current thread's trampoline: whether it is running, and its FIFO queue of steps.
///
/// One instance per thread, created on first use and released when the thread exits; only its
/// own thread touches it, so its fields need no lock and no dynamic exclusivity checks (a
/// runtime call per access, on the path of every subscription and synchronous element).
final class Trampoline {
    /// Whether a trampoline step (or the subscription that started it) is running on this thread.
    @exclusivity(unchecked) var isRunning = false
    /// A ring buffer of steps; `head` is the next to run, `count` how many are queued.
    @exclusivity(unchecked) private var ring: [(any TrampolineWork)?] = []
    @exclusivity(unchecked) private var head = 0
    @exclusivity(unchecked) private var count = 0

    /// Runs `body` on this thread's trampoline: directly if it is running, else as the step that
    /// starts it, followed by everything queued meanwhile.
    ///
    /// Operators that subscribe to inner sequences from an event handler (``ObservableType/flatMap(_:)``,
    /// ``ObservableType/flatMapLatest(_:)``, …) wrap the subscription *and storing its disposable* in it, so that a
    /// synchronous inner sequence's elements flow only once its subscription can be disposed: a
    /// switch or a `take` downstream then stops even an endless synchronous inner sequence. The
    /// order of events is the same as subscribing alone.
    @inline(__always)
    static func run<Result>(_ body: () -> Result) -> Result {
        // Borrowed from the thread's slot, which keeps it until the thread exits: no retain and
        // release per subscription.
        perThread.withCurrent { trampoline in
            if trampoline.isRunning { return body() }
            trampoline.isRunning = true
            let result = body()
            trampoline.drain()
            return result
        }
    }

    /// Runs `body`, which subscribes to `source` from an event handler: on this thread's
    /// trampoline (see `run(_:)`) if subscribing to `source` itself would run there, else
    /// directly, so a source that emits at once (`just`, a subject, …) emits with the trampoline
    /// running or not exactly as in RxSwift. See <doc:Grammar#Which-sources-use-the-trampoline>.
    @inline(__always)
    static func run<Element, Result>(subscribing source: Observable<Element>, _ body: () -> Result) -> Result {
        source.subscribesOnTrampoline ? run(body) : body()
    }

    /// Whether steps are waiting (a synchronous source yields to them between elements).
    var hasPending: Bool { count > 0 }

    /// Queues `work` after everything already queued.
    func enqueue(_ work: any TrampolineWork) {
        if count == ring.count { grow() }
        var tail = head + count
        if tail >= ring.count { tail -= ring.count }
        ring[tail] = work
        count += 1
    }

    /// Runs queued steps in order, including those they queue, until none is left; then stops
    /// running.
    func drain() {
        while count > 0 {
            let work = ring[head].take()
            head += 1
            if head == ring.count { head = 0 }
            count -= 1
            work?.runOnTrampoline()
        }
        isRunning = false
    }

    private func grow() {
        let capacity = Swift.max(8, ring.count * 2)
        var larger = [(any TrampolineWork)?](repeating: nil, count: capacity)
        for index in 0..<count {
            var from = head + index
            if from >= ring.count { from -= ring.count }
            larger[index] = ring[from].take()
        }
        ring = larger
        head = 0
    }

    /// The thread-local trampolines, released at thread exit.
    private static let perThread = ThreadLocalObject { Trampoline() }

    /// This thread's trampoline.
    static var current: Trampoline { perThread.current }
}

/// One enqueued `schedule` action.
private final class TrampolineItem: Cancelable, TrampolineWork, @unchecked Sendable {
    // Safety: `action` is created, run and cleared on the trampoline's own thread; `dispose`
    // from another thread only flips the atomic flag.
    private var action: (() -> Disposable)?
    private let cancelled = BooleanDisposable()
    private let result = SingleAssignmentDisposable()

    init(_ action: @escaping () -> Disposable) {
        self.action = action
    }

    var isDisposed: Bool { cancelled.isDisposed }

    func runOnTrampoline() {
        guard let action, !cancelled.isDisposed else { return }
        self.action = nil
        result.setDisposable(action())
    }

    func dispose() {
        cancelled.dispose()
        result.dispose()
    }
}

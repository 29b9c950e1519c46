/// The sink of a synchronous source (``ObservableType/of(_:scheduler:)``, `from`, ``ObservableType/range(start:count:scheduler:)``, ``ObservableType/repeatElement(_:scheduler:)``, ``ObservableType/generate(initialState:condition:scheduler:iterate:)``): emits
/// one event per step, on the current thread's trampoline or on a given scheduler.
///
/// On ``CurrentThreadScheduler`` (the default) the first step is queued on the trampoline that the
/// subscription runs on, so it runs after the whole chain is subscribed and after the steps
/// queued before it, as in RxSwift. After each element the sink runs its next step at once while
/// nothing else waits on the trampoline, and queues it behind the waiting steps otherwise: the
/// order is exactly that of one trampoline step per element, without a queue round-trip per
/// element when the source is alone (see <doc:Performance>).
class SteppingSink<Observer: ObserverType>: Sink<Observer>, TrampolineWork {
    /// The trampoline the steps run on (nil on another scheduler).
    /// Written once by `start(on:)` before the first step, then only read.
    @exclusivity(unchecked) private var trampoline: Trampoline?

    /// Emits the next event; returns whether more steps follow (false after a terminal event).
    func step() -> Bool {
        fatalError("SteppingSink.step() is abstract; override it in \(type(of: self))")
    }

    /// Starts emitting on `scheduler`; returns what cancels scheduled steps.
    final func start(on scheduler: ImmediateSchedulerType) -> Disposable {
        guard scheduler is CurrentThreadScheduler else {
            return scheduler.scheduleRecursive(()) { [self] _, recurse in
                guard !self.isDisposed else { return }
                if self.step() { recurse(()) }
            }
        }
        let trampoline = Trampoline.current
        self.trampoline = trampoline
        trampoline.enqueue(self)
        if !trampoline.isRunning {
            // Producers always subscribe on a running trampoline; this keeps a direct `run`
            // correct too.
            trampoline.isRunning = true
            trampoline.drain()
        }
        return Disposables.create()
    }

    final func runOnTrampoline() {
        guard let trampoline else { return }
        while !isDisposed {
            guard step() else { return }
            if trampoline.hasPending {
                trampoline.enqueue(self)
                return
            }
        }
    }
}

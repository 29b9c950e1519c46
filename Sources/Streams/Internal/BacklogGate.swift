import Dispatch

/// Bounds the queue of a queue-drain sink (`SerializingSink`, `DrainingSink`, ``ObservableType/window(timeSpan:count:scheduler:)``) under
/// contention, and bounds how long one thread delivers for the others.
///
/// - A producer on another thread that queues while the queue holds more than `limit` waits
///   until the draining thread has taken the queue, as RxSwift's producers wait on its
///   operators' locks, so memory stays bounded when producers outrun the observer.
/// - The draining thread delivers what other threads queue, so producers that keep pace with
///   the observer could keep it delivering for ever (a 50 µs ``ObservableType/window(timeSpan:count:scheduler:)`` timer against a slow
///   observer held the source's thread inside one `onNext` call). Once a drainer has delivered
///   `limit` items in one turn, producers from other threads wait, and at its next step the
///   drainer hands the role to them (`handOff()`) and returns to its own caller.
///
/// A reentrant producer (the drainer's own observer) never waits, and no lock is held while
/// waiting. Uncontended sinks never get here: the gate costs nothing until a queue reaches
/// `limit` or a turn delivers `limit` items, and the semaphore is created only then.
struct BacklogGate {
    /// The queue length past which other threads' producers wait.
    ///
    /// Each wait is a futex sleep and wake, so the bound trades memory for fewer of them: four
    /// threads feeding one `merge` on two cores took 586–817 ns per event at 1,024 and 466–615 ns
    /// at 4,096 (interleaved runs, peak RSS 25.2 vs 25.3–25.6 MB); 8,192 and 65,536 gained
    /// little more. At 4,096 a queue of `Int` events is 64 KB.
    static let limit = 4096

    private var waiting = 0
    private var semaphore: DispatchSemaphore?
    /// Items the current drainer has taken in this turn (reset when the queue is found empty
    /// and when the role is handed off).
    private var served = 0

    /// Decides, under the sink's lock and after queueing, whether the producer waits: returns
    /// the semaphore to wait on after leaving the lock, or `nil`. A producer that waited must
    /// then try to take the draining role: it may have been woken by `handOff()`.
    mutating func admit(queued: Int, role: borrowing DrainRole) -> DispatchSemaphore? {
        admit(queued: queued, isReentrant: role.isHeldByCurrentThread)
    }

    /// `admit(queued:role:)` for a sink that tracks its drainer itself: `isReentrant` says
    /// whether the calling thread is the one draining (evaluated only past `limit`).
    mutating func admit(queued: Int, isReentrant: @autoclosure () -> Bool) -> DispatchSemaphore? {
        guard queued > Self.limit || served >= Self.limit, !isReentrant() else { return nil }
        #if DEBUG
        BacklogGateTestHooks.producerWillWait?(queued)
        #endif
        waiting += 1
        if let semaphore { return semaphore }
        let created = DispatchSemaphore(value: 0)
        semaphore = created
        return created
    }

    /// Records, under the sink's lock, that the drainer took `count` more items in this turn.
    mutating func serve(_ count: Int) {
        served += count
    }

    /// Records, under the sink's lock, that the drainer found the queue empty: its turn ended.
    /// Returns the producers still waiting, to wake after the lock: nothing else would, since no
    /// drainer is left to take a queue (a producer can wait without queueing anything, when its
    /// element is dropped after the sink's terminal event).
    mutating func finish() -> Wakeup? {
        served = 0
        return release(queued: 0)
    }

    /// Decides, under the sink's lock, before the drainer takes more: once it has delivered
    /// `limit` items in this turn and producers from other threads wait, it must give the role
    /// up (leaving the queue as it is), then wake them with the returned `Wakeup`, and return.
    /// One of the woken producers takes the role and goes on delivering.
    mutating func handOff() -> Wakeup? {
        guard served >= Self.limit, waiting > 0, let semaphore else { return nil }
        served = 0
        defer { waiting = 0 }
        return Wakeup(semaphore: semaphore, count: waiting)
    }

    /// Takes, under the sink's lock, the waiting producers to wake once the queue has been taken
    /// (or has shrunk to `limit / 2`): call `Wakeup.run()` after leaving the lock.
    mutating func release(queued: Int) -> Wakeup? {
        guard waiting > 0, queued <= Self.limit / 2, let semaphore else { return nil }
        defer { waiting = 0 }
        return Wakeup(semaphore: semaphore, count: waiting)
    }

    /// Producers to wake (after the lock).
    struct Wakeup {
        let semaphore: DispatchSemaphore
        let count: Int

        func run() {
            for _ in 0..<count { semaphore.signal() }
        }
    }
}

#if DEBUG
/// Test hooks (DEBUG builds only) for the backlog bound.
package enum BacklogGateTestHooks {
    // Safety: set by a test before the events it drives start and cleared after they ended;
    // only read while those events flow, so no write races with a read.
    /// Called under the sink's lock when a producer is about to wait, with the queue length.
    nonisolated(unsafe) package static var producerWillWait: ((Int) -> Void)?
}
#endif

import Foundation
import Streams

/// An observable with blocking operators (`toArray()`, `first()`, `last()`, `single()`,
/// `materialize()`), for tests and demos.
///
/// Each operator subscribes, blocks the calling thread until it has its answer (or `timeout`
/// passes), then disposes the subscription. A source that emits synchronously on the calling
/// thread is fine: its events are collected during `subscribe` and the operator returns at once.
///
/// On the main thread the operators run the main run loop while they wait (as RxBlocking does),
/// so work on `MainScheduler` or the main queue makes progress; on other threads they wait on a
/// semaphore. See <doc:Blocking>.
public struct BlockingObservable<Element> {
    /// The longest time an operator blocks before throwing `RxError.timeout`; `nil` waits forever.
    public let timeout: TimeInterval?
    let source: Observable<Element>
}

extension ObservableConvertibleType {
    /// Converts the sequence into a ``BlockingObservable``, whose operators block the calling thread.
    ///
    /// - Parameter timeout: The longest time an operator may block before throwing
    ///   `RxError.timeout` (the subscription is disposed then); `nil` waits forever.
    /// - Returns: A ``BlockingObservable`` over `self`.
    /// - Warning: Not for a sequence driven by a virtual-time `TestScheduler`: nothing advances
    ///   virtual time while the thread is blocked, so the operators wait forever (or until
    ///   `timeout`). Run the test scheduler instead (`start { ... }`, or `recordEvents` then
    ///   `start()`) and read the recorded events.
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(timeout: timeout, source: asObservable())
    }
}

/// How a blocking operation ended: completed, or failed with the elements received before the error.
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
public enum MaterializedSequenceResult<T> {
    /// The sequence completed with `elements`.
    case completed(elements: [T])
    /// The sequence failed with `error` (possibly `RxError.timeout`) after sending `elements`.
    case failed(elements: [T], error: Swift.Error)
}

/// What a blocking run keeps of the elements it sees.
enum BlockingRetention {
    /// Keep every element.
    case all
    /// Keep only the latest element.
    case lastOnly
    /// Keep elements until this many are kept, then stop the run.
    case upTo(Int)
}

/// What a blocking run saw before it stopped.
struct BlockingOutcome<Element> {
    var elements: [Element] = []
    /// The terminal error, a predicate's error, or `RxError.timeout`.
    var error: Swift.Error?
    /// Whether the run stopped (terminal event, enough elements, or timeout).
    var isStopped = false
}

extension BlockingObservable {
    /// Subscribes, collects elements that pass `filter` as `retention` says, and blocks until the
    /// sequence terminates, enough elements are kept, or the timeout passes.
    ///
    /// The subscription is made through the current-thread trampoline (as RxBlocking does), so
    /// that a source which schedules its elements there finds the subscription already stored
    /// and can be disposed from inside `onNext` as soon as the answer is known.
    func run(retention: BlockingRetention, filter: ((Element) throws -> Bool)? = nil) -> BlockingOutcome<Element> {
        let run = BlockingRun<Element>(retention: retention, filter: filter, waitsOnRunLoop: Thread.isMainThread)
        let source = self.source
        let subscribe = { run.subscription.setDisposable(source.subscribe { event in run.on(event) }) }
        if CurrentThreadScheduler.isScheduleRequired {
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                subscribe()
                return Disposables.create()
            }
        } else {
            subscribe()
        }
        return run.wait(timeout: timeout)
    }
}

/// One blocking subscription: events arrive on any thread; the caller waits on a semaphore, or,
/// on the main thread, runs the main run loop until the run stops.
private final class BlockingRun<Element>: @unchecked Sendable {
    // Safety: the outcome is only touched under `state`'s lock; the semaphore and the
    // SingleAssignmentDisposable are thread-safe; `retention`, `filter` and `waitsOnRunLoop` are
    // immutable, and `filter` is only called from `on(_:)`, which the source calls serially
    // (Rx grammar).
    private let state = LockedState(BlockingOutcome<Element>())
    private let semaphore = DispatchSemaphore(value: 0)
    private let retention: BlockingRetention
    private let filter: ((Element) throws -> Bool)?
    /// Whether the caller runs the main run loop instead of waiting on the semaphore.
    private let waitsOnRunLoop: Bool
    let subscription = SingleAssignmentDisposable()

    init(retention: BlockingRetention, filter: ((Element) throws -> Bool)?, waitsOnRunLoop: Bool) {
        self.retention = retention
        self.filter = filter
        self.waitsOnRunLoop = waitsOnRunLoop
    }

    private var isStopped: Bool { state.withLock { $0.isStopped } }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            // Once the answer is known nothing more is looked at (nor given to the predicate),
            // even if a synchronous source has not noticed the disposal yet.
            if isStopped { return }
            do {
                if let filter, try !filter(element) { return }
            } catch {
                stop(with: error)
                return
            }
            let stopped = state.withLock { outcome -> Bool in
                guard !outcome.isStopped else { return false }
                switch retention {
                case .all:
                    outcome.elements.append(element)
                case .lastOnly:
                    outcome.elements = [element]
                case .upTo(let limit):
                    outcome.elements.append(element)
                    if outcome.elements.count >= limit { outcome.isStopped = true }
                }
                return outcome.isStopped
            }
            if stopped { finish() }
        case .error(let error):
            stop(with: error)
        case .completed:
            stop(with: nil)
        }
    }

    /// Blocks until stopped or `timeout` passes, disposes the subscription, returns the outcome.
    func wait(timeout: TimeInterval?) -> BlockingOutcome<Element> {
        let deadline = timeout.map { Date(timeIntervalSinceNow: max(0, $0)) }
        if waitsOnRunLoop {
            runMainRunLoop(until: deadline)
        } else if let deadline {
            if semaphore.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .timedOut {
                stop(with: RxError.timeout)
            }
        } else {
            semaphore.wait()
        }
        subscription.dispose()
        return state.withLock { $0 }
    }

    /// Runs the current (main) run loop, which also drains the main dispatch queue, until the run
    /// stops or `deadline` passes.
    ///
    /// Each turn waits at most 50 ms: inside a main-queue block (where, on Darwin, the main queue
    /// cannot run the wake-up block) a stop from another thread is still noticed.
    private func runMainRunLoop(until deadline: Date?) {
        while !isStopped {
            let limit = deadline ?? .distantFuture
            if limit.timeIntervalSinceNow <= 0 {
                stop(with: RxError.timeout)
                return
            }
            if !RunLoop.current.run(mode: .default, before: min(limit, Date(timeIntervalSinceNow: 0.05))) {
                // The loop returned at once (nothing to wait on in this mode): back off briefly
                // instead of spinning.
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
    }

    private func stop(with error: Swift.Error?) {
        let first = state.withLock { outcome -> Bool in
            guard !outcome.isStopped else { return false }
            outcome.isStopped = true
            outcome.error = error
            return true
        }
        if first { finish() }
    }

    private func finish() {
        subscription.dispose()
        if waitsOnRunLoop {
            // An event on the main thread was handled by the run loop, which returns by itself;
            // from another thread, wake it with a no-op block on the main queue.
            if !Thread.isMainThread { DispatchQueue.main.async {} }
        } else {
            semaphore.signal()
        }
    }
}

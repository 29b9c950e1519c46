import Dispatch
import Foundation
import Streams

#if !canImport(ObjectiveC)
/// `.rx` for `NotificationCenter`, which on Linux is not an `NSObject` (on Apple platforms it has
/// `.rx` as every `NSObject` does).
extension NotificationCenter: ReactiveCompatible {}
#endif

extension Reactive where Base: NotificationCenter {
    /// Emits the notifications posted to the center under `name`, from `object` when one is given,
    /// while subscribed.
    ///
    ///     posted:  -a--^--a--b--a--!--a--     (name: a, object: nil; ^ subscribe, ! dispose)
    ///     output:  -------a-----a-----------
    ///
    /// Each subscription adds a block observer to the center (`addObserver(forName:object:queue:using:)`)
    /// and disposing it removes that observer. A `nil` name receives every notification (from
    /// `object`, when given); a `nil` object receives notifications from every sender.
    /// The sequence never completes or fails.
    ///
    ///     NotificationCenter.default.rx.notification(.sessionExpired)
    ///         .observe(on: MainScheduler.instance)
    ///         .subscribe(onNext: { _ in showSignIn() })
    ///         .disposed(by: disposeBag)
    ///
    /// - Parameters:
    ///   - name: The name to observe, or `nil` for every name.
    ///   - object: The sender to observe, or `nil` for every sender. Held weakly: the sequence does
    ///     not keep it alive. If it is gone when a subscription starts, that subscription receives
    ///     nothing (RxCocoa then receives every sender's notifications).
    /// - Returns: The posted notifications, from subscription until disposal.
    /// - Note: Delivers on the posting thread, synchronously inside `post`; use `observe(on:)` to
    ///   move. Once `dispose()` returns, nothing more is delivered: it waits for a delivery in
    ///   progress on another thread to finish (and returns at once when called from inside the
    ///   observer). So do not dispose while holding something that observer may wait for. Posts
    ///   from two threads at once reach the observer at once, which breaks the Rx contract (a DEBUG
    ///   warning says so); serialize them. See the Networking guide, "NotificationCenter.rx".
    public func notification(_ name: Notification.Name?, object: AnyObject? = nil) -> Observable<Notification> {
        let center = base
        let filtersBySender = object != nil
        return Observable.create { [weak object] observer in
            if filtersBySender && object == nil {
                // Nobody can post as a sender that no longer exists.
                return Disposables.create()
            }
            let delivery = NotificationDelivery(observer)
            let token = center.addObserver(forName: name, object: object, queue: nil) { notification in
                delivery.deliver(notification)
            }
            return Disposables.create {
                center.removeObserver(token)
                delivery.close()
            }
        }
    }
}

/// One `notification(_:object:)` subscription's path from the center's block to its observer:
/// lets deliveries through until closed, and makes `close()` wait for the deliveries in progress
/// on other threads, so that none reaches the observer after the subscription's `dispose()` returns.
///
/// Counted in `Resources` while alive: the center's block holds it, so a block left registered
/// after disposal shows up as a leak.
private final class NotificationDelivery: Sendable {
    private struct State {
        /// The subscription's observer; `nil` once closed.
        var observer: AnyObserver<Notification>?
        /// The threads delivering now, once per delivery in progress (a post from inside the
        /// observer adds its thread again).
        var deliveringThreads: [UInt] = []
        /// The closing thread and its wake-up, while it waits for other threads' deliveries.
        var closing: (thread: UInt, done: DispatchSemaphore)?
    }

    // `Sendable` through `LockedState` (which is, whatever it guards): the non-`Sendable` observer
    // inside is handed to each posting thread and called there, outside the lock, as Streams'
    // observers may be (one event at a time is the poster's contract: the subscription's sink
    // drops events after disposal and, in DEBUG builds, reports posts that overlap).
    private let state: LockedState<State>

    init(_ observer: AnyObserver<Notification>) {
        state = LockedState(State(observer: observer))
        Resources.incrementTotal(for: type(of: self))
    }

    deinit {
        Resources.decrementTotal(for: type(of: self))
    }

    /// Hands `notification` to the observer on the calling (posting) thread, unless closed.
    func deliver(_ notification: Notification) {
        let thread = currentThreadID()
        let observer = state.withLock { state -> AnyObserver<Notification>? in
            guard let observer = state.observer else { return nil }
            state.deliveringThreads.append(thread)
            return observer
        }
        guard let observer else { return }
        observer.onNext(notification)
        let wake = state.withLock { state -> DispatchSemaphore? in
            if let index = state.deliveringThreads.lastIndex(of: thread) {
                state.deliveringThreads.remove(at: index)
            }
            guard let closing = state.closing, !state.deliveringThreads.contains(where: { $0 != closing.thread }) else { return nil }
            state.closing = nil
            return closing.done
        }
        wake?.signal()
    }

    /// Stops deliveries and releases the observer; returns once no other thread is delivering.
    ///
    /// A delivery on the calling thread (the observer disposing its own subscription) is not
    /// waited for: it is the caller.
    func close() {
        let thread = currentThreadID()
        let (_, wait) = state.withLock { state -> (AnyObserver<Notification>?, DispatchSemaphore?) in
            // The observer is handed out and released after the lock (it may hold the last
            // reference to the subscription's sink).
            let released = state.observer.take()
            guard state.deliveringThreads.contains(where: { $0 != thread }) else { return (released, nil) }
            let done = DispatchSemaphore(value: 0)
            state.closing = (thread, done)
            return (released, done)
        }
        wait?.wait()
    }
}

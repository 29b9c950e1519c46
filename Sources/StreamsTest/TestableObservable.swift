import Streams

/// A test observable that plays recorded events and records its subscriptions.
///
/// Created by ``TestScheduler/createHotObservable(_:)`` and
/// ``TestScheduler/createColdObservable(_:)``. As in RxTest, the events the scheduler has yet to
/// play stay alive however the observable is held: one created inline
/// (`scheduler.createHotObservable([...]).bind(to: relay)`) plays every event.
///
/// What the scheduler lets go of, and when (see <doc:Testing#Lifetimes-and-leak-checks>):
/// - each scheduled event, once it has played or been cancelled, and everything still pending
///   when the scheduler itself is released;
/// - a subscription's events (cold) or its place among the observers (hot), when it is disposed
///   or terminated. As everywhere in Rx, a subscription that is neither stays alive.
public class TestableObservable<Element>: ObservableType, @unchecked Sendable {
    // Safety: mutable state (observers, subscriptions) is guarded by `state`'s lock.
    /// The scheduler the events play on.
    public let testScheduler: TestScheduler
    /// The events this observable plays.
    public let recordedEvents: [Recorded<Event<Element>>]

    /// The observers and subscriptions; scheduled playback captures this, never the observable.
    let state = LockedState(TestableState<Element>())

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.testScheduler = testScheduler
        self.recordedEvents = recordedEvents
    }

    /// When each subscription started and ended.
    public var subscriptions: [Subscription] { state.withLock { $0.subscriptions } }

    /// Subscribes `observer`; subclasses define when events play.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("abstract")
    }

    /// Records a new subscription at the current time and returns its disposable, which runs
    /// `cleanUp` and records the end. The disposable holds the state and only a weak reference to
    /// the scheduler (if the scheduler is gone, so is this observable, which holds it, and nobody
    /// can read the record).
    func recordSubscription(cleanUp: @escaping () -> Void) -> Disposable {
        let state = self.state
        let now = testScheduler.clock
        let index = state.withLock { state in
            state.subscriptions.append(Subscription(now))
            return state.subscriptions.count - 1
        }
        return Disposables.create { [weak testScheduler] in
            cleanUp()
            guard let now = testScheduler?.clock else { return }
            state.withLock { state in
                state.subscriptions[index] = Subscription(state.subscriptions[index].subscribe, now)
            }
        }
    }
}

struct TestableState<Element> {
    var subscriptions: [Subscription] = []
    var observers: [Int: AnyObserver<Element>] = [:]
    var nextKey = 0
    /// The key of the observer in the first slot, delivered to first (`nil` while it is free).
    var firstKey: Int?

    /// The observers in RxTest's order (its `Bag`'s): the first slot's, then the others in
    /// subscription order. The first slot goes to the first observer and, once that one is
    /// gone, to the next observer that subscribes.
    var orderedObservers: [AnyObserver<Element>] {
        let first = firstKey.flatMap { observers[$0] }
        let others = observers.filter { $0.key != firstKey }.sorted { $0.key < $1.key }.map(\.value)
        return (first.map { [$0] } ?? []) + others
    }
}

/// A hot test observable: events play at their absolute times whether or not anyone listens.
///
/// Each scheduled event holds the observers' state (not the observable), so the events play to
/// every subscriber even when nothing else references the observable.
final class HotObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    // Safety: inherits `TestableObservable`'s locking.
    override init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents)
        let state = self.state
        for recorded in recordedEvents {
            testScheduler.scheduleAt(recorded.time) {
                let observers = state.withLock { state in state.orderedObservers }
                for observer in observers { observer.on(recorded.value) }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let state = self.state
        let key = state.withLock { state -> Int in
            defer { state.nextKey += 1 }
            state.observers[state.nextKey] = AnyObserver(observer)
            if state.firstKey == nil { state.firstKey = state.nextKey }
            return state.nextKey
        }
        return recordSubscription {
            let removed = state.withLock { state -> AnyObserver<Element>? in
                if state.firstKey == key { state.firstKey = nil }
                return state.observers.removeValue(forKey: key)
            }
            _ = removed  // released after the lock
        }
    }
}

/// A cold test observable: each subscription plays the events at times relative to subscribing.
///
/// Each subscription's scheduled events hold its observer, so they play even when nothing else
/// references the observable; disposing the subscription cancels the rest.
final class ColdObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    // Safety: inherits `TestableObservable`'s locking.
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let scheduled = CompositeDisposable()
        let subscription = recordSubscription { scheduled.dispose() }
        for recorded in recordedEvents {
            _ = scheduled.insert(
                testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                    observer.on(recorded.value)
                    return Disposables.create()
                })
        }
        return subscription
    }
}

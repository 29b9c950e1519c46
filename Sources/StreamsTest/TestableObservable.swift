import Streams

/// A test observable that plays recorded events and records its subscriptions.
public class TestableObservable<Element>: ObservableType, @unchecked Sendable {
    // Safety: mutable state (observers, subscriptions) is guarded by `state`'s lock.
    /// The scheduler the events play on.
    public let testScheduler: TestScheduler
    /// The events this observable plays.
    public let recordedEvents: [Recorded<Event<Element>>]

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

    /// Records a new subscription at the current time; returns its index.
    func recordSubscribe() -> Int {
        let now = testScheduler.clock
        return state.withLock { state in
            state.subscriptions.append(Subscription(now))
            return state.subscriptions.count - 1
        }
    }

    /// Records the end of subscription `index` at the current time.
    func recordUnsubscribe(_ index: Int) {
        let now = testScheduler.clock
        state.withLock { state in
            state.subscriptions[index] = Subscription(state.subscriptions[index].subscribe, now)
        }
    }
}

struct TestableState<Element> {
    var subscriptions: [Subscription] = []
    var observers: [Int: AnyObserver<Element>] = [:]
    var nextKey = 0
}

/// A hot test observable: events play at their absolute times whether or not anyone listens.
final class HotObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    // Safety: inherits `TestableObservable`'s locking.
    override init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            _ = testScheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
                let observers = self.state.withLock { state in state.observers.sorted { $0.key < $1.key }.map(\.value) }
                for observer in observers { observer.on(recorded.value) }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let index = recordSubscribe()
        let key = state.withLock { state -> Int in
            defer { state.nextKey += 1 }
            state.observers[state.nextKey] = AnyObserver(observer)
            return state.nextKey
        }
        return Disposables.create { [weak self] in
            guard let self else { return }
            self.state.withLock { _ = $0.observers.removeValue(forKey: key) }
            self.recordUnsubscribe(index)
        }
    }
}

/// A cold test observable: each subscription plays the events at times relative to subscribing.
final class ColdObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
    // Safety: inherits `TestableObservable`'s locking.
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let index = recordSubscribe()
        let scheduled = CompositeDisposable()
        for recorded in recordedEvents {
            scheduled.insert(
                testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                    observer.on(recorded.value)
                    return Disposables.create()
                })
        }
        return Disposables.create { [weak self] in
            scheduled.dispose()
            self?.recordUnsubscribe(index)
        }
    }
}

/// A type that is a ``ControlEvent``: events of a UI element.
public protocol ControlEventType: ObservableType {
    /// Returns the value as a ``ControlEvent``.
    func asControlEvent() -> ControlEvent<Element>
}

/// Events of a UI element (RxCocoa's trait): taps, edits, selections.
///
/// Subscribing observes `events`, subscribed on `ConcurrentMainScheduler.instance`. The trait
/// promises what its creator makes true: no element on subscription, no errors, delivery on the
/// main thread. RxCocoa's UIKit/AppKit bindings create these; on other platforms an app creates
/// its own (from a relay, say) and its view models and tests use it like RxCocoa's.
///
///     let taps = PublishRelay<Void>()
///     let tap = ControlEvent(events: taps)
///     tap.asSignal().emit(onNext: { print("tapped") })
///
/// See <doc:Traits>.
public struct ControlEvent<PropertyType>: ControlEventType {
    /// The element type: the event's value.
    public typealias Element = PropertyType

    let events: Observable<PropertyType>

    /// Creates a control event from the sequence of its events.
    ///
    /// - Parameter events: The events; subscribed on `ConcurrentMainScheduler.instance`.
    /// - Note: Subscribes `events` on the main thread. See <doc:Traits>.
    public init<Events: ObservableType>(events: Events) where Events.Element == PropertyType {
        self.events = events.subscribe(on: ConcurrentMainScheduler.instance)
    }

    /// Subscribes `observer` to the events.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == PropertyType {
        events.subscribe(observer)
    }

    /// Returns the sequence of events.
    public func asObservable() -> Observable<PropertyType> {
        events
    }

    /// Returns the event itself.
    public func asControlEvent() -> ControlEvent<PropertyType> {
        self
    }

    /// Converts to an ``Infallible``; an error (which a control event does not send) ends it as
    /// completion.
    @_alwaysEmitIntoClient
    public func asInfallible() -> Infallible<PropertyType> {
        asInfallible(onErrorFallbackTo: .empty())
    }

    /// Converts to a ``Driver`` (delivered on the sharing scheduler, replaying the latest event).
    ///
    /// A control event does not fail; if its events do anyway, the error is reported to
    /// `Hooks.defaultErrorHandler` and the ``Driver`` completes (RxCocoa: `fatalError` in debug
    /// builds, completion in release builds).
    /// - Returns: The ``Driver``.
    /// - Note: Delivers on `SharingScheduler.make()`. See <doc:Traits>.
    public func asDriver() -> Driver<PropertyType> {
        asDriver(onErrorRecover: { error in
            Hooks.reportUnhandledError(error, subscriptionCallStack: nil)
            return .empty()
        })
    }

    /// Converts to a ``Signal`` (delivered on the sharing scheduler, not replayed).
    ///
    /// An error is reported to `Hooks.defaultErrorHandler` and the ``Signal`` completes, as in
    /// `asDriver()`.
    /// - Returns: The ``Signal``.
    /// - Note: Delivers on `SharingScheduler.make()`. See <doc:Traits>.
    public func asSignal() -> Signal<PropertyType> {
        asSignal(onErrorRecover: { error in
            Hooks.reportUnhandledError(error, subscriptionCallStack: nil)
            return .empty()
        })
    }
}

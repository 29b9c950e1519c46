/// A type that is a ``ControlProperty``: a UI property's values that can also be bound to.
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// Returns the value as a ``ControlProperty``.
    func asControlProperty() -> ControlProperty<Element>
}

/// A property of a UI element (RxCocoa's trait), as a sequence of its values and an observer
/// that sets it.
///
/// Subscribing observes `values`, subscribed on `ConcurrentMainScheduler.instance`; binding
/// (`on(_:)`, `bind(to:)`) sends elements and completion to `valueSink`. The trait promises what
/// its creator makes true: the current value first, then the user's changes, no errors, delivery
/// on the main thread. RxCocoa's UIKit/AppKit bindings create these; on other platforms an app
/// creates its own (from a relay, say) and its view models and tests use it like RxCocoa's.
///
///     let text = BehaviorRelay(value: "")
///     let field = ControlProperty(values: text, valueSink: Binder(model) { $0.text = $1 })
///     field.changed.subscribe(onNext: { print($0) })   // every value after the first
///
/// See <doc:Traits>.
public struct ControlProperty<PropertyType>: ControlPropertyType {
    /// The element type: the property's value.
    public typealias Element = PropertyType

    let values: Observable<PropertyType>
    let valueSink: AnyObserver<PropertyType>

    /// Creates a control property from the sequence of its values and the observer that sets it.
    ///
    /// - Parameters:
    ///   - values: The property's values; subscribed on `ConcurrentMainScheduler.instance`.
    ///   - valueSink: Receives the elements and completion bound to the property.
    /// - Note: Subscribes `values` on the main thread. See <doc:Traits>.
    public init<Values: ObservableType, Sink: ObserverType>(values: Values, valueSink: Sink)
    where Values.Element == PropertyType, Sink.Element == PropertyType {
        self.values = values.subscribe(on: ConcurrentMainScheduler.instance)
        self.valueSink = valueSink.asObserver()
    }

    /// Subscribes `observer` to the property's values.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == PropertyType {
        values.subscribe(observer)
    }

    /// The values after the first: the changes, as a ``ControlEvent``.
    ///
    ///     values:  a--b--c
    ///     changed: ---b--c
    public var changed: ControlEvent<PropertyType> {
        ControlEvent(events: values.skip(1))
    }

    /// Returns the sequence of the property's values.
    public func asObservable() -> Observable<PropertyType> {
        values
    }

    /// Returns the property itself.
    public func asControlProperty() -> ControlProperty<PropertyType> {
        self
    }

    /// Sets the property: elements and completion go to the value sink; an error is reported to
    /// `Hooks.defaultErrorHandler` and not forwarded (RxCocoa: `fatalError` in debug builds),
    /// since a property cannot fail.
    public func on(_ event: Event<PropertyType>) {
        switch event {
        case .next, .completed:
            valueSink.on(event)
        case .error(let error):
            Hooks.reportUnhandledError(error, subscriptionCallStack: nil)
        }
    }
}

extension ControlPropertyType where Element == String? {
    /// The property with `nil` read as `""` (binding a `String` sets it as `String?`).
    public var orEmpty: ControlProperty<String> {
        let property = asControlProperty()
        return ControlProperty(values: property.values.map { $0 ?? "" }, valueSink: property.valueSink.mapObserver { Optional($0) })
    }
}

extension ControlProperty {
    /// Converts to a ``Driver`` (delivered on the sharing scheduler, replaying the latest value).
    ///
    /// A control property does not fail; if its values do anyway, the error is reported to
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
}

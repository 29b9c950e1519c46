/// The base class of every observable sequence.
///
/// Create sequences with the static factories (`just`, ``ObservableType/of(_:scheduler:)``, ``ObservableType/create(_:)``, …) and transform them
/// with operators; subscribe with `subscribe(onNext:onError:onCompleted:onDisposed:)`.
open class Observable<Element>: ObservableType {
    /// Creates the base object; subclasses override `subscribe(_:)`.
    public init() {}

    /// Subscribes `observer`; subclasses must override.
    open func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("Observable.subscribe(_:) is abstract; override it in \(type(of: self))")
    }

    /// Returns `self`.
    public func asObservable() -> Observable<Element> { self }

    /// The stage ``ObservableType/filter(_:)`` appends to this sequence: a plain filter here;
    /// a `map` stage overrides it to return one fused map-and-filter stage (see
    /// <doc:Performance>, "Operator fusion").
    @usableFromInline
    func filterStage(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        // The producer's type from the cache: named here, in unspecialized code, it would be a
        // runtime metadata lookup (~290 instructions) per `filter` call (see `MetatypeCache`).
        let producerType = MetatypeCache.type(owner: type(of: self), observer: FilterStageKey.self) {
            FilterProducer<Element>.self
        }
        return unsafeBitCast(producerType, to: FilterProducer<Element>.Type.self).init(source: self, predicate: predicate)
    }
}

/// The `MetatypeCache` key (beside the source's type) of the producer ``ObservableType/filter(_:)``
/// appends to a source.
enum FilterStageKey {}

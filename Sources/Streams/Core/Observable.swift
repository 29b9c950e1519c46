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

    /// Registers `stage` (a `StageSink` of this sequence's elements) as its own observer node and
    /// returns the subscription, or returns `nil` when this sequence does not take stages
    /// directly: then the stage subscribes as an observer. Only ``PublishSubject`` does (while it
    /// is live and the inspector is not recording).
    func register(stage: SubjectObserver<Element>) -> SubjectSubscription? { nil }

    /// `map(transform)` applied to this sequence as one fused sequence, or `nil` when this
    /// sequence has none: then `map` adds a stage of its own. `just` and `map` have one (see
    /// `JustMapObservable` and `MapMapProducer`, and <doc:Performance>, "Operator fusion").
    ///
    /// `stage` makes `transform` as one stage of a fused chain of `map`s (`MapChainStage`): the
    /// caller (`map`, inlined into the user's code) builds it where the element types are
    /// concrete. Only a `map` calls it.
    @usableFromInline
    func mapStage<Result>(_ transform: @escaping (Element) throws -> Result, stage: () -> MapChainStage) -> Observable<Result>? { nil }

    /// Subscribes a trait's closures (``Single``'s `subscribe(onSuccess:onFailure:)`) without an
    /// observer object, or returns `nil` when this sequence cannot: then a `TraitClosureObserver`
    /// is subscribed. Only `just(…).map(…)` can (its one event is delivered at once; see
    /// `JustMapObservable`). `callStack` is the subscription's, for an error without a handler.
    @usableFromInline
    func subscribeTrait(success: ((Element) -> Void)?, failure: ((Swift.Error) -> Void)?, callStack: [String]?) -> Disposable? { nil }

    /// Whether subscribing to this sequence runs on the current thread's trampoline (starting it
    /// when none runs): true for operators and the synchronous sources built on them, false for
    /// the sources that emit at once (`just`, `empty`, `error`, `never`), subjects, the
    /// connectable sequences and `share` (see <doc:Grammar#Which-sources-use-the-trampoline>).
    ///
    /// Operators that subscribe inner sequences from an event handler start the trampoline
    /// around the subscription only when this is true, so that the inner's synchronous elements
    /// flow with the trampoline running exactly when they would in RxSwift.
    var subscribesOnTrampoline: Bool { false }

    /// Returns `self`.
    public func asObservable() -> Observable<Element> { self }
}

/// The trait of ``Completable``: completion or an error, never an element.
public enum CompletableTrait {}

/// A sequence that only completes or fails. See <doc:Traits>.
public typealias Completable = PrimitiveSequence<CompletableTrait, Never>

/// The event of a ``Completable``.
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
@frozen
public enum CompletableEvent: Sendable {
    /// The ``Completable`` failed.
    case error(Swift.Error)
    /// The ``Completable`` completed.
    case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// The closure a `Completable.create` subscriber sends its one event to.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// Creates a ``Completable`` from a subscribe closure that sends one ``CompletableEvent``.
    ///
    /// Only the first event counts, even when several threads race to send one: later events,
    /// and events after disposal, are dropped.
    /// - Note: Delivers on the thread that calls the observer. See <doc:Traits>.
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> Disposable) -> Completable {
        let source = Observable<Never>.create { observer in
            let delivered = AtomicFlag()
            return subscribe { event in
                guard delivered.set() else { return }
                switch event {
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
        }
        return Completable(raw: source)
    }

    /// Subscribes a closure that receives the one ``CompletableEvent``.
    /// - Note: Called on the thread that delivers the event. See <doc:Traits>.
    public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> Disposable {
        primitiveSequence.source.subscribe(
            TraitObserver(
                next: { _ in },  // a Completable has no elements (its Element is Never)
                error: { observer(.error($0)) },
                completed: { observer(.completed) }
            ))
    }

    /// Subscribes closures for completion, the error and disposal.
    ///
    /// An error with no `onError` handler goes to `Hooks.defaultErrorHandler`, with the call
    /// stack of this call when `Hooks.recordCallStackOnError` is on.
    /// - Note: Called on the thread that delivers the event. See <doc:Traits>.
    @inlinable  // as `Single`'s
    public func subscribe(
        onCompleted: (() -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        TraitClosureObserver<Never>.subscribe(
            to: primitiveSequence.source, onSuccess: nil, onFailure: onError, onCompleted: onCompleted,
            completionFails: false, onDisposed: onDisposed)
    }

    /// A ``Completable`` that completes at subscription.
    @_alwaysEmitIntoClient
    public static func empty() -> Completable {
        Completable(raw: Observable.empty())
    }

    /// A ``Completable`` that fails with `error` at subscription.
    @_alwaysEmitIntoClient
    public static func error(_ error: Swift.Error) -> Completable {
        Completable(raw: Observable.error(error))
    }

    /// A ``Completable`` that never terminates.
    @_alwaysEmitIntoClient
    public static func never() -> Completable {
        Completable(raw: Observable.never())
    }

    /// Runs side effects on the trait's events, subscription and disposal.
    /// - Note: Handlers run on the thread that delivers the event. See <doc:Traits>.
    public func `do`(
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Completable {
        Completable(
            raw: primitiveSequence.source.do(
                onError: onError, afterError: afterError, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Completes instead of failing.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func catchAndReturn() -> Completable {
        Completable(raw: primitiveSequence.source.catch { _ in .empty() })
    }
}

extension ObservableType where Element == Never {
    /// Returns this sequence of no elements as a ``Completable`` (its terminal event, unchanged).
    ///
    ///     source: -----|
    ///     output: -----|
    ///
    /// Only a sequence of `Never` converts, so in
    /// `scheduler.createColdObservable([.completed(20)]).asCompletable()` the element type is
    /// inferred. For a sequence with elements, drop them first: `ignoreElements().asCompletable()`.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
    }
}

final private class IgnoreElementsSink<Source, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Source

    func on(_ event: Event<Source>) {
        switch event {
        case .next: break
        case .error(let error): forwardOn(.error(error))
        case .completed: forwardCompleted()
        }
    }
}

final private class IgnoreElementsProducer<Source, Result>: Producer<Result> {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        let sink = IgnoreElementsSink<Source, Observer>(observer: observer, cancel: cancel)
        return (sink, source.subscribe(sink))
    }
}

/// Events compare by kind; errors by type and description (as ``Event``).
extension CompletableEvent: Equatable {
    /// Whether both events are the same kind with equal errors.
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case (.error(let l), .error(let r)): return errorsEqual(l, r)
        default: return false
        }
    }
}

/// The trait of ``Maybe``: one element, completion without an element, or an error.
public enum MaybeTrait {}

/// A sequence that emits one element, completes empty, or fails. See <doc:Traits>.
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// The event of a ``Maybe``.
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
@frozen
public enum MaybeEvent<Element> {
    /// The one element (the ``Maybe`` is over).
    case success(Element)
    /// The ``Maybe`` failed.
    case error(Swift.Error)
    /// The ``Maybe`` completed without an element.
    case completed
}

extension MaybeEvent: Sendable where Element: Sendable {}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The closure a `Maybe.create` subscriber sends its one event to.
    public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

    /// Creates a ``Maybe`` from a subscribe closure that sends one ``MaybeEvent``.
    ///
    /// Only the first event counts, even when several threads race to send one: later events,
    /// and events after disposal, are dropped.
    /// - Note: Delivers on the thread that calls the observer. See <doc:Traits>.
    public static func create(subscribe: @escaping (@escaping MaybeObserver) -> Disposable) -> Maybe<Element> {
        let source = Observable<Element>.create { observer in
            let delivered = AtomicFlag()
            return subscribe { event in
                guard delivered.set() else { return }
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .error(let error):
                    observer.on(.error(error))
                case .completed:
                    observer.on(.completed)
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes a closure that receives the one ``MaybeEvent``.
    /// - Note: Called on the thread that delivers the event. See <doc:Traits>.
    public func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void) -> Disposable {
        primitiveSequence.source.subscribe(
            TraitObserver(
                next: { observer(.success($0)) },
                error: { observer(.error($0)) },
                completed: { observer(.completed) }
            ))
    }

    /// Subscribes closures for the element, the error, empty completion and disposal.
    ///
    /// An error with no `onError` handler goes to `Hooks.defaultErrorHandler`, with the call
    /// stack of this call when `Hooks.recordCallStackOnError` is on.
    /// - Note: Called on the thread that delivers the event. See <doc:Traits>.
    @inlinable  // as `Single`'s
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        TraitClosureObserver<Element>.subscribe(
            to: primitiveSequence.source, onSuccess: onSuccess, onFailure: onError, onCompleted: onCompleted,
            completionFails: false, onDisposed: onDisposed)
    }

    /// A ``Maybe`` that succeeds with `element` at subscription.
    @inlinable  // as `Observable.just`
    public static func just(_ element: Element) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.just(element))
    }

    /// A ``Maybe`` that succeeds with `element` on `scheduler`.
    /// - Note: Delivers on `scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A ``Maybe`` that fails with `error` at subscription.
    @_alwaysEmitIntoClient
    public static func error(_ error: Swift.Error) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.error(error))
    }

    /// A ``Maybe`` that never emits.
    @_alwaysEmitIntoClient
    public static func never() -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.never())
    }

    /// A ``Maybe`` that completes empty at subscription.
    @_alwaysEmitIntoClient
    public static func empty() -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.empty())
    }

    /// Transforms the element with `transform`; a thrown error fails the ``Maybe``.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @inlinable  // as `Observable.map`
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element with `transform`; `nil` completes empty.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Keeps the element when `predicate` holds; otherwise completes empty.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.filter(predicate))
    }

    /// Continues with the ``Maybe`` that `selector` makes from the element; empty stays empty.
    /// - Note: Delivers on the inner ``Maybe``'s scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        PrimitiveSequence<MaybeTrait, Result>(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Succeeds with `element` instead of failing.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func catchAndReturn(_ element: Element) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// Runs side effects on the trait's events, subscription and disposal.
    /// - Note: Handlers run on the thread that delivers the event. See <doc:Traits>.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Maybe<Element> {
        PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
                onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Returns the ``Maybe`` as a ``Completable`` that ignores the element.
    @_alwaysEmitIntoClient
    public func asCompletable() -> Completable {
        primitiveSequence.source.ignoreElements().asCompletable()
    }
}

/// Events compare by element; errors by type and description (as ``Event``).
extension MaybeEvent: Equatable where Element: Equatable {
    /// Whether both events are the same kind with equal payloads.
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case (.success(let l), .success(let r)): return l == r
        case (.error(let l), .error(let r)): return errorsEqual(l, r)
        default: return false
        }
    }
}

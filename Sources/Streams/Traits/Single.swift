import Synchronization

/// The trait of ``Single``: exactly one element, or an error.
public enum SingleTrait {}

/// A sequence that emits exactly one element or an error. See <doc:Traits>.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// The event of a ``Single``: `.success(element)` or `.failure(error)`.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The closure a `Single.create` subscriber sends its one event to.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// Creates a ``Single`` from a subscribe closure that sends one ``SingleEvent``.
    ///
    ///     Single<Int>.create { single in
    ///         single(.success(42))
    ///         return Disposables.create()
    ///     }
    ///
    /// Only the first event counts, even when several threads race to send one: later events,
    /// and events after disposal, are dropped.
    /// - Note: Delivers on the thread that calls the observer. See <doc:Traits>.
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable) -> Single<Element> {
        let source = Observable<Element>.create { observer in
            let delivered = AtomicFlag()
            return subscribe { event in
                guard delivered.set() else { return }
                switch event {
                case .success(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .failure(let error):
                    observer.on(.error(error))
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes a closure that receives the one ``SingleEvent``.
    /// - Note: Called on the thread that delivers the event. See <doc:Traits>.
    public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> Disposable {
        primitiveSequence.source.subscribe(
            TraitObserver(
                next: { observer(.success($0)) },
                error: { observer(.failure($0)) },
                completed: { observer(.failure(RxError.noElements)) }
            ))
    }

    /// Subscribes closures for the element, the error and disposal.
    ///
    /// An error with no `onFailure` handler goes to `Hooks.defaultErrorHandler`, with the call
    /// stack of this call when `Hooks.recordCallStackOnError` is on.
    /// - Note: Called on the thread that delivers the event. See <doc:Traits>.
    @inlinable  // so that the observer's metadata is looked up once per call site, not per subscription
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        TraitClosureObserver<Element>.subscribe(
            to: primitiveSequence.source, onSuccess: onSuccess, onFailure: onFailure, onCompleted: nil,
            completionFails: true, onDisposed: onDisposed)
    }

    /// Subscribes closures that also receive `object`, held weakly: once it is gone, nothing is called.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in if let object { onSuccess?(object, element) } },
            onFailure: { [weak object] error in if let object { onFailure?(object, error) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }

    /// The RxSwift 5 spelling of `subscribe(onSuccess:onFailure:onDisposed:)`.
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: @escaping (Swift.Error) -> Void,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed)
    }

    /// A ``Single`` that succeeds with `element` at subscription.
    @inlinable  // as `Observable.just`: the sequence's metadata is looked up once per call site
    public static func just(_ element: Element) -> Single<Element> {
        PrimitiveSequence(raw: Observable.just(element))
    }

    /// A ``Single`` that succeeds with `element` on `scheduler`.
    /// - Note: Delivers on `scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        PrimitiveSequence(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A ``Single`` that fails with `error` at subscription.
    @_alwaysEmitIntoClient
    public static func error(_ error: Swift.Error) -> Single<Element> {
        PrimitiveSequence(raw: Observable.error(error))
    }

    /// A ``Single`` that never emits.
    @_alwaysEmitIntoClient
    public static func never() -> Single<Element> {
        PrimitiveSequence(raw: Observable.never())
    }

    /// Transforms the element with `transform`; a thrown error fails the ``Single``.
    ///
    ///     source: --1|
    ///     output: --2|     (transform: { $0 * 2 })
    ///
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @inlinable  // as `Observable.map`
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element with `transform`; `nil` makes an empty ``Maybe``.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        PrimitiveSequence(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Keeps the element when `predicate` holds; otherwise the ``Maybe`` completes empty.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.filter(predicate))
    }

    /// Continues with the ``Single`` that `selector` makes from the element.
    ///
    ///     source:   --1|
    ///     selector:   --a|
    ///     output:   ----a|
    ///
    /// - Note: Delivers on the inner ``Single``'s scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        PrimitiveSequence<SingleTrait, Result>(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Continues with the ``Maybe`` that `selector` makes from the element.
    /// - Note: Delivers on the inner ``Maybe``'s scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        PrimitiveSequence<MaybeTrait, Result>(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Continues with the ``Completable`` that `selector` makes from the element.
    /// - Note: Delivers on the inner ``Completable``'s scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Succeeds with `element` instead of failing.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// Runs side effects on the trait's events, subscription and disposal.
    ///
    /// A side effect that throws fails the ``Single`` with that error.
    /// - Note: Handlers run on the thread that delivers the event. See <doc:Traits>.
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        PrimitiveSequence(
            raw: primitiveSequence.source.do(
                onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Returns the ``Single`` as a ``Maybe`` (that never completes empty).
    @_alwaysEmitIntoClient
    public func asMaybe() -> Maybe<Element> {
        PrimitiveSequence(raw: primitiveSequence.source)
    }

    /// Returns the ``Single`` as a ``Completable`` that ignores the element.
    @_alwaysEmitIntoClient
    public func asCompletable() -> Completable {
        primitiveSequence.source.ignoreElements().asCompletable()
    }

    /// Pairs the elements of two ``Single``s with `resultSelector` once both succeed.
    ///
    ///     source1: --1|
    ///     source2: ----a|
    ///     output:  ----R|     (R = resultSelector(1, a))
    ///
    /// Fails as soon as either fails.
    /// - Note: Delivers on the thread of the later source. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func zip<E1, E2>(
        _ source1: Single<E1>, _ source2: Single<E2>,
        resultSelector: @escaping (E1, E2) throws -> Element
    ) -> Single<Element> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// Combines the elements of three ``Single``s with `resultSelector` once all succeed.
    /// - Note: Delivers on the thread of the last source. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func zip<E1, E2, E3>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>,
        resultSelector: @escaping (E1, E2, E3) throws -> Element
    ) -> Single<Element> {
        let pair = Observable.zip(source1.source, source2.source) { ($0, $1) }
        return PrimitiveSequence(raw: Observable.zip(pair, source3.source) { try resultSelector($0.0, $0.1, $1) })
    }

    /// Combines the elements of every ``Single`` in `collection` with `resultSelector`; an empty
    /// collection succeeds at once with `resultSelector([])`.
    /// - Note: Delivers on the thread of the last source. See <doc:Traits>.
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection,
        resultSelector: @escaping ([Element]) throws -> Result
    ) -> Single<Result> where Collection.Element == Single<Element> {
        if collection.isEmpty {
            return PrimitiveSequence(raw: Observable.deferred { Observable.just(try resultSelector([])) })
        }
        return PrimitiveSequence(raw: Observable.zip(collection.map { $0.source }, resultSelector: resultSelector))
    }

    /// Collects the elements of every ``Single`` in `collection` into an array; an empty
    /// collection succeeds at once with `[]`.
    /// - Note: Delivers on the thread of the last source. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> Single<[Element]> where Collection.Element == Single<Element> {
        if collection.isEmpty { return .just([]) }
        return PrimitiveSequence(raw: Observable.zip(collection.map { $0.source }))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait, Element == Any {
    /// Pairs the elements of two ``Single``s once both succeed.
    /// - Note: Delivers on the thread of the later source. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func zip<E1, E2>(_ source1: Single<E1>, _ source2: Single<E2>) -> Single<(E1, E2)> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source) { ($0, $1) })
    }

    /// Combines the elements of three ``Single``s into a tuple once all succeed.
    /// - Note: Delivers on the thread of the last source. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func zip<E1, E2, E3>(_ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>) -> Single<(E1, E2, E3)> {
        Single<(E1, E2, E3)>.zip(source1, source2, source3) { ($0, $1, $2) }
    }
}

/// An observer that delivers only the first event of the underlying sequence: every event of a
/// trait is final (a ``Single``'s success arrives as `next` followed by an ignored `completed`).
final class TraitObserver<Element>: ObserverType {
    private let next: (Element) -> Void
    private let error: (Swift.Error) -> Void
    private let completed: () -> Void
    private let stopped = Atomic<Bool>(false)  // inline: no second object per subscription

    /// One closure per kind of event (so no ``Event`` is built to deliver one).
    init(next: @escaping (Element) -> Void, error: @escaping (Swift.Error) -> Void, completed: @escaping () -> Void) {
        self.next = next
        self.error = error
        self.completed = completed
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): onNext(element)
        case .error(let failure):
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            error(failure)
        case .completed: onCompleted()
        }
    }

    func onNext(_ element: Element) {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        next(element)
    }

    func onCompleted() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        completed()
    }
}

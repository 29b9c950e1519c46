/// A sequence that never fails: elements, then maybe completion. See <doc:Traits>.
public struct Infallible<Element>: InfallibleType {
    @usableFromInline let source: Observable<Element>

    @usableFromInline
    init(_ source: Observable<Element>) {
        self.source = source
    }

    /// Returns the underlying observable sequence (which never sends `error`).
    public func asObservable() -> Observable<Element> { source }
}

/// A type that is an ``Infallible``: a sequence that never fails.
public protocol InfallibleType: ObservableConvertibleType {}

/// The event of an ``Infallible``.
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
@frozen
public enum InfallibleEvent<Element> {
    /// The next element.
    case next(Element)
    /// The sequence completed.
    case completed
}

extension InfallibleEvent: Sendable where Element: Sendable {}

extension InfallibleEvent: EventConvertible {
    /// The event as an ``Event`` (`.next` or `.completed`).
    public var event: Event<Element> {
        switch self {
        case .next(let element): return .next(element)
        case .completed: return .completed
        }
    }
}

extension Infallible {
    /// The closure an `Infallible.create` subscriber sends its events to.
    public typealias InfallibleObserver = (InfallibleEvent<Element>) -> Void

    /// Creates an ``Infallible`` from a subscribe closure that sends ``InfallibleEvent``s.
    ///
    /// Events after `completed`, or after disposal, are dropped.
    /// - Note: Delivers on the thread that calls the observer. See <doc:Traits>.
    public static func create(subscribe: @escaping (@escaping InfallibleObserver) -> Disposable) -> Infallible<Element> {
        Infallible(
            Observable.create { observer in
                subscribe { event in
                    switch event {
                    case .next(let element): observer.onNext(element)
                    case .completed: observer.onCompleted()
                    }
                }
            })
    }

    /// An ``Infallible`` of one element.
    @_alwaysEmitIntoClient
    public static func just(_ element: Element) -> Infallible<Element> { Infallible(.just(element)) }

    /// An ``Infallible`` of one element, sent on `scheduler`.
    /// - Note: Delivers on `scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(.just(element, scheduler: scheduler))
    }

    /// An ``Infallible`` of the given elements.
    @_alwaysEmitIntoClient
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(.from(elements, scheduler: scheduler))
    }

    /// An ``Infallible`` of the elements of `array`.
    @_alwaysEmitIntoClient
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(.from(array, scheduler: scheduler))
    }

    /// An ``Infallible`` of the elements of `sequence`.
    @_alwaysEmitIntoClient
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<
        Element
    > where Sequence.Element == Element {
        Infallible(.from(sequence, scheduler: scheduler))
    }

    /// An ``Infallible`` that completes at once.
    @_alwaysEmitIntoClient
    public static func empty() -> Infallible<Element> { Infallible(.empty()) }

    /// An ``Infallible`` that never sends anything.
    @_alwaysEmitIntoClient
    public static func never() -> Infallible<Element> { Infallible(.never()) }

    /// Creates the ``Infallible`` per subscription.
    ///
    /// A thrown error becomes an error event (as in RxSwift, whose factory also `throws`).
    /// - Note: Delivers on the created sequence's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func deferred(_ observableFactory: @escaping () throws -> Infallible<Element>) -> Infallible<Element> {
        Infallible(.deferred { try observableFactory().source })
    }
}

extension ObservableConvertibleType {
    /// Converts to an ``Infallible`` that emits `element` and completes instead of failing.
    ///
    ///     source: --1--#
    ///     output: --1--(e|)
    ///
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// Converts to an ``Infallible`` that continues with `infallible` instead of failing.
    /// - Note: Delivers on the source's, then `infallible`'s, scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { _ in infallible.source })
    }

    /// Converts to an ``Infallible`` that continues with the ``Infallible`` `onErrorRecover` makes
    /// from the error.
    /// - Note: Delivers on the source's, then the recovery's, scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asInfallible(onErrorRecover: @escaping (Swift.Error) -> Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { onErrorRecover($0).source })
    }
}

extension InfallibleType {
    /// Subscribes closures for elements, completion and disposal.
    /// - Note: Called on the thread that delivers the event. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        // An `Infallible` never fails; a broken hand-made one reaches `Hooks.defaultErrorHandler`.
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes closures that also receive `object`, held weakly: once it is gone, nothing is called.
    @_alwaysEmitIntoClient
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes a closure that receives every event (never `error`).
    @_alwaysEmitIntoClient
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        asObservable().subscribe(on)
    }

    /// Transforms each element.
    ///
    ///     source: --1--2--|
    ///     output: --2--4--|     (transform: { $0 * 2 })
    ///
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<Result> {
        Infallible<Result>(asObservable().map(transform))
    }

    /// Transforms each element and drops `nil`s.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Infallible<Result> {
        Infallible<Result>(asObservable().compactMap(transform))
    }

    /// Keeps the elements for which `predicate` holds.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().filter(predicate))
    }

    /// Projects each element to a sequence and merges them.
    ///
    ///     source:  --1---2------|
    ///     inner 1:   --a--b|
    ///     inner 2:       --c|
    ///     output:  ----a--bc----|
    ///
    /// As in RxSwift the inner sequences may be any ``ObservableConvertibleType``; return
    /// ``Infallible``s to keep the no-error guarantee.
    /// - Note: Delivers on the inner sequences' schedulers, serialized. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMap(selector))
    }

    /// Projects each element to a sequence and follows only the latest.
    ///
    /// As in RxSwift the inner sequences may be any ``ObservableConvertibleType``; return
    /// ``Infallible``s to keep the no-error guarantee.
    /// - Note: Delivers on the inner sequences' schedulers. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMapLatest(selector))
    }

    /// Drops consecutive elements for which `comparer` says they are equal.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(comparer))
    }

    /// Emits the running accumulation of the elements, starting from `seed`.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func scan<Seed>(_ seed: Seed, accumulator: @escaping (Seed, Element) -> Seed) -> Infallible<Seed> {
        Infallible<Seed>(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Emits the running accumulation of the elements, mutating `seed` in place.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func scan<Seed>(into seed: Seed, accumulator: @escaping (inout Seed, Element) -> Void) -> Infallible<Seed> {
        Infallible<Seed>(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Prepends `elements`.
    /// - Note: Delivers the prepended elements on the subscribing thread. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func startWith(_ elements: Element...) -> Infallible<Element> {
        Infallible(Observable.concat(Observable.from(elements), asObservable()))
    }

    /// Combines each element with the latest element of `second` (dropped until `second` emits).
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func withLatestFrom<Source: InfallibleType, Result>(_ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> Result)
        -> Infallible<Result>
    {
        Infallible<Result>(asObservable().withLatestFrom(second, resultSelector: resultSelector))
    }

    /// Replaces each element with the latest element of `second` (dropped until `second` emits).
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func withLatestFrom<Source: InfallibleType>(_ second: Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().withLatestFrom(second))
    }

    /// Subscribes `observers` to this sequence (elements and completion).
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        asObservable().subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Sends every element to `relays` (completion is not forwarded).
    @_alwaysEmitIntoClient
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` (completion is not forwarded).
    @_alwaysEmitIntoClient
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays` (completion is not forwarded).
    @_alwaysEmitIntoClient
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Subscribes `onNext` to the elements.
    @_alwaysEmitIntoClient
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext)
    }
}

extension InfallibleType where Element: Equatable {
    /// Drops consecutive duplicate elements.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged())
    }
}

extension Infallible {
    /// Emits the latest element of each source whenever one of them emits (once both have).
    /// - Note: Delivers on the emitting source's thread, serialized. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func combineLatest<I1: InfallibleType, I2: InfallibleType>(
        _ source1: I1, _ source2: I2,
        resultSelector: @escaping (I1.Element, I2.Element) throws -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.combineLatest(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector))
    }

    /// Interleaves the elements of `sources`; completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.source }))
    }
}

extension PublishRelay {
    /// Returns the relay as an ``Infallible``.
    @_alwaysEmitIntoClient
    public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}

extension BehaviorRelay {
    /// Returns the relay as an ``Infallible``.
    @_alwaysEmitIntoClient
    public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}

extension ReplayRelay {
    /// Returns the relay as an ``Infallible``.
    @_alwaysEmitIntoClient
    public func asInfallible() -> Infallible<Element> { Infallible(asObservable()) }
}

/// A sequence that never fails, delivers on the sharing scheduler and shares its subscription:
/// the base of ``Driver`` and ``Signal`` (RxCocoa's traits, on every platform). See <doc:Traits>.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType {
    @usableFromInline let source: Observable<Element>

    /// Wraps `source`, sharing it with the strategy's `share`.
    @usableFromInline
    init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    /// Wraps an already shared `source`.
    @usableFromInline
    init(raw source: Observable<Element>) {
        self.source = source
    }

    /// Returns the underlying shared observable sequence.
    public func asObservable() -> Observable<Element> { source }

    /// Returns `self`.
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> { self }

    /// The scheduler this kind of sequence delivers on (`SharingScheduler.make()`).
    public static var scheduler: SchedulerType { SharingStrategy.scheduler }

    /// Returns the shared sequence as an ``Infallible`` (it cannot fail).
    @_alwaysEmitIntoClient
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}

/// How a ``SharedSequence`` delivers and shares its elements.
public protocol SharingStrategyProtocol {
    /// The scheduler elements are delivered on.
    static var scheduler: SchedulerType { get }
    /// Shares `source` among subscribers.
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A type convertible to a ``SharedSequence``: ``Driver``, ``Signal``, or your own type (such as an
/// activity indicator) that conforms with `asSharedSequence()` alone.
///
///     final class ActivityIndicator: SharedSequenceConvertibleType {
///         typealias Element = Bool
///         typealias SharingStrategy = DriverSharingStrategy
///         func asSharedSequence() -> Driver<Bool> { loading }
///     }
///
/// Conforming types get `asObservable()` (so they are ``ObservableConvertibleType``), `drive` or
/// `emit` (by strategy), the shared-sequence operators (`map`, `filter`, `flatMapLatest`,
/// `debounce`, …), and they can be passed to `Driver.combineLatest`/`zip` and `withLatestFrom`
/// with other sequences of the same strategy. See <doc:Traits>.
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
    /// The sharing strategy.
    associatedtype SharingStrategy: SharingStrategyProtocol
    /// Returns the shared sequence.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequenceConvertibleType {
    /// The shared sequence's observable (`asSharedSequence().asObservable()`).
    public func asObservable() -> Observable<Element> {
        asSharedSequence().asObservable()
    }
}

/// ``Driver``'s strategy: deliver on `SharingScheduler.make()`, replay the latest element.
public struct DriverSharingStrategy: SharingStrategyProtocol {
    /// `SharingScheduler.make()` (the main scheduler unless mocked).
    public static var scheduler: SchedulerType { SharingScheduler.make() }
    /// `share(replay: 1, scope: .whileConnected)`.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

/// ``Signal``'s strategy: deliver on `SharingScheduler.make()`, replay nothing.
public struct SignalSharingStrategy: SharingStrategyProtocol {
    /// `SharingScheduler.make()` (the main scheduler unless mocked).
    public static var scheduler: SchedulerType { SharingScheduler.make() }
    /// `share(scope: .whileConnected)`.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }
}

/// A UI-state sequence: never fails, delivers on the main scheduler, replays its latest element.
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

/// A UI-event sequence: never fails, delivers on the main scheduler, replays nothing.
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

/// The scheduler ``Driver`` and ``Signal`` conversions deliver on; swappable in tests.
public enum SharingScheduler {
    // Safety: the factory may capture a non-Sendable scheduler (a `TestScheduler` in tests); it is
    // only installed by `mock`, whose caller drives that scheduler, as in RxCocoa.
    private static let factory = LockedState(UncheckedSendable<() -> SchedulerType>({ MainScheduler() }))

    /// Makes the scheduler used by an `asDriver`/`asSignal` conversion: a new `MainScheduler()`
    /// for each conversion, as in RxCocoa, unless inside `mock`.
    ///
    /// Each ``MainScheduler`` runs work at once when called on the main thread with nothing of its
    /// own queued, so a delivery nested inside another conversion's delivery runs at once too
    /// (one shared instance would defer it to the main queue). Feedback loops of ``Driver``s and
    /// ``Signal``s that answer synchronously produce RxCocoa's states in RxCocoa's order, and a
    /// ``Driver`` built on the main thread from a synchronous source delivers its first element
    /// during `drive`. See <doc:Traits#Scheduling>.
    public static var make: () -> SchedulerType {
        factory.withLock { $0.value }
    }

    /// Runs `action` with every ``Driver``/``Signal`` conversion delivering on `scheduler`.
    ///
    ///     SharingScheduler.mock(scheduler: testScheduler) {
    ///         let viewModel = ViewModel(...)   // its asDriver(...) calls use testScheduler
    ///     }
    ///
    /// The scheduler is captured when a sequence is converted, so build the sequences inside
    /// `action`. Not for concurrent use from parallel tests (in Swift Testing, use a
    /// `.serialized` suite).
    ///
    /// - Returns: What `action` returns (RxCocoa's returns nothing; a `Void` closure works as
    ///   there), so a test can build and run in one closure:
    ///   `let res = SharingScheduler.mock(scheduler: scheduler) { scheduler.start { viewModel.title } }`.
    @_alwaysEmitIntoClient
    @discardableResult
    public static func mock<Result>(scheduler: SchedulerType, action: () throws -> Result) rethrows -> Result {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with every ``Driver``/``Signal`` conversion using `makeScheduler()`, and
    /// returns what `action` returns.
    @discardableResult
    public static func mock<Result>(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Result) rethrows -> Result {
        let previous = factory.withLock { state -> UncheckedSendable<() -> SchedulerType> in
            defer { state = UncheckedSendable(makeScheduler) }
            return state
        }
        defer { factory.withLock { $0 = previous } }
        return try action()
    }
}

extension ObservableConvertibleType {
    /// Converts to a ``Driver`` that emits `onErrorJustReturn` and completes instead of failing.
    ///
    ///     source: --1--#
    ///     output: --1--(e|)      (delivered on the sharing scheduler, shared, replaying 1)
    ///
    /// - Note: Delivers on `SharingScheduler.make()` (the main scheduler). See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// Converts to a ``Driver`` that continues with `onErrorDriveWith` instead of failing.
    /// - Note: Delivers on `SharingScheduler.make()`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catch { _ in onErrorDriveWith.source })
    }

    /// Converts to a ``Driver`` that continues with the ``Driver`` `onErrorRecover` makes from the error.
    /// - Note: Delivers on `SharingScheduler.make()`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asDriver(onErrorRecover: @escaping (Swift.Error) -> Driver<Element>) -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catch { onErrorRecover($0).source })
    }

    /// Converts to a ``Signal`` that emits `onErrorJustReturn` and completes instead of failing.
    /// - Note: Delivers on `SharingScheduler.make()`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// Converts to a ``Signal`` that continues with `onErrorSignalWith` instead of failing.
    /// - Note: Delivers on `SharingScheduler.make()`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catch { _ in onErrorSignalWith.source })
    }

    /// Converts to a ``Signal`` that continues with the ``Signal`` `onErrorRecover` makes from the error.
    /// - Note: Delivers on `SharingScheduler.make()`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asSignal(onErrorRecover: @escaping (Swift.Error) -> Signal<Element>) -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catch { onErrorRecover($0).source })
    }
}

extension SharedSequence {
    /// A shared sequence of one element, subscribed (and so delivered, with its completion) on
    /// the sharing scheduler, as in RxCocoa.
    ///
    ///     output: -(a|)      (one scheduler step after subscription)
    ///
    /// - Note: Delivers on `SharingStrategy.scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.just(element).subscribe(on: SharingStrategy.scheduler))
    }

    /// A shared sequence that completes at once.
    @_alwaysEmitIntoClient
    public static func empty() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.empty().subscribe(on: SharingStrategy.scheduler))
    }

    /// A shared sequence that never emits.
    @_alwaysEmitIntoClient
    public static func never() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.never())
    }
}

extension SharedSequenceConvertibleType {
    /// Transforms each element.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence<SharingStrategy, Result>(asObservable().map(transform))
    }

    /// Keeps the elements for which `predicate` holds.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func filter(_ predicate: @escaping (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(asObservable().filter(predicate))
    }

    /// Projects each element to a shared sequence of the same strategy and follows only the latest
    /// (an addition: it lets `driver.flatMapLatest { _ in .just(1) }` infer ``Driver``).
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func flatMapLatest<Result>(_ selector: @escaping (Element) -> SharedSequence<SharingStrategy, Result>) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence<SharingStrategy, Result>(asObservable().flatMapLatest { selector($0).source })
    }

    /// Drops consecutive elements for which `comparer` says they are equal.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(asObservable().distinctUntilChanged(comparer))
    }

    /// Prepends `element`.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func startWith(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(asObservable().startWith(element))
    }

    /// Emits the running accumulation of the elements, starting from `seed`.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func scan<Seed>(_ seed: Seed, accumulator: @escaping (Seed, Element) -> Seed) -> SharedSequence<SharingStrategy, Seed> {
        SharedSequence<SharingStrategy, Seed>(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Combines each element with the latest element of `second`.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func withLatestFrom<Second: SharedSequenceConvertibleType, Result>(_ second: Second, resultSelector: @escaping (Element, Second.Element) -> Result)
        -> SharedSequence<SharingStrategy, Result> where Second.SharingStrategy == SharingStrategy
    {
        SharedSequence<SharingStrategy, Result>(asObservable().withLatestFrom(second.asSharedSequence().source, resultSelector: resultSelector))
    }

    /// Replaces each element with the latest element of `second`.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func withLatestFrom<Second: SharedSequenceConvertibleType>(_ second: Second) -> SharedSequence<SharingStrategy, Second.Element> {
        SharedSequence<SharingStrategy, Second.Element>(asObservable().withLatestFrom(second.asSharedSequence().source))
    }
}

extension SharedSequenceConvertibleType where Element: Equatable {
    /// Drops consecutive duplicate elements.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(asObservable().distinctUntilChanged())
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Subscribes `observers` to the driver (elements and completion).
    @_alwaysEmitIntoClient
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element {
        asObservable().subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Sends every element to `relays`.
    @_alwaysEmitIntoClient
    public func drive(_ relays: BehaviorRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays`.
    @_alwaysEmitIntoClient
    public func drive(_ relays: PublishRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays`.
    @_alwaysEmitIntoClient
    public func drive(_ relays: ReplayRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Subscribes closures for elements, completion and disposal.
    @_alwaysEmitIntoClient
    public func drive(onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil) -> Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes closures that also receive `object`, held weakly.
    @_alwaysEmitIntoClient
    public func drive<Object: AnyObject>(
        with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Subscribes `observers` to the signal (elements and completion).
    @_alwaysEmitIntoClient
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        asObservable().subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Sends every element to `relays`.
    @_alwaysEmitIntoClient
    public func emit(to relays: BehaviorRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays`.
    @_alwaysEmitIntoClient
    public func emit(to relays: PublishRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends every element to `relays`.
    @_alwaysEmitIntoClient
    public func emit(to relays: ReplayRelay<Element>...) -> Disposable {
        asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Subscribes closures for elements, completion and disposal.
    @_alwaysEmitIntoClient
    public func emit(onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil) -> Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes closures that also receive `object`, held weakly.
    @_alwaysEmitIntoClient
    public func emit<Object: AnyObject>(
        with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }
}

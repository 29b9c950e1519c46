/// A sequence with a restricted grammar (``Single``, ``Maybe``, ``Completable``) built over an ``Observable``.
///
/// The trait (``SingleTrait``, ``MaybeTrait``, ``CompletableTrait``) fixes which events are possible;
/// `asObservable()` returns the underlying sequence. See <doc:Traits>.
public struct PrimitiveSequence<Trait, Element> {
    @usableFromInline let source: Observable<Element>

    @usableFromInline
    init(raw: Observable<Element>) {
        source = raw
    }
}

/// A type that is, or wraps, a ``PrimitiveSequence``.
public protocol PrimitiveSequenceType {
    /// The trait of the sequence (``SingleTrait``, ``MaybeTrait``, ``CompletableTrait``).
    associatedtype Trait
    /// The element type.
    associatedtype Element

    /// The sequence itself.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// Returns `self`.
    public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// Returns the underlying observable sequence.
    public func asObservable() -> Observable<Element> { source }
}

extension PrimitiveSequence {
    /// Creates the trait per subscription by calling `observableFactory`.
    ///
    /// A thrown error becomes the trait's error.
    /// - Note: Delivers on the created trait's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func deferred(_ observableFactory: @escaping () throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.deferred { try observableFactory().asObservable() })
    }

    /// Shifts the trait's event (an error too) later by `dueTime`, as `Observable.delay`.
    ///
    ///     source: --a|
    ///     output: -----a|     (dueTime: 3 frames)
    ///
    /// - Note: Delivers on `scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler))
    }

    /// Delivers the trait's event on `scheduler`.
    /// - Note: Delivers on `scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func observe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.observe(on: scheduler))
    }

    /// Subscribes to (and disposes) the source on `scheduler`.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.subscribe(on: scheduler))
    }

    /// Continues with the trait returned by `handler` when the source fails.
    ///
    ///     source:  --#
    ///     handler:   --a|
    ///     output:  ----a|
    ///
    /// - Note: Delivers on the source's (then the handler's trait's) scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.catch { try handler($0).asObservable() })
    }

    /// Resubscribes to the source after each error, for ever.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func retry() -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry())
    }

    /// Subscribes to the source at most `maxAttemptCount` times; the last error is forwarded.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(maxAttemptCount))
    }

    /// Fails with `RxError.timeout` when the trait has not terminated within `dueTime`.
    ///
    ///     source: -------a|
    ///     output: ----#         (dueTime: 4 frames)
    ///
    /// - Note: Delivers on the source's scheduler, or `scheduler` for the timeout error. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Switches to `other` when the trait has not terminated within `dueTime`.
    /// - Note: Delivers on the source's or `other`'s scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func timeout(_ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, other: other.source, scheduler: scheduler))
    }
}

// `Driver`/`Signal` factories beyond `just`, `empty` and `never`: `deferred`, `of`, `from`,
// `interval` and `timer`. Every element is delivered on the sharing scheduler.

extension SharedSequence {
    /// Creates the shared sequence per subscription (of the shared source) by calling
    /// `observableFactory`.
    /// - Parameter observableFactory: Makes the sequence.
    /// - Returns: A shared sequence that defers creation.
    /// - Note: Delivers on the created sequence's (sharing) scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func deferred(_ observableFactory: @escaping () -> SharedSequence<SharingStrategy, Element>) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.deferred { observableFactory().source })
    }

    /// A shared sequence of `elements`, delivered one by one on the sharing scheduler.
    ///
    ///     output: -a-b-c-|      (one scheduler step each)
    ///
    /// - Parameter elements: The elements, in order.
    /// - Returns: The sequence of `elements`.
    /// - Note: Delivers on `SharingStrategy.scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(elements, scheduler: SharingStrategy.scheduler))
    }

    /// A shared sequence of the elements of `array`, delivered on the sharing scheduler.
    /// - Parameter array: The elements, in order.
    /// - Returns: The sequence of the array's elements.
    /// - Note: Delivers on `SharingStrategy.scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func from(_ array: [Element]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(array, scheduler: SharingStrategy.scheduler))
    }

    /// A shared sequence of the elements of `sequence`, delivered on the sharing scheduler.
    /// - Parameter sequence: The elements, in order.
    /// - Returns: The sequence of the sequence's elements.
    /// - Note: Delivers on `SharingStrategy.scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence) -> SharedSequence<SharingStrategy, Element> where Sequence.Element == Element {
        SharedSequence(raw: Observable.from(sequence, scheduler: SharingStrategy.scheduler))
    }

    /// A shared sequence of the wrapped value (if any), delivered on the sharing scheduler.
    ///
    ///     output: -(a|)      (optional: a)        -|      (optional: nil)
    ///
    /// - Parameter optional: The element, or `nil` for an empty sequence.
    /// - Returns: A sequence of zero or one element.
    /// - Note: Delivers on `SharingStrategy.scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func from(optional: Element?) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(optional: optional, scheduler: SharingStrategy.scheduler))
    }
}

extension SharedSequence where Element: RxAbstractInteger {
    /// Emits `0, 1, 2, …` every `period` on the sharing scheduler.
    ///
    ///     output: ---0---1---2--     (period: 3 frames)
    ///
    /// - Parameter period: The time between two elements (and before the first).
    /// - Returns: The shared counter.
    /// - Note: Delivers on `SharingStrategy.scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func interval(_ period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.interval(period, scheduler: SharingStrategy.scheduler))
    }

    /// Emits `0` after `dueTime`, then `1, 2, …` every `period`, on the sharing scheduler.
    ///
    ///     output: -----0--1--2--     (dueTime: 5 frames, period: 3 frames)
    ///
    /// - Parameters:
    ///   - dueTime: When to emit the first element.
    ///   - period: The time between the next elements.
    /// - Returns: The shared timer.
    /// - Note: Delivers on `SharingStrategy.scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler))
    }
}

// The `PrimitiveSequence` operators shared by `Single`, `Maybe` and `Completable` that
// `PrimitiveSequence.swift` does not hold: delayed subscription, `retry(when:)`, `debug`,
// `using`, `timer`, and RxSwift's deprecated spellings. Each one delegates to the `Observable`
// operator of the same name, so the trait keeps its grammar.

extension PrimitiveSequence {
    /// Subscribes to the source only after `dueTime` has passed.
    ///
    ///     source:        --a|          (cold, relative to its subscription)
    ///     output:  -------a|           (dueTime: 5 frames)
    ///
    /// Disposing before `dueTime` cancels the timer; the source is never subscribed.
    /// - Parameters:
    ///   - dueTime: How long to wait before subscribing.
    ///   - scheduler: The scheduler that runs the timer (and subscribes).
    /// - Returns: The trait, subscribed `dueTime` later.
    /// - Note: Subscribes on `scheduler`; delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler))
    }

    /// Resubscribes to the source each time the notifier built from its errors (of type `Error`)
    /// emits; the notifier's completion or error ends the trait the same way.
    ///
    ///     source (1st): --#
    ///     source (2nd):        --a|
    ///     notifier:       ----x
    ///     output:       ---------a|
    ///
    /// - Parameter notificationHandler: Maps the sequence of errors to the resubscription triggers.
    /// - Returns: The trait, resubscribed on every trigger.
    /// - Note: Resubscribes on the notifier's thread. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Resubscribes to the source each time the notifier built from its errors emits.
    ///
    /// As `retry(when:)` with every error passed to the notifier.
    /// - Parameter notificationHandler: Maps the sequence of errors to the resubscription triggers.
    /// - Returns: The trait, resubscribed on every trigger.
    /// - Note: Resubscribes on the notifier's thread. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Prints the trait's events, subscription and disposal (as `Observable.debug`).
    ///
    /// - Parameters:
    ///   - identifier: A prefix for the printed lines (default: the file, line and function).
    ///   - trimOutput: Whether to cut long event descriptions.
    ///   - file: The calling file, used for the default identifier (filled in by the compiler).
    ///   - line: The calling line, used for the default identifier.
    ///   - function: The calling function, used for the default identifier.
    /// - Returns: The trait, unchanged.
    /// - Note: Prints on the thread that delivers the event. See <doc:Utility>.
    @_alwaysEmitIntoClient
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// Creates a resource for each subscription and a trait that uses it; the resource is
    /// disposed when the subscription ends (after the trait's terminal event).
    ///
    /// - Parameters:
    ///   - resourceFactory: Creates the resource.
    ///   - primitiveSequenceFactory: Creates the trait that uses the resource.
    /// - Returns: The trait, bound to the resource's lifetime.
    /// - Note: The factories run on the subscribing thread. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.using(resourceFactory, observableFactory: { try primitiveSequenceFactory($0).source }))
    }

    /// Subscribes to the source on `scheduler` (renamed `subscribe(on:)`).
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        subscribe(on: scheduler)
    }

    /// Delivers the trait's event on `scheduler` (renamed `observe(on:)`).
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        observe(on: scheduler)
    }

    /// Continues with the trait `handler` returns when the source fails (renamed `catch(_:)`).
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        `catch`(handler)
    }

    /// Resubscribes when the notifier emits (renamed `retry(when:)`).
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }

    /// Resubscribes when the notifier emits (renamed `retry(when:)`).
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }
}

extension PrimitiveSequenceType where Element: RxAbstractInteger {
    /// A trait that emits `0` after `dueTime` (and completes, for ``Single`` and ``Maybe``).
    ///
    ///     output: -----(0|)     (dueTime: 5 frames)
    ///
    /// - Parameters:
    ///   - dueTime: When to emit.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The one-shot timer trait.
    /// - Note: Delivers on `scheduler`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func timer(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable<Element>.timer(dueTime, scheduler: scheduler))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Succeeds with `element` instead of failing (renamed `catchAndReturn(_:)`).
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds with `element` instead of failing (renamed `catchAndReturn(_:)`).
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element))
    }
}

// Conversions to `Driver`/`Signal` that RxCocoa has besides `asDriver(onError…)` and
// `asSignal(onError…)`: the generic `asSharedSequence(sharingStrategy:…)`, the identity
// `asDriver()`/`asSignal()`, and the relays' and `Infallible`'s error-free conversions.

extension ObservableConvertibleType {
    /// Converts to a shared sequence of strategy `S` that emits `onErrorJustReturn` and completes
    /// instead of failing.
    ///
    ///     source: --1--#
    ///     output: --1--(e|)      (delivered on S.scheduler, shared with S.share)
    ///
    /// - Parameters:
    ///   - sharingStrategy: The strategy (`DriverSharingStrategy.self`, `SignalSharingStrategy.self`).
    ///   - onErrorJustReturn: The element sent in place of an error.
    /// - Returns: The shared sequence.
    /// - Note: Delivers on `S.scheduler`. See <doc:Traits>.
    public func asSharedSequence<S: SharingStrategyProtocol>(sharingStrategy: S.Type = S.self, onErrorJustReturn: Element) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// Converts to a shared sequence of strategy `S` that continues with `onErrorDriveWith`
    /// instead of failing.
    /// - Parameters:
    ///   - sharingStrategy: The strategy.
    ///   - onErrorDriveWith: The sequence that takes over after an error.
    /// - Returns: The shared sequence.
    /// - Note: Delivers on `S.scheduler`. See <doc:Traits>.
    public func asSharedSequence<S: SharingStrategyProtocol>(sharingStrategy: S.Type = S.self, onErrorDriveWith: SharedSequence<S, Element>) -> SharedSequence<
        S, Element
    > {
        SharedSequence(asObservable().observe(on: S.scheduler).catch { _ in onErrorDriveWith.source })
    }

    /// Converts to a shared sequence of strategy `S` that continues with the sequence
    /// `onErrorRecover` makes from the error.
    /// - Parameters:
    ///   - sharingStrategy: The strategy.
    ///   - onErrorRecover: Makes the sequence that takes over after an error.
    /// - Returns: The shared sequence.
    /// - Note: Delivers on `S.scheduler`. See <doc:Traits>.
    public func asSharedSequence<S: SharingStrategyProtocol>(
        sharingStrategy: S.Type = S.self, onErrorRecover: @escaping (Swift.Error) -> SharedSequence<S, Element>
    ) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catch { onErrorRecover($0).source })
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Returns the ``Driver`` itself.
    @_alwaysEmitIntoClient
    public func asDriver() -> Driver<Element> {
        asSharedSequence()
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// Returns the ``Signal`` itself.
    @_alwaysEmitIntoClient
    public func asSignal() -> Signal<Element> {
        asSharedSequence()
    }
}

extension InfallibleType {
    /// Converts to a ``Driver``: delivered on the sharing scheduler, replaying the latest element.
    ///
    ///     source: --1--2--|
    ///     output: --1--2--|      (on SharingScheduler.make(), shared, replaying 1)
    ///
    /// - Returns: The ``Driver``.
    /// - Note: Delivers on `SharingScheduler.make()`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension BehaviorRelay {
    /// Converts the relay to a ``Driver`` (its current value first, then every accepted one).
    /// - Returns: The ``Driver``.
    /// - Note: Delivers on `SharingScheduler.make()`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension PublishRelay {
    /// Converts the relay to a ``Driver`` (every accepted element; the latest is replayed).
    /// - Returns: The ``Driver``.
    /// - Note: Delivers on `SharingScheduler.make()`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }

    /// Converts the relay to a ``Signal`` (every accepted element; nothing is replayed).
    /// - Returns: The ``Signal``.
    /// - Note: Delivers on `SharingScheduler.make()`. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func asSignal() -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}

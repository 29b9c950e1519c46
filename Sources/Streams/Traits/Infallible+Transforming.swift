// `Infallible`'s `flatMapFirst` and `concatMap` (`map`, `flatMap`, `flatMapLatest`, `scan` and
// `compactMap` live in `Infallible.swift`).

extension InfallibleType {
    /// Projects each element to a sequence, ignoring elements that arrive while one is running.
    ///
    ///     source:  --1--2-----3--|
    ///     inner 1:   --a--b|
    ///     inner 3:            --c|
    ///     output:  ----a--b-----c|     (2 arrives while inner 1 runs: dropped)
    ///
    /// As in RxSwift the inner sequences may be any ``ObservableConvertibleType``; return
    /// ``Infallible``s to keep the no-error guarantee.
    /// - Parameter selector: Makes the inner sequence of an element.
    /// - Returns: The elements of the inner sequences that were subscribed.
    /// - Note: Delivers on the inner sequences' schedulers, serialized. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().flatMapFirst(selector))
    }

    /// Projects each element to a sequence and concatenates them, one after another.
    ///
    ///     source:  --1--2-----------|
    ///     inner 1:   --a--b|
    ///     inner 2:         --c|       (subscribed when inner 1 completes)
    ///     output:  ----a--b--c------|
    ///
    /// - Parameter selector: Makes the inner sequence of an element.
    /// - Returns: The elements of the inner sequences, in source order.
    /// - Note: Delivers on the inner sequences' schedulers. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().concatMap(selector))
    }
}

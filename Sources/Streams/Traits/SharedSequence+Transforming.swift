// `Driver`/`Signal` transforming operators beyond `map`, `scan` and the same-strategy
// `flatMapLatest` of `SharedSequence.swift`. As in RxCocoa, the inner sequences of the
// flattening operators may use another sharing strategy; the result uses theirs.

extension SharedSequenceConvertibleType {
    /// Transforms each element and drops `nil`s.
    ///
    ///     source: --1--2--3--|
    ///     output: -----2-----|     (transform: { $0 % 2 == 0 ? $0 : nil })
    ///
    /// - Parameter selector: The transform; `nil` drops the element.
    /// - Returns: The non-`nil` results.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func compactMap<Result>(_ selector: @escaping (Element) -> Result?) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence<SharingStrategy, Result>(asObservable().compactMap(selector))
    }

    /// Projects each element to a shared sequence and merges them.
    ///
    ///     source:  --1---2------|
    ///     inner 1:   --a--b|
    ///     inner 2:       --c|
    ///     output:  ----a--bc----|
    ///
    /// - Parameter selector: Makes the inner sequence of an element.
    /// - Returns: The merged inner elements, shared with the inner sequences' strategy.
    /// - Note: Delivers on the inner sequences' (sharing) scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func flatMap<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence<Sharing, Result>(asObservable().flatMap { selector($0).source })
    }

    /// Projects each element to a shared sequence, ignoring elements that arrive while one runs.
    ///
    ///     source:  --1--2-----3--|
    ///     inner 1:   --a--b|
    ///     inner 3:            --c|
    ///     output:  ----a--b-----c|
    ///
    /// - Parameter selector: Makes the inner sequence of an element.
    /// - Returns: The elements of the inner sequences that were subscribed.
    /// - Note: Delivers on the inner sequences' (sharing) scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func flatMapFirst<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence<Sharing, Result>(asObservable().flatMapFirst { selector($0).source })
    }

    /// Projects each element to a shared sequence of another strategy and follows only the latest.
    ///
    ///     source:  --1---2------|
    ///     inner 1:   --a--b|
    ///     inner 2:       --c|
    ///     output:  ----a---c----|      (inner 1 is disposed when 2 arrives)
    ///
    /// - Parameter selector: Makes the inner sequence of an element.
    /// - Returns: The elements of the latest inner sequence.
    /// - Note: Delivers on the inner sequences' (sharing) scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func flatMapLatest<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence<Sharing, Result>(asObservable().flatMapLatest { selector($0).source })
    }
}

extension SharedSequenceConvertibleType where Element: SharedSequenceConvertibleType {
    /// Follows only the latest inner shared sequence.
    ///
    ///     source:  --A---B------|
    ///     A:         --a--b|
    ///     B:             --c|
    ///     output:  ----a---c----|
    ///
    /// - Returns: The elements of the latest inner sequence.
    /// - Note: Delivers on the inner sequences' (sharing) scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func switchLatest() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence<Element.SharingStrategy, Element.Element>(asObservable().map { $0.asSharedSequence().source }.switchLatest())
    }

    /// Merges the elements of all inner shared sequences.
    /// - Returns: The interleaved inner elements.
    /// - Note: Delivers on the inner sequences' (sharing) scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func merge() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence<Element.SharingStrategy, Element.Element>(asObservable().map { $0.asSharedSequence().source }.merge())
    }

    /// Merges the elements of the inner shared sequences, subscribing to at most `maxConcurrent`
    /// of them at a time (the others wait in order).
    /// - Parameter maxConcurrent: The maximum number of inner subscriptions at once.
    /// - Returns: The interleaved inner elements.
    /// - Note: Delivers on the inner sequences' (sharing) scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func merge(maxConcurrent: Int) -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence<Element.SharingStrategy, Element.Element>(asObservable().map { $0.asSharedSequence().source }.merge(maxConcurrent: maxConcurrent))
    }
}

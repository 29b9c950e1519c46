// `Driver`/`Signal` filtering beyond `filter` and the plain and comparer forms of
// `distinctUntilChanged`: key-based `distinctUntilChanged` and `skip`.

extension SharedSequenceConvertibleType {
    /// Drops consecutive elements whose `keySelector` keys are equal.
    ///
    ///     source: --a1--a2--b3--|     (key: the letter)
    ///     output: --a1------b3--|
    ///
    /// - Parameter keySelector: Computes the key compared with `==`.
    /// - Returns: The elements whose key differs from the previous element's.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(asObservable().distinctUntilChanged(keySelector))
    }

    /// Drops consecutive elements whose `keySelector` keys `comparer` says are equal.
    /// - Parameters:
    ///   - keySelector: Computes the key of an element.
    ///   - comparer: Whether two keys are equal.
    /// - Returns: The elements whose key differs from the previous element's.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<K>(_ keySelector: @escaping (Element) -> K, comparer: @escaping (K, K) -> Bool) -> SharedSequence<SharingStrategy, Element>
    {
        SharedSequence<SharingStrategy, Element>(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops the first `count` elements.
    ///
    ///     source: --1--2--3--|
    ///     output: --------3--|     (count: 2)
    ///
    /// - Parameter count: How many elements to drop.
    /// - Returns: The elements after the first `count`.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(asObservable().skip(count))
    }
}

// Generated: SharedSequence (Driver/Signal) zip arities 2-8, with a resultSelector and as tuples.

extension SharedSequence {
    /// Combines the elements of the sources at the same index with `resultSelector`.
    ///
    ///     source1: --1----2-----|
    ///     source2: ----a-----b--|
    ///     output:  ----A-----B--|     (A = selector(1, a), B = selector(2, b))
    ///
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>,
        resultSelector: @escaping (E1, E2) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 3 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>,
        resultSelector: @escaping (E1, E2, E3) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(source1.source, source2.source, source3.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 4 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>, _ source4: SharedSequence<SharingStrategy, E4>,
        resultSelector: @escaping (E1, E2, E3, E4) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(source1.source, source2.source, source3.source, source4.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 5 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>, _ source4: SharedSequence<SharingStrategy, E4>, _ source5: SharedSequence<SharingStrategy, E5>,
        resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 6 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>, _ source4: SharedSequence<SharingStrategy, E4>, _ source5: SharedSequence<SharingStrategy, E5>, _ source6: SharedSequence<SharingStrategy, E6>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 7 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>, _ source4: SharedSequence<SharingStrategy, E4>, _ source5: SharedSequence<SharingStrategy, E5>, _ source6: SharedSequence<SharingStrategy, E6>, _ source7: SharedSequence<SharingStrategy, E7>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 8 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>, _ source4: SharedSequence<SharingStrategy, E4>, _ source5: SharedSequence<SharingStrategy, E5>, _ source6: SharedSequence<SharingStrategy, E6>, _ source7: SharedSequence<SharingStrategy, E7>, _ source8: SharedSequence<SharingStrategy, E8>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, source8.source, resultSelector: resultSelector))
    }
}

extension SharedSequence where Element == Any {
    /// Emits a tuple of the elements of the sources at the same index.
    ///
    ///     source1: --1----2-----|
    ///     source2: ----a-----b--|
    ///     output:  ----A-----B--|     (A = (1, a), B = (2, b))
    ///
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>
    ) -> SharedSequence<SharingStrategy, (E1, E2)> {
        SharedSequence<SharingStrategy, (E1, E2)>(Observable.zip(source1.source, source2.source))
    }

    /// Emits a tuple of the elements of 3 sources at the same index.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>
    ) -> SharedSequence<SharingStrategy, (E1, E2, E3)> {
        SharedSequence<SharingStrategy, (E1, E2, E3)>(Observable.zip(source1.source, source2.source, source3.source))
    }

    /// Emits a tuple of the elements of 4 sources at the same index.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>, _ source4: SharedSequence<SharingStrategy, E4>
    ) -> SharedSequence<SharingStrategy, (E1, E2, E3, E4)> {
        SharedSequence<SharingStrategy, (E1, E2, E3, E4)>(Observable.zip(source1.source, source2.source, source3.source, source4.source))
    }

    /// Emits a tuple of the elements of 5 sources at the same index.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>, _ source4: SharedSequence<SharingStrategy, E4>, _ source5: SharedSequence<SharingStrategy, E5>
    ) -> SharedSequence<SharingStrategy, (E1, E2, E3, E4, E5)> {
        SharedSequence<SharingStrategy, (E1, E2, E3, E4, E5)>(Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source))
    }

    /// Emits a tuple of the elements of 6 sources at the same index.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>, _ source4: SharedSequence<SharingStrategy, E4>, _ source5: SharedSequence<SharingStrategy, E5>, _ source6: SharedSequence<SharingStrategy, E6>
    ) -> SharedSequence<SharingStrategy, (E1, E2, E3, E4, E5, E6)> {
        SharedSequence<SharingStrategy, (E1, E2, E3, E4, E5, E6)>(Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source))
    }

    /// Emits a tuple of the elements of 7 sources at the same index.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>, _ source4: SharedSequence<SharingStrategy, E4>, _ source5: SharedSequence<SharingStrategy, E5>, _ source6: SharedSequence<SharingStrategy, E6>, _ source7: SharedSequence<SharingStrategy, E7>
    ) -> SharedSequence<SharingStrategy, (E1, E2, E3, E4, E5, E6, E7)> {
        SharedSequence<SharingStrategy, (E1, E2, E3, E4, E5, E6, E7)>(Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source))
    }

    /// Emits a tuple of the elements of 8 sources at the same index.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: SharedSequence<SharingStrategy, E1>, _ source2: SharedSequence<SharingStrategy, E2>, _ source3: SharedSequence<SharingStrategy, E3>, _ source4: SharedSequence<SharingStrategy, E4>, _ source5: SharedSequence<SharingStrategy, E5>, _ source6: SharedSequence<SharingStrategy, E6>, _ source7: SharedSequence<SharingStrategy, E7>, _ source8: SharedSequence<SharingStrategy, E8>
    ) -> SharedSequence<SharingStrategy, (E1, E2, E3, E4, E5, E6, E7, E8)> {
        SharedSequence<SharingStrategy, (E1, E2, E3, E4, E5, E6, E7, E8)>(Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, source8.source))
    }
}

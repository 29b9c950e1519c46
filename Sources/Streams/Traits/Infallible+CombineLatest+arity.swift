// Generated: Infallible.combineLatest arities 3-8 with resultSelector, 2-8 as tuples.

extension Infallible {
    /// Emits `resultSelector` of the latest element of each of 3 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>,
        resultSelector: @escaping (E1, E2, E3) throws -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.combineLatest(source1.source, source2.source, source3.source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the latest element of each of 4 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3, E4>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>,
        resultSelector: @escaping (E1, E2, E3, E4) throws -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.combineLatest(source1.source, source2.source, source3.source, source4.source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the latest element of each of 5 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3, E4, E5>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>,
        resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.combineLatest(source1.source, source2.source, source3.source, source4.source, source5.source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the latest element of each of 6 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3, E4, E5, E6>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>,
        _ source6: Infallible<E6>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the latest element of each of 7 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>,
        _ source6: Infallible<E6>, _ source7: Infallible<E7>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the latest element of each of 8 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>,
        _ source6: Infallible<E6>, _ source7: Infallible<E7>, _ source8: Infallible<E8>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.combineLatest(
                source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, source8.source,
                resultSelector: resultSelector))
    }
}

extension Infallible where Element == Any {
    /// Emits a tuple of the latest element of each source whenever one emits (once all have);
    /// completes when all complete.
    ///
    ///     source1: --1-----2-----
    ///     source2: -----a-----b--
    ///     output:  -----A--B--C--     (A = (1, a), B = (2, a), C = (2, b))
    ///
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>
    ) -> Infallible<(E1, E2)> {
        Infallible<(E1, E2)>(Observable.combineLatest(source1.source, source2.source))
    }

    /// Emits a tuple of the latest element of each of 3 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>
    ) -> Infallible<(E1, E2, E3)> {
        Infallible<(E1, E2, E3)>(Observable.combineLatest(source1.source, source2.source, source3.source))
    }

    /// Emits a tuple of the latest element of each of 4 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3, E4>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>
    ) -> Infallible<(E1, E2, E3, E4)> {
        Infallible<(E1, E2, E3, E4)>(Observable.combineLatest(source1.source, source2.source, source3.source, source4.source))
    }

    /// Emits a tuple of the latest element of each of 5 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3, E4, E5>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>
    ) -> Infallible<(E1, E2, E3, E4, E5)> {
        Infallible<(E1, E2, E3, E4, E5)>(Observable.combineLatest(source1.source, source2.source, source3.source, source4.source, source5.source))
    }

    /// Emits a tuple of the latest element of each of 6 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3, E4, E5, E6>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>,
        _ source6: Infallible<E6>
    ) -> Infallible<(E1, E2, E3, E4, E5, E6)> {
        Infallible<(E1, E2, E3, E4, E5, E6)>(
            Observable.combineLatest(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source))
    }

    /// Emits a tuple of the latest element of each of 7 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>,
        _ source6: Infallible<E6>, _ source7: Infallible<E7>
    ) -> Infallible<(E1, E2, E3, E4, E5, E6, E7)> {
        Infallible<(E1, E2, E3, E4, E5, E6, E7)>(
            Observable.combineLatest(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source))
    }

    /// Emits a tuple of the latest element of each of 8 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the emitting source's thread, serialized. See `Guides/Traits.md`.
    public static func combineLatest<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>,
        _ source6: Infallible<E6>, _ source7: Infallible<E7>, _ source8: Infallible<E8>
    ) -> Infallible<(E1, E2, E3, E4, E5, E6, E7, E8)> {
        Infallible<(E1, E2, E3, E4, E5, E6, E7, E8)>(
            Observable.combineLatest(
                source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, source8.source))
    }
}

// Generated: Infallible.zip arities 2-8 (with a resultSelector, as in RxSwift).

extension Infallible {
    /// Combines the elements of the sources at the same index with `resultSelector`, once each
    /// has produced its element for that index.
    ///
    ///     source1: --1----2-----|
    ///     source2: ----a-----b--|
    ///     output:  ----A-----B--|     (A = selector(1, a), B = selector(2, b))
    ///
    /// Completes once a completed source has no buffered elements left to pair.
    /// - Note: Delivers on the thread of the source that completed a pair. See `Guides/Traits.md`.
    public static func zip<E1, E2>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>,
        resultSelector: @escaping (E1, E2) throws -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 3 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the thread of the source that completed a tuple. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>,
        resultSelector: @escaping (E1, E2, E3) throws -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.zip(source1.source, source2.source, source3.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 4 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the thread of the source that completed a tuple. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>,
        resultSelector: @escaping (E1, E2, E3, E4) throws -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.zip(source1.source, source2.source, source3.source, source4.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 5 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the thread of the source that completed a tuple. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>,
        resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element
    ) -> Infallible<Element> {
        Infallible(Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 6 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the thread of the source that completed a tuple. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>,
        _ source6: Infallible<E6>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 7 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the thread of the source that completed a tuple. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>,
        _ source6: Infallible<E6>, _ source7: Infallible<E7>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 8 sources at the same index with `resultSelector`.
    /// - Note: Delivers on the thread of the source that completed a tuple. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>, _ source5: Infallible<E5>,
        _ source6: Infallible<E6>, _ source7: Infallible<E7>, _ source8: Infallible<E8>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
    ) -> Infallible<Element> {
        Infallible(
            Observable.zip(
                source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, source8.source,
                resultSelector: resultSelector))
    }
}

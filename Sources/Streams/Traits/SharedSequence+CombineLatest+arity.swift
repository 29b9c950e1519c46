// Generated: SharedSequence (Driver/Signal) combineLatest arities 2-8, with a resultSelector and as
// tuples. As in RxCocoa, the sources are any SharedSequenceConvertibleType of one sharing strategy.

extension SharedSequence {
    /// Emits `resultSelector` of the latest element of each source whenever one emits (once both
    /// have); completes when both complete. The sources may be any `SharedSequenceConvertibleType`
    /// of this strategy (`Driver`s, `Signal`s, your own types).
    ///
    ///     source1: --1-----2-----
    ///     source2: -----a-----b--
    ///     output:  -----A--B--C--     (A = selector(1, a), B = (2, a), C = (2, b))
    ///
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType>(
        _ source1: O1, _ source2: O2,
        resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element> where SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy {
        SharedSequence(Observable.combineLatest(source1.asSharedSequence().source, source2.asSharedSequence().source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the latest element of each of 3 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType>(
        _ source1: O1, _ source2: O2, _ source3: O3,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy {
        SharedSequence(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the latest element of each of 4 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where
        SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy,
        SharingStrategy == O4.SharingStrategy
    {
        SharedSequence(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source, source4.asSharedSequence().source,
                resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the latest element of each of 5 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
        O5: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where
        SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy,
        SharingStrategy == O4.SharingStrategy, SharingStrategy == O5.SharingStrategy
    {
        SharedSequence(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source, source4.asSharedSequence().source,
                source5.asSharedSequence().source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the latest element of each of 6 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
        O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where
        SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy,
        SharingStrategy == O4.SharingStrategy, SharingStrategy == O5.SharingStrategy, SharingStrategy == O6.SharingStrategy
    {
        SharedSequence(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source, source4.asSharedSequence().source,
                source5.asSharedSequence().source, source6.asSharedSequence().source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the latest element of each of 7 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
        O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where
        SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy,
        SharingStrategy == O4.SharingStrategy, SharingStrategy == O5.SharingStrategy, SharingStrategy == O6.SharingStrategy,
        SharingStrategy == O7.SharingStrategy
    {
        SharedSequence(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source, source4.asSharedSequence().source,
                source5.asSharedSequence().source, source6.asSharedSequence().source, source7.asSharedSequence().source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the latest element of each of 8 sources whenever one emits
    /// (once all have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
        O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) throws -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where
        SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy,
        SharingStrategy == O4.SharingStrategy, SharingStrategy == O5.SharingStrategy, SharingStrategy == O6.SharingStrategy,
        SharingStrategy == O7.SharingStrategy, SharingStrategy == O8.SharingStrategy
    {
        SharedSequence(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source, source4.asSharedSequence().source,
                source5.asSharedSequence().source, source6.asSharedSequence().source, source7.asSharedSequence().source, source8.asSharedSequence().source,
                resultSelector: resultSelector))
    }
}

extension SharedSequenceConvertibleType where Element == Any {
    /// Emits a tuple of the latest element of each source whenever one emits (once all have);
    /// completes when all complete. The sources may be any `SharedSequenceConvertibleType` of one
    /// strategy.
    ///
    ///     source1: --1-----2-----
    ///     source2: -----a-----b--
    ///     output:  -----A--B--C--     (A = (1, a), B = (2, a), C = (2, b))
    ///
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType>(
        _ source1: O1, _ source2: O2
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element)> where SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element)>(
            Observable.combineLatest(source1.asSharedSequence().source, source2.asSharedSequence().source))
    }

    /// Emits a tuple of the latest element of each of 3 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType>(
        _ source1: O1, _ source2: O2, _ source3: O3
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element)>
    where SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element)>(
            Observable.combineLatest(source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source))
    }

    /// Emits a tuple of the latest element of each of 4 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element)>
    where
        SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy,
        SharingStrategy == O4.SharingStrategy
    {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element)>(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source, source4.asSharedSequence().source))
    }

    /// Emits a tuple of the latest element of each of 5 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
        O5: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)>
    where
        SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy,
        SharingStrategy == O4.SharingStrategy, SharingStrategy == O5.SharingStrategy
    {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)>(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source, source4.asSharedSequence().source,
                source5.asSharedSequence().source))
    }

    /// Emits a tuple of the latest element of each of 6 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
        O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)>
    where
        SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy,
        SharingStrategy == O4.SharingStrategy, SharingStrategy == O5.SharingStrategy, SharingStrategy == O6.SharingStrategy
    {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)>(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source, source4.asSharedSequence().source,
                source5.asSharedSequence().source, source6.asSharedSequence().source))
    }

    /// Emits a tuple of the latest element of each of 7 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
        O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)>
    where
        SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy,
        SharingStrategy == O4.SharingStrategy, SharingStrategy == O5.SharingStrategy, SharingStrategy == O6.SharingStrategy,
        SharingStrategy == O7.SharingStrategy
    {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)>(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source, source4.asSharedSequence().source,
                source5.asSharedSequence().source, source6.asSharedSequence().source, source7.asSharedSequence().source))
    }

    /// Emits a tuple of the latest element of each of 8 sources whenever one emits (once all
    /// have); completes when all complete.
    /// - Note: Delivers on the sharing scheduler. See `Guides/Traits.md`.
    public static func combineLatest<
        O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType, O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
        O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType, O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8
    ) -> SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)>
    where
        SharingStrategy == O1.SharingStrategy, SharingStrategy == O2.SharingStrategy, SharingStrategy == O3.SharingStrategy,
        SharingStrategy == O4.SharingStrategy, SharingStrategy == O5.SharingStrategy, SharingStrategy == O6.SharingStrategy,
        SharingStrategy == O7.SharingStrategy, SharingStrategy == O8.SharingStrategy
    {
        SharedSequence<SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)>(
            Observable.combineLatest(
                source1.asSharedSequence().source, source2.asSharedSequence().source, source3.asSharedSequence().source, source4.asSharedSequence().source,
                source5.asSharedSequence().source, source6.asSharedSequence().source, source7.asSharedSequence().source, source8.asSharedSequence().source))
    }
}

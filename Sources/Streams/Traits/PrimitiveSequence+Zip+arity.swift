// Generated: Single.zip arities 4-8 and Maybe.zip arities 2-8.

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Combines the elements of 4 `Single`s with `resultSelector` once all succeed; fails as soon as one fails.
    ///
    ///     source1: --1|
    ///     source2: ----a|
    ///     output:  ----R|     (R = resultSelector(1, a, ...))
    ///
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>,
        resultSelector: @escaping (E1, E2, E3, E4) throws -> Element
    ) -> Single<Element> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 5 `Single`s with `resultSelector` once all succeed; fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>,
        resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element
    ) -> Single<Element> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 6 `Single`s with `resultSelector` once all succeed; fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>, _ source6: Single<E6>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element
    ) -> Single<Element> {
        PrimitiveSequence(
            raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 7 `Single`s with `resultSelector` once all succeed; fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>, _ source6: Single<E6>,
        _ source7: Single<E7>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element
    ) -> Single<Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 8 `Single`s with `resultSelector` once all succeed; fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>, _ source6: Single<E6>,
        _ source7: Single<E7>, _ source8: Single<E8>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
    ) -> Single<Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, source8.source,
                resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait, Element == Any {
    /// Combines the elements of 4 `Single`s into a tuple once all succeed; fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>
    ) -> Single<(E1, E2, E3, E4)> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source) { ($0, $1, $2, $3) })
    }

    /// Combines the elements of 5 `Single`s into a tuple once all succeed; fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>
    ) -> Single<(E1, E2, E3, E4, E5)> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source) { ($0, $1, $2, $3, $4) })
    }

    /// Combines the elements of 6 `Single`s into a tuple once all succeed; fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>, _ source6: Single<E6>
    ) -> Single<(E1, E2, E3, E4, E5, E6)> {
        PrimitiveSequence(
            raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source) { ($0, $1, $2, $3, $4, $5) })
    }

    /// Combines the elements of 7 `Single`s into a tuple once all succeed; fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>, _ source6: Single<E6>,
        _ source7: Single<E7>
    ) -> Single<(E1, E2, E3, E4, E5, E6, E7)> {
        PrimitiveSequence(
            raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source) {
                ($0, $1, $2, $3, $4, $5, $6)
            })
    }

    /// Combines the elements of 8 `Single`s into a tuple once all succeed; fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>, _ source6: Single<E6>,
        _ source7: Single<E7>, _ source8: Single<E8>
    ) -> Single<(E1, E2, E3, E4, E5, E6, E7, E8)> {
        PrimitiveSequence(
            raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, source8.source)
            { ($0, $1, $2, $3, $4, $5, $6, $7) })
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Combines the elements of 2 `Maybe`s with `resultSelector` once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    ///
    ///     source1: --1|
    ///     source2: ----a|
    ///     output:  ----R|     (R = resultSelector(1, a, ...))
    ///
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>,
        resultSelector: @escaping (E1, E2) throws -> Element
    ) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 3 `Maybe`s with `resultSelector` once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>,
        resultSelector: @escaping (E1, E2, E3) throws -> Element
    ) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, source3.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 4 `Maybe`s with `resultSelector` once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>,
        resultSelector: @escaping (E1, E2, E3, E4) throws -> Element
    ) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 5 `Maybe`s with `resultSelector` once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>,
        resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element
    ) -> Maybe<Element> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 6 `Maybe`s with `resultSelector` once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>, _ source6: Maybe<E6>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element
    ) -> Maybe<Element> {
        PrimitiveSequence(
            raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 7 `Maybe`s with `resultSelector` once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>, _ source6: Maybe<E6>,
        _ source7: Maybe<E7>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element
    ) -> Maybe<Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, resultSelector: resultSelector))
    }

    /// Combines the elements of 8 `Maybe`s with `resultSelector` once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>, _ source6: Maybe<E6>,
        _ source7: Maybe<E7>, _ source8: Maybe<E8>,
        resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
    ) -> Maybe<Element> {
        PrimitiveSequence(
            raw: Observable.zip(
                source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, source8.source,
                resultSelector: resultSelector))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait, Element == Any {
    /// Combines the elements of 2 `Maybe`s into a tuple once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>
    ) -> Maybe<(E1, E2)> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source) { ($0, $1) })
    }

    /// Combines the elements of 3 `Maybe`s into a tuple once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>
    ) -> Maybe<(E1, E2, E3)> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, source3.source) { ($0, $1, $2) })
    }

    /// Combines the elements of 4 `Maybe`s into a tuple once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>
    ) -> Maybe<(E1, E2, E3, E4)> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source) { ($0, $1, $2, $3) })
    }

    /// Combines the elements of 5 `Maybe`s into a tuple once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>
    ) -> Maybe<(E1, E2, E3, E4, E5)> {
        PrimitiveSequence(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source) { ($0, $1, $2, $3, $4) })
    }

    /// Combines the elements of 6 `Maybe`s into a tuple once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>, _ source6: Maybe<E6>
    ) -> Maybe<(E1, E2, E3, E4, E5, E6)> {
        PrimitiveSequence(
            raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source) { ($0, $1, $2, $3, $4, $5) })
    }

    /// Combines the elements of 7 `Maybe`s into a tuple once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>, _ source6: Maybe<E6>, _ source7: Maybe<E7>
    ) -> Maybe<(E1, E2, E3, E4, E5, E6, E7)> {
        PrimitiveSequence(
            raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source) {
                ($0, $1, $2, $3, $4, $5, $6)
            })
    }

    /// Combines the elements of 8 `Maybe`s into a tuple once all succeed; completes empty as soon as one completes empty, fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to succeed. See `Guides/Traits.md`.
    public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
        _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>, _ source6: Maybe<E6>,
        _ source7: Maybe<E7>, _ source8: Maybe<E8>
    ) -> Maybe<(E1, E2, E3, E4, E5, E6, E7, E8)> {
        PrimitiveSequence(
            raw: Observable.zip(source1.source, source2.source, source3.source, source4.source, source5.source, source6.source, source7.source, source8.source)
            { ($0, $1, $2, $3, $4, $5, $6, $7) })
    }
}

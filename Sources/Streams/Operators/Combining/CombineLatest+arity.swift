// Generated: combineLatest arities 5-8 (2-4 are in CombineLatest.swift).

extension ObservableType {
    /// Combines the latest elements of 5 sequences with `resultSelector` whenever any emits,
    /// once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`: completes when every source has
    /// completed (or a source emits while all the others have completed, one of them without an
    /// element); fails as soon as a source fails or `resultSelector` throws.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestArityProducer(arity: 5, select: CombineLatestSelector.make(resultSelector)) { sources in
            sources.subscribe(source1.asObservable(), at: 0)
            sources.subscribe(source2.asObservable(), at: 1)
            sources.subscribe(source3.asObservable(), at: 2)
            sources.subscribe(source4.asObservable(), at: 3)
            sources.subscribe(source5.asObservable(), at: 4)
        }
    }

    /// Combines the latest elements of 6 sequences with `resultSelector` whenever any emits,
    /// once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`: completes when every source has
    /// completed (or a source emits while all the others have completed, one of them without an
    /// element); fails as soon as a source fails or `resultSelector` throws.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestArityProducer(arity: 6, select: CombineLatestSelector.make(resultSelector)) { sources in
            sources.subscribe(source1.asObservable(), at: 0)
            sources.subscribe(source2.asObservable(), at: 1)
            sources.subscribe(source3.asObservable(), at: 2)
            sources.subscribe(source4.asObservable(), at: 3)
            sources.subscribe(source5.asObservable(), at: 4)
            sources.subscribe(source6.asObservable(), at: 5)
        }
    }

    /// Combines the latest elements of 7 sequences with `resultSelector` whenever any emits,
    /// once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`: completes when every source has
    /// completed (or a source emits while all the others have completed, one of them without an
    /// element); fails as soon as a source fails or `resultSelector` throws.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestArityProducer(arity: 7, select: CombineLatestSelector.make(resultSelector)) { sources in
            sources.subscribe(source1.asObservable(), at: 0)
            sources.subscribe(source2.asObservable(), at: 1)
            sources.subscribe(source3.asObservable(), at: 2)
            sources.subscribe(source4.asObservable(), at: 3)
            sources.subscribe(source5.asObservable(), at: 4)
            sources.subscribe(source6.asObservable(), at: 5)
            sources.subscribe(source7.asObservable(), at: 6)
        }
    }

    /// Combines the latest elements of 8 sequences with `resultSelector` whenever any emits,
    /// once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`: completes when every source has
    /// completed (or a source emits while all the others have completed, one of them without an
    /// element); fails as soon as a source fails or `resultSelector` throws.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType,
        O8: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestArityProducer(arity: 8, select: CombineLatestSelector.make(resultSelector)) { sources in
            sources.subscribe(source1.asObservable(), at: 0)
            sources.subscribe(source2.asObservable(), at: 1)
            sources.subscribe(source3.asObservable(), at: 2)
            sources.subscribe(source4.asObservable(), at: 3)
            sources.subscribe(source5.asObservable(), at: 4)
            sources.subscribe(source6.asObservable(), at: 5)
            sources.subscribe(source7.asObservable(), at: 6)
            sources.subscribe(source8.asObservable(), at: 7)
        }
    }
}

extension ObservableType where Element == Any {
    /// Emits a tuple of the latest elements of 5 sequences whenever any emits, once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)> {
        CombineLatestArityProducer(
            arity: 5,
            select: CombineLatestSelector.make { (v1: O1.Element, v2: O2.Element, v3: O3.Element, v4: O4.Element, v5: O5.Element) in (v1, v2, v3, v4, v5) }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0)
            sources.subscribe(source2.asObservable(), at: 1)
            sources.subscribe(source3.asObservable(), at: 2)
            sources.subscribe(source4.asObservable(), at: 3)
            sources.subscribe(source5.asObservable(), at: 4)
        }
    }

    /// Emits a tuple of the latest elements of 6 sequences whenever any emits, once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)> {
        CombineLatestArityProducer(
            arity: 6,
            select: CombineLatestSelector.make { (v1: O1.Element, v2: O2.Element, v3: O3.Element, v4: O4.Element, v5: O5.Element, v6: O6.Element) in
                (v1, v2, v3, v4, v5, v6)
            }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0)
            sources.subscribe(source2.asObservable(), at: 1)
            sources.subscribe(source3.asObservable(), at: 2)
            sources.subscribe(source4.asObservable(), at: 3)
            sources.subscribe(source5.asObservable(), at: 4)
            sources.subscribe(source6.asObservable(), at: 5)
        }
    }

    /// Emits a tuple of the latest elements of 7 sequences whenever any emits, once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)> {
        CombineLatestArityProducer(
            arity: 7,
            select: CombineLatestSelector.make {
                (v1: O1.Element, v2: O2.Element, v3: O3.Element, v4: O4.Element, v5: O5.Element, v6: O6.Element, v7: O7.Element) in (v1, v2, v3, v4, v5, v6, v7)
            }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0)
            sources.subscribe(source2.asObservable(), at: 1)
            sources.subscribe(source3.asObservable(), at: 2)
            sources.subscribe(source4.asObservable(), at: 3)
            sources.subscribe(source5.asObservable(), at: 4)
            sources.subscribe(source6.asObservable(), at: 5)
            sources.subscribe(source7.asObservable(), at: 6)
        }
    }

    /// Emits a tuple of the latest elements of 8 sequences whenever any emits, once all have emitted.
    ///
    /// Termination as for `combineLatest(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that triggered the element (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func combineLatest<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType,
        O8: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)> {
        CombineLatestArityProducer(
            arity: 8,
            select: CombineLatestSelector.make {
                (v1: O1.Element, v2: O2.Element, v3: O3.Element, v4: O4.Element, v5: O5.Element, v6: O6.Element, v7: O7.Element, v8: O8.Element) in
                (v1, v2, v3, v4, v5, v6, v7, v8)
            }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0)
            sources.subscribe(source2.asObservable(), at: 1)
            sources.subscribe(source3.asObservable(), at: 2)
            sources.subscribe(source4.asObservable(), at: 3)
            sources.subscribe(source5.asObservable(), at: 4)
            sources.subscribe(source6.asObservable(), at: 5)
            sources.subscribe(source7.asObservable(), at: 6)
            sources.subscribe(source8.asObservable(), at: 7)
        }
    }
}

// Generated: zip arities 3-8 (2 is in Zip.swift).

extension ObservableType {
    /// Pairs the elements of 3 sequences by index and combines each group with `resultSelector`.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`: completes when every source has completed;
    /// fails as soon as a source fails or `resultSelector` throws.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> Observable<Element> {
        ZipArityProducer(
            arity: 3, buffers: { (ZipBuffer(), ZipBuffer(), ZipBuffer()) as (ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>) },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue()) },
            selection: .user { a in try resultSelector(a.0, a.1, a.2) }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
        }
    }

    /// Pairs the elements of 4 sequences by index and combines each group with `resultSelector`.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`: completes when every source has completed;
    /// fails as soon as a source fails or `resultSelector` throws.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> Observable<Element> {
        ZipArityProducer(
            arity: 4,
            buffers: {
                (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())
                    as (ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>, ZipBuffer<O4.Element>)
            },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue(), b.3.dequeue()) },
            selection: .user { a in try resultSelector(a.0, a.1, a.2, a.3) }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3.enqueue($1) }
        }
    }

    /// Pairs the elements of 5 sequences by index and combines each group with `resultSelector`.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`: completes when every source has completed;
    /// fails as soon as a source fails or `resultSelector` throws.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element
    ) -> Observable<Element> {
        ZipArityProducer(
            arity: 5,
            buffers: {
                (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())
                    as (ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>, ZipBuffer<O4.Element>, ZipBuffer<O5.Element>)
            },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue(), b.3.dequeue(), b.4.dequeue()) },
            selection: .user { a in try resultSelector(a.0, a.1, a.2, a.3, a.4) }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3.enqueue($1) }
            sources.subscribe(source5.asObservable(), at: 4) { $0.4.enqueue($1) }
        }
    }

    /// Pairs the elements of 6 sequences by index and combines each group with `resultSelector`.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`: completes when every source has completed;
    /// fails as soon as a source fails or `resultSelector` throws.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element
    ) -> Observable<Element> {
        ZipArityProducer(
            arity: 6,
            buffers: {
                (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())
                    as (
                        ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>, ZipBuffer<O4.Element>, ZipBuffer<O5.Element>, ZipBuffer<O6.Element>
                    )
            },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue(), b.3.dequeue(), b.4.dequeue(), b.5.dequeue()) },
            selection: .user { a in try resultSelector(a.0, a.1, a.2, a.3, a.4, a.5) }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3.enqueue($1) }
            sources.subscribe(source5.asObservable(), at: 4) { $0.4.enqueue($1) }
            sources.subscribe(source6.asObservable(), at: 5) { $0.5.enqueue($1) }
        }
    }

    /// Pairs the elements of 7 sequences by index and combines each group with `resultSelector`.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`: completes when every source has completed;
    /// fails as soon as a source fails or `resultSelector` throws.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws -> Element
    ) -> Observable<Element> {
        ZipArityProducer(
            arity: 7,
            buffers: {
                (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())
                    as (
                        ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>, ZipBuffer<O4.Element>, ZipBuffer<O5.Element>,
                        ZipBuffer<O6.Element>, ZipBuffer<O7.Element>
                    )
            },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue(), b.3.dequeue(), b.4.dequeue(), b.5.dequeue(), b.6.dequeue()) },
            selection: .user { a in try resultSelector(a.0, a.1, a.2, a.3, a.4, a.5, a.6) }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3.enqueue($1) }
            sources.subscribe(source5.asObservable(), at: 4) { $0.4.enqueue($1) }
            sources.subscribe(source6.asObservable(), at: 5) { $0.5.enqueue($1) }
            sources.subscribe(source7.asObservable(), at: 6) { $0.6.enqueue($1) }
        }
    }

    /// Pairs the elements of 8 sequences by index and combines each group with `resultSelector`.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`: completes when every source has completed;
    /// fails as soon as a source fails or `resultSelector` throws.
    /// - Returns: The sequence of combined elements.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType,
        O8: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8,
        resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) throws -> Element
    ) -> Observable<Element> {
        ZipArityProducer(
            arity: 8,
            buffers: {
                (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())
                    as (
                        ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>, ZipBuffer<O4.Element>, ZipBuffer<O5.Element>,
                        ZipBuffer<O6.Element>, ZipBuffer<O7.Element>, ZipBuffer<O8.Element>
                    )
            },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue(), b.3.dequeue(), b.4.dequeue(), b.5.dequeue(), b.6.dequeue(), b.7.dequeue()) },
            selection: .user { a in try resultSelector(a.0, a.1, a.2, a.3, a.4, a.5, a.6, a.7) }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3.enqueue($1) }
            sources.subscribe(source5.asObservable(), at: 4) { $0.4.enqueue($1) }
            sources.subscribe(source6.asObservable(), at: 5) { $0.5.enqueue($1) }
            sources.subscribe(source7.asObservable(), at: 6) { $0.6.enqueue($1) }
            sources.subscribe(source8.asObservable(), at: 7) { $0.7.enqueue($1) }
        }
    }
}

extension ObservableType where Element == Any {
    /// Pairs the elements of 3 sequences by index into tuples.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3
    ) -> Observable<(O1.Element, O2.Element, O3.Element)> {
        ZipArityProducer(
            arity: 3, buffers: { (ZipBuffer(), ZipBuffer(), ZipBuffer()) as (ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>) },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue()) },
            selection: .library { $0 }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
        }
    }

    /// Pairs the elements of 4 sequences by index into tuples.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> {
        ZipArityProducer(
            arity: 4,
            buffers: {
                (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())
                    as (ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>, ZipBuffer<O4.Element>)
            },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue(), b.3.dequeue()) },
            selection: .library { $0 }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3.enqueue($1) }
        }
    }

    /// Pairs the elements of 5 sequences by index into tuples.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)> {
        ZipArityProducer(
            arity: 5,
            buffers: {
                (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())
                    as (ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>, ZipBuffer<O4.Element>, ZipBuffer<O5.Element>)
            },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue(), b.3.dequeue(), b.4.dequeue()) },
            selection: .library { $0 }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3.enqueue($1) }
            sources.subscribe(source5.asObservable(), at: 4) { $0.4.enqueue($1) }
        }
    }

    /// Pairs the elements of 6 sequences by index into tuples.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType>(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)> {
        ZipArityProducer(
            arity: 6,
            buffers: {
                (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())
                    as (
                        ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>, ZipBuffer<O4.Element>, ZipBuffer<O5.Element>, ZipBuffer<O6.Element>
                    )
            },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue(), b.3.dequeue(), b.4.dequeue(), b.5.dequeue()) },
            selection: .library { $0 }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3.enqueue($1) }
            sources.subscribe(source5.asObservable(), at: 4) { $0.4.enqueue($1) }
            sources.subscribe(source6.asObservable(), at: 5) { $0.5.enqueue($1) }
        }
    }

    /// Pairs the elements of 7 sequences by index into tuples.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)> {
        ZipArityProducer(
            arity: 7,
            buffers: {
                (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())
                    as (
                        ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>, ZipBuffer<O4.Element>, ZipBuffer<O5.Element>,
                        ZipBuffer<O6.Element>, ZipBuffer<O7.Element>
                    )
            },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue(), b.3.dequeue(), b.4.dequeue(), b.5.dequeue(), b.6.dequeue()) },
            selection: .library { $0 }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3.enqueue($1) }
            sources.subscribe(source5.asObservable(), at: 4) { $0.4.enqueue($1) }
            sources.subscribe(source6.asObservable(), at: 5) { $0.5.enqueue($1) }
            sources.subscribe(source7.asObservable(), at: 6) { $0.6.enqueue($1) }
        }
    }

    /// Pairs the elements of 8 sequences by index into tuples.
    ///
    /// Termination as for `zip(_:_:resultSelector:)`.
    /// - Note: Delivers on the thread of the source that completed the group (or of a thread
    ///   already delivering); the output is serialized. See `Guides/Combining.md`.
    public static func zip<
        O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType, O5: ObservableType, O6: ObservableType, O7: ObservableType,
        O8: ObservableType
    >(
        _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7, _ source8: O8
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)> {
        ZipArityProducer(
            arity: 8,
            buffers: {
                (ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer(), ZipBuffer())
                    as (
                        ZipBuffer<O1.Element>, ZipBuffer<O2.Element>, ZipBuffer<O3.Element>, ZipBuffer<O4.Element>, ZipBuffer<O5.Element>,
                        ZipBuffer<O6.Element>, ZipBuffer<O7.Element>, ZipBuffer<O8.Element>
                    )
            },
            take: { b in (b.0.dequeue(), b.1.dequeue(), b.2.dequeue(), b.3.dequeue(), b.4.dequeue(), b.5.dequeue(), b.6.dequeue(), b.7.dequeue()) },
            selection: .library { $0 }
        ) { sources in
            sources.subscribe(source1.asObservable(), at: 0) { $0.0.enqueue($1) }
            sources.subscribe(source2.asObservable(), at: 1) { $0.1.enqueue($1) }
            sources.subscribe(source3.asObservable(), at: 2) { $0.2.enqueue($1) }
            sources.subscribe(source4.asObservable(), at: 3) { $0.3.enqueue($1) }
            sources.subscribe(source5.asObservable(), at: 4) { $0.4.enqueue($1) }
            sources.subscribe(source6.asObservable(), at: 5) { $0.5.enqueue($1) }
            sources.subscribe(source7.asObservable(), at: 6) { $0.6.enqueue($1) }
            sources.subscribe(source8.asObservable(), at: 7) { $0.7.enqueue($1) }
        }
    }
}

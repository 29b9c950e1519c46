// `Infallible`'s `concat`, `merge` and `combineLatest` of collections (`combineLatest` arities
// are in `Infallible+CombineLatest+arity.swift`, `zip` in `Infallible+Zip+arity.swift`).

extension InfallibleType {
    /// Emits this sequence's elements, then, once it completes, those of `second`.
    ///
    ///     self:   --1--|
    ///     second:      --2--|
    ///     output: --1----2--|
    ///
    /// - Parameter second: The sequence to continue with.
    /// - Returns: The concatenation.
    /// - Note: Delivers on the scheduler of whichever sequence is active. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Infallible<Element> where Source.Element == Element {
        Infallible(Observable.concat([asObservable(), second.asObservable()]))
    }
}

extension Infallible {
    /// Subscribes the sequences of `sequence` one after another, each once the previous completed.
    ///
    ///     s[0]:   --1--|
    ///     s[1]:        --2--|
    ///     output: --1----2--|
    ///
    /// - Parameter sequence: The sequences, iterated lazily.
    /// - Returns: The concatenation (completes at once when `sequence` is empty).
    /// - Note: Delivers on the scheduler of whichever sequence is active. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Infallible<Element> where Sequence.Element == Infallible<Element> {
        Infallible(Observable.concat(sequence.lazy.map { $0.source }))
    }

    /// Subscribes the sequences of `collection` one after another, each once the previous completed.
    /// - Parameter collection: The sequences, in order.
    /// - Returns: The concatenation.
    /// - Note: Delivers on the scheduler of whichever sequence is active. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<Element> where Collection.Element == Infallible<Element> {
        Infallible(Observable.concat(collection.map { $0.source }))
    }

    /// Subscribes `sources` one after another, each once the previous completed.
    /// - Parameter sources: The sequences, in order.
    /// - Returns: The concatenation.
    /// - Note: Delivers on the scheduler of whichever sequence is active. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func concat(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.concat(sources.map { $0.source }))
    }

    /// Interleaves the elements of the sequences of `sources`; completes when all have completed.
    ///
    ///     s[0]:   --1-----3--|
    ///     s[1]:   ----2-------|
    ///     output: --1-2---3---|
    ///
    /// - Parameter sources: The sequences to merge.
    /// - Returns: The merged sequence.
    /// - Note: Delivers on the emitting sequence's thread, serialized. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Infallible<Element> where Collection.Element == Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.source }))
    }

    /// Interleaves the elements of the sequences of `sources`; completes when all have completed.
    /// - Parameter sources: The sequences to merge.
    /// - Returns: The merged sequence.
    /// - Note: Delivers on the emitting sequence's thread, serialized. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func merge(_ sources: [Infallible<Element>]) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.source }))
    }

    /// Combines the latest elements of every sequence in `collection` with `resultSelector`
    /// whenever any of them emits, once all have emitted.
    ///
    ///     c[0]:   --1-----2----|
    ///     c[1]:   -----a-----b-|
    ///     output: -----A--B--C-|     (A = selector([1, a]), B = [2, a], C = [2, b])
    ///
    /// An empty collection emits `resultSelector([])` and completes at once.
    /// - Parameters:
    ///   - collection: The sequences; the selector receives their elements in collection order.
    ///   - resultSelector: Combines the latest elements.
    /// - Returns: The combined sequence.
    /// - Note: Delivers on the emitting sequence's thread, serialized. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection,
        resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
    ) -> Infallible<Element> where Collection.Element: InfallibleType {
        Infallible(Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Emits an array of the latest elements of every sequence in `collection` whenever any of
    /// them emits, once all have emitted (`[]` at once for an empty collection).
    /// - Parameter collection: The sequences, in order.
    /// - Returns: The sequence of arrays of latest elements.
    /// - Note: Delivers on the emitting sequence's thread, serialized. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func combineLatest<Collection: Swift.Collection>(
        _ collection: Collection
    ) -> Infallible<[Element]> where Collection.Element: InfallibleType, Collection.Element.Element == Element {
        Infallible<[Element]>(Observable.combineLatest(collection.map { $0.asObservable() }))
    }
}

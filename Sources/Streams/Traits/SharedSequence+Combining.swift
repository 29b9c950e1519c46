// `Driver`/`Signal` combining of collections: `merge` (on every `SharedSequenceConvertibleType`,
// as in RxCocoa), `concat`, `zip` and `combineLatest`. (Arities are in
// `SharedSequence+CombineLatest+arity.swift` and `SharedSequence+Zip+arity.swift`.)

extension SharedSequenceConvertibleType {
    /// Interleaves the elements of the sequences of `sources`; completes when all have completed.
    ///
    ///     s[0]:   --1-----3--|
    ///     s[1]:   ----2-------|
    ///     output: --1-2---3---|
    ///
    /// - Parameter sources: The sequences to merge.
    /// - Returns: The merged shared sequence.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> SharedSequence<SharingStrategy, Element>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(Observable.merge(sources.map { $0.source }))
    }

    /// Interleaves the elements of the sequences of `sources`; completes when all have completed.
    /// - Parameter sources: The sequences to merge.
    /// - Returns: The merged shared sequence.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func merge(_ sources: [SharedSequence<SharingStrategy, Element>]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(Observable.merge(sources.map { $0.source }))
    }

    /// Interleaves the elements of `sources`; completes when all have completed.
    /// - Parameter sources: The sequences to merge.
    /// - Returns: The merged shared sequence.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func merge(_ sources: SharedSequence<SharingStrategy, Element>...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(Observable.merge(sources.map { $0.source }))
    }
}

extension SharedSequence {
    /// Subscribes the sequences of `sequence` one after another, each once the previous completed.
    ///
    ///     s[0]:   --1--|
    ///     s[1]:        --2--|
    ///     output: --1----2--|
    ///
    /// - Parameter sequence: The sequences, iterated lazily.
    /// - Returns: The concatenation.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> SharedSequence<SharingStrategy, Element>
    where Sequence.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(sequence.lazy.map { $0.source }))
    }

    /// Subscribes the sequences of `collection` one after another, each once the previous completed.
    /// - Parameter collection: The sequences, in order.
    /// - Returns: The concatenation.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> SharedSequence<SharingStrategy, Element>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(collection.map { $0.source }))
    }

    /// Combines the elements at the same index of every sequence in `collection` with
    /// `resultSelector`.
    ///
    ///     c[0]:   --1----2-----|
    ///     c[1]:   ----a-----b--|
    ///     output: ----A-----B--|     (A = selector([1, a]), B = selector([2, b]))
    ///
    /// - Parameters:
    ///   - collection: The sequences; the selector receives their elements in collection order.
    ///   - resultSelector: Combines one element of each.
    /// - Returns: The zipped shared sequence.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result
    ) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Result>(Observable.zip(collection.map { $0.source }, resultSelector: resultSelector))
    }

    /// Emits an array of the elements at the same index of every sequence in `collection`.
    /// - Parameter collection: The sequences, in order.
    /// - Returns: The zipped shared sequence of arrays.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> SharedSequence<SharingStrategy, [Element]>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(Observable.zip(collection.map { $0.source }))
    }

    /// Combines the latest elements of every sequence in `collection` with `resultSelector`
    /// whenever any of them emits, once all have emitted.
    ///
    ///     c[0]:   --1-----2----|
    ///     c[1]:   -----a-----b-|
    ///     output: -----A--B--C-|     (A = selector([1, a]), B = [2, a], C = [2, b])
    ///
    /// - Parameters:
    ///   - collection: The sequences; the selector receives their elements in collection order.
    ///   - resultSelector: Combines the latest elements.
    /// - Returns: The combined shared sequence.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func combineLatest<Collection: Swift.Collection, Result>(
        _ collection: Collection, resultSelector: @escaping ([Element]) throws -> Result
    ) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Result>(Observable.combineLatest(collection.map { $0.source }, resultSelector: resultSelector))
    }

    /// Emits an array of the latest elements of every sequence in `collection` whenever any of
    /// them emits, once all have emitted.
    /// - Parameter collection: The sequences, in order.
    /// - Returns: The combined shared sequence of arrays.
    /// - Note: Delivers on the sharing scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> SharedSequence<SharingStrategy, [Element]>
    where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(Observable.combineLatest(collection.map { $0.source }))
    }
}

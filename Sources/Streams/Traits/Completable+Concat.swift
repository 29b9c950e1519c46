// `Completable.concat`: run completables one after another; the first error stops the chain.

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes to `second` after this ``Completable`` completes.
    ///
    ///     self:   --|
    ///     second:   --|
    ///     output: ----|
    ///
    /// An error of either ends the output at once.
    /// - Parameter second: The ``Completable`` that runs after this one.
    /// - Returns: A ``Completable`` that completes when both have.
    /// - Note: Delivers on `second`'s scheduler once this one completes. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func concat(_ second: Completable) -> Completable {
        Completable.concat(primitiveSequence, second)
    }

    /// Runs the completables of `sequence` one after another.
    ///
    ///     c1:     --|
    ///     c2:       ---|
    ///     output: -----|
    ///
    /// The sequence is iterated lazily, one completable per completion.
    /// - Parameter sequence: The completables, in order.
    /// - Returns: A ``Completable`` that completes when the last one does (at once when empty).
    /// - Note: Delivers on the scheduler of the completable running. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Completable where Sequence.Element == Completable {
        Completable(raw: Observable.concat(sequence.lazy.map { $0.source }))
    }

    /// Runs the completables of `collection` one after another.
    /// - Parameter collection: The completables, in order.
    /// - Returns: A ``Completable`` that completes when the last one does (at once when empty).
    /// - Note: Delivers on the scheduler of the completable running. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Completable where Collection.Element == Completable {
        Completable(raw: Observable.concat(collection.map { $0.source }))
    }

    /// Runs `sources` one after another.
    /// - Parameter sources: The completables, in order.
    /// - Returns: A ``Completable`` that completes when the last one does (at once when empty).
    /// - Note: Delivers on the scheduler of the completable running. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func concat(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.concat(sources.map { $0.source }))
    }
}

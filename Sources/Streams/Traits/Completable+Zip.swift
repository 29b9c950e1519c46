// `Completable.zip`: subscribe to every completable at once; completes when all have.

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes to every ``Completable`` in `completables` at once; completes when all complete,
    /// fails as soon as one fails.
    ///
    ///     source1: --|
    ///     source2: ----|
    ///     output:  ----|
    ///
    /// An empty collection completes at once.
    /// - Note: Delivers on the thread of the last source to complete. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func zip<Collection: Swift.Collection>(_ completables: Collection) -> Completable where Collection.Element == Completable {
        Completable(raw: Observable.merge(completables.map { $0.source }))
    }

    /// Subscribes to every ``Completable`` in `completables` at once; completes when all complete,
    /// fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to complete. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func zip(_ completables: [Completable]) -> Completable {
        Completable(raw: Observable.merge(completables.map { $0.source }))
    }

    /// Subscribes to every ``Completable`` in `completables` at once; completes when all complete,
    /// fails as soon as one fails.
    /// - Note: Delivers on the thread of the last source to complete. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public static func zip(_ completables: Completable...) -> Completable {
        Completable(raw: Observable.merge(completables.map { $0.source }))
    }
}

// `Maybe`'s answers to completing empty: a default element, or another trait.

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Succeeds with `default` when the ``Maybe`` completes empty, so the result is a ``Single``.
    ///
    ///     source: ---|          --a|
    ///     output: ---(d|)       --a|
    ///
    /// An error is forwarded as is.
    /// - Parameter default: The element to succeed with when the source is empty.
    /// - Returns: A ``Single`` of the source's element, or `default`.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func ifEmpty(default: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(default: `default`))
    }

    /// Continues with `other` when the ``Maybe`` completes empty.
    ///
    ///     source: ---|
    ///     other:     --b|
    ///     output: -----b|
    ///
    /// - Parameter other: The ``Maybe`` subscribed when the source is empty.
    /// - Returns: The source's element, or `other`'s result.
    /// - Note: Delivers on the source's scheduler, then `other`'s. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.ifEmpty(switchTo: other.primitiveSequence.source))
    }

    /// Continues with `other` when the ``Maybe`` completes empty, so the result is a ``Single``.
    ///
    ///     source: ---|
    ///     other:     --b|
    ///     output: -----b|
    ///
    /// - Parameter other: The ``Single`` subscribed when the source is empty.
    /// - Returns: A ``Single`` of the source's element, or `other`'s.
    /// - Note: Delivers on the source's scheduler, then `other`'s. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(switchTo: other.primitiveSequence.source))
    }
}

import Streams

extension BlockingObservable {
    /// Blocks until the sequence completes and returns all its elements.
    ///
    /// - Throws: The sequence's error, or `RxError.timeout`.
    public func toArray() throws -> [Element] {
        let outcome = run(retention: .all)
        if let error = outcome.error { throw error }
        return outcome.elements
    }

    /// Blocks until the first element (then disposes the subscription) or termination.
    ///
    /// - Returns: The first element, or `nil` if the sequence completed empty.
    /// - Throws: The sequence's error if it failed before any element, or `RxError.timeout`.
    public func first() throws -> Element? {
        let outcome = run(retention: .upTo(1))
        if let element = outcome.elements.first { return element }
        if let error = outcome.error { throw error }
        return nil
    }

    /// Blocks until the sequence completes and returns its last element.
    ///
    /// - Returns: The last element, or `nil` if the sequence completed empty.
    /// - Throws: The sequence's error, or `RxError.timeout`.
    public func last() throws -> Element? {
        let outcome = run(retention: .lastOnly)
        if let error = outcome.error { throw error }
        return outcome.elements.last
    }

    /// Blocks until the sequence completes and returns its only element.
    ///
    /// Stops (and disposes the subscription) as soon as a second element arrives.
    ///
    /// - Throws: `RxError.noElements` if it completed empty, `RxError.moreThanOneElement` on a
    ///   second element, the sequence's error, or `RxError.timeout`.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// Blocks until the sequence completes and returns its only element that satisfies `predicate`.
    ///
    /// Stops (and disposes the subscription) as soon as a second match arrives.
    ///
    /// - Throws: `RxError.noElements` if nothing matched, `RxError.moreThanOneElement` on a second
    ///   match, an error thrown by `predicate`, the sequence's error, or `RxError.timeout`.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let outcome = run(retention: .upTo(2), filter: predicate)
        if outcome.elements.count > 1 { throw RxError.moreThanOneElement }
        if let error = outcome.error { throw error }
        guard let element = outcome.elements.first else { throw RxError.noElements }
        return element
    }

    /// Blocks until the sequence terminates and returns its elements with how it ended.
    ///
    /// Never throws: an error (including `RxError.timeout`) becomes `.failed(elements:error:)`.
    public func materialize() -> MaterializedSequenceResult<Element> {
        let outcome = run(retention: .all)
        if let error = outcome.error { return .failed(elements: outcome.elements, error: error) }
        return .completed(elements: outcome.elements)
    }
}

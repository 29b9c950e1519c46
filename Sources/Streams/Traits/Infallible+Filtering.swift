// `Infallible`'s filtering operators beyond `filter` and plain `distinctUntilChanged`:
// key-based `distinctUntilChanged`, and the `take`/`skip` family.

extension InfallibleType {
    /// Drops consecutive elements whose `keySelector` keys are equal.
    ///
    ///     source: --a1--a2--b3--|     (key: the letter)
    ///     output: --a1------b3--|
    ///
    /// - Parameter keySelector: Computes the key compared with `==`.
    /// - Returns: The elements whose key differs from the previous element's.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector))
    }

    /// Drops consecutive elements whose `keySelector` keys `comparer` says are equal.
    /// - Parameters:
    ///   - keySelector: Computes the key of an element.
    ///   - comparer: Whether two keys are equal.
    /// - Returns: The elements whose key differs from the previous element's.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<K>(_ keySelector: @escaping (Element) throws -> K, comparer: @escaping (K, K) throws -> Bool) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops consecutive elements whose value at `keyPath` is equal.
    /// - Parameter keyPath: The property compared with `==`.
    /// - Returns: The elements whose property differs from the previous element's.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(at: keyPath))
    }

    /// Emits the elements until `other` emits an element, then completes.
    ///
    ///     source: --1--2--3--|
    ///     other:  -------x
    ///     output: --1--2-|
    ///
    /// - Parameter other: The sequence whose first element stops this one.
    /// - Returns: The elements before `other`'s first.
    /// - Note: Delivers on the source's scheduler, or `other`'s for the completion. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func take<Source: InfallibleType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().take(until: other.asObservable()))
    }

    /// Emits the elements until `other` emits an element, then completes.
    /// - Parameter other: The sequence whose first element stops this one.
    /// - Returns: The elements before `other`'s first.
    /// - Note: Delivers on the source's scheduler, or `other`'s for the completion. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func take<Source: ObservableType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().take(until: other))
    }

    /// Emits the elements until `predicate` holds for one, then completes.
    ///
    ///     source: --1--2--3--|
    ///     output: --1--|           (predicate: { $0 == 2 }, behavior: .exclusive)
    ///
    /// - Parameters:
    ///   - predicate: The stop condition.
    ///   - behavior: Whether the element that satisfies `predicate` is emitted (`.inclusive`).
    /// - Returns: The elements before the stop condition.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible(asObservable().take(until: predicate, behavior: behavior))
    }

    /// Emits the elements while `predicate` holds, then completes.
    ///
    ///     source: --1--2--3--|
    ///     output: --1--2--|        (predicate: { $0 < 3 })
    ///
    /// - Parameters:
    ///   - predicate: The condition to keep going.
    ///   - behavior: Whether the first element that fails `predicate` is emitted (`.inclusive`).
    /// - Returns: The leading elements that satisfy `predicate`.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible(asObservable().take(while: predicate, behavior: behavior))
    }

    /// Emits the first `count` elements, then completes.
    ///
    ///     source: --1--2--3--|
    ///     output: --1--(2|)        (count: 2)
    ///
    /// - Parameter count: How many elements to take.
    /// - Returns: The first `count` elements.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func take(_ count: Int) -> Infallible<Element> {
        Infallible(asObservable().take(count))
    }

    /// Emits the elements that arrive within `duration` of subscription, then completes.
    ///
    ///     source: --1--2--3--|
    ///     output: --1--2-|         (duration: 7 frames)
    ///
    /// - Parameters:
    ///   - duration: How long to take elements.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The elements of the first `duration`.
    /// - Note: Delivers on the source's scheduler, or `scheduler` for the completion. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().take(for: duration, scheduler: scheduler))
    }

    /// Drops the elements while `predicate` holds, then emits the rest.
    ///
    ///     source: --1--2--3--1--|
    ///     output: --------3--1--|      (predicate: { $0 < 3 })
    ///
    /// - Parameter predicate: The condition to keep dropping.
    /// - Returns: The elements from the first that fails `predicate` on.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Infallible<Element> {
        Infallible(asObservable().skip(while: predicate))
    }

    /// Drops the elements until `other` emits an element, then emits the rest.
    ///
    ///     source: --1--2--3--|
    ///     other:  -----x
    ///     output: --------3--|
    ///
    /// - Parameter other: The sequence whose first element opens the gate.
    /// - Returns: The elements after `other`'s first.
    /// - Note: Delivers on the source's scheduler. See <doc:Traits>.
    @_alwaysEmitIntoClient
    public func skip<Source: ObservableType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().skip(until: other))
    }
}

// `Infallible`'s utility operators: `do`, `debug`, `share` and `withUnretained`.

extension Infallible {
    /// Runs side effects on the sequence's events, subscription and disposal.
    ///
    ///     source:  --1--2--|
    ///     onNext:    1  2
    ///     output:  --1--2--|
    ///
    /// A side effect that throws ends the sequence with that error (as in RxSwift).
    /// - Returns: The sequence, unchanged.
    /// - Note: Handlers run on the thread that delivers the event. See <doc:Utility>.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Infallible<Element> {
        Infallible(
            source.do(
                onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }
}

extension InfallibleType {
    /// Prints the sequence's events, subscription and disposal (as `Observable.debug`).
    /// - Returns: The sequence, unchanged.
    /// - Note: Prints on the thread that delivers the event. See <doc:Utility>.
    @_alwaysEmitIntoClient
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> Infallible<Element> {
        Infallible(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// Shares one subscription to the source among all subscribers, replaying the last
    /// `replay` elements to each new one.
    ///
    ///     source:       --1--2--|
    ///     subscriber A: --1--2--|
    ///     subscriber B:     -2--|      (subscribes at 4, replay: 1)
    ///
    /// - Parameters:
    ///   - replay: How many elements new subscribers receive at once.
    ///   - scope: `.whileConnected` resets the replay buffer when the last subscriber leaves;
    ///     `.forever` keeps it.
    /// - Returns: The shared sequence.
    /// - Note: Delivers on the source's scheduler (replays on the subscribing thread). See <doc:Sharing>.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(asObservable().share(replay: replay, scope: scope))
    }

    /// Pairs each element with `obj`, held weakly, through `resultSelector`; completes once
    /// `obj` is gone.
    ///
    ///     source: --1--2--3--|
    ///     output: --A--B-|           (obj released between 2 and 3)
    ///
    /// - Parameters:
    ///   - obj: The object passed to `resultSelector`; not retained.
    ///   - resultSelector: Combines the object and an element.
    /// - Returns: The combined elements while `obj` lives.
    /// - Note: Delivers on the source's scheduler. See <doc:Utility>.
    @_alwaysEmitIntoClient
    public func withUnretained<Object: AnyObject, Out>(_ obj: Object, resultSelector: @escaping (Object, Element) -> Out) -> Infallible<Out> {
        Infallible<Out>(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Pairs each element with `obj`, held weakly; completes once `obj` is gone.
    /// - Parameter obj: The object paired with the elements; not retained.
    /// - Returns: `(obj, element)` pairs while `obj` lives.
    /// - Note: Delivers on the source's scheduler. See <doc:Utility>.
    @_alwaysEmitIntoClient
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Infallible<(Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

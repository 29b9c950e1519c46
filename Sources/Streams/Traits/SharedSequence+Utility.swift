// `Driver`/`Signal` utility operators: `do`, `debug`, and `withUnretained` (for `Signal`; RxCocoa
// made it unavailable for `Driver`, whose replay would keep the object alive).

extension SharedSequenceConvertibleType {
    /// Runs side effects on the sequence's events, subscription and disposal.
    ///
    ///     source:  --1--2--|
    ///     onNext:    1  2
    ///     output:  --1--2--|
    ///
    /// - Returns: The shared sequence, unchanged.
    /// - Note: Handlers run on the sharing scheduler (subscription ones on the subscribing
    ///   thread). See <doc:Utility>.
    public func `do`(
        onNext: ((Element) -> Void)? = nil,
        afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(
            asObservable().do(
                onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Prints the sequence's events, subscription and disposal (as `Observable.debug`).
    /// - Returns: The shared sequence, unchanged.
    /// - Note: Prints on the sharing scheduler. See <doc:Utility>.
    @_alwaysEmitIntoClient
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false,
        file: String = #file, line: UInt = #line, function: String = #function
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Element>(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
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
    /// - Note: Delivers on the sharing scheduler. See <doc:Utility>.
    @_alwaysEmitIntoClient
    public func withUnretained<Object: AnyObject, Out>(_ obj: Object, resultSelector: @escaping (Object, Element) -> Out) -> SharedSequence<
        SharingStrategy, Out
    > {
        SharedSequence<SharingStrategy, Out>(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Pairs each element with `obj`, held weakly; completes once `obj` is gone.
    /// - Parameter obj: The object paired with the elements; not retained.
    /// - Returns: `(obj, element)` pairs while `obj` lives.
    /// - Note: Delivers on the sharing scheduler. See <doc:Utility>.
    @_alwaysEmitIntoClient
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// Unavailable for ``Driver``, as in RxCocoa: use `drive(with:onNext:onCompleted:onDisposed:)`.
    @available(*, unavailable, message: "withUnretained is not available on Driver; use drive(with:onNext:onCompleted:onDisposed:) instead")
    public func withUnretained<Object: AnyObject, Out>(_ obj: Object, resultSelector: @escaping (Object, Element) -> Out) -> SharedSequence<
        SharingStrategy, Out
    > {
        SharedSequence<SharingStrategy, Out>(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Unavailable for ``Driver``, as in RxCocoa: use `drive(with:onNext:onCompleted:onDisposed:)`.
    @available(*, unavailable, message: "withUnretained is not available on Driver; use drive(with:onNext:onCompleted:onDisposed:) instead")
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        SharedSequence<SharingStrategy, (Object, Element)>(asObservable().withUnretained(obj) { ($0, $1) })
    }
}

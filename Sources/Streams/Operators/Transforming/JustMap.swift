// `just` followed by `map`, fused into one sequence when the chain is built (as Combine's
// `Just.map` returns a `Just`): a subscription calls `transform` and delivers its result with no
// sink, `SinkDisposer` or `map` stage of its own. See Sources/Streams/Streams.docc/Performance.md,
// "Operator fusion".

/// `just(element).map(transform)` as one sequence (built by `JustObservable.mapStage(_:)`).
///
/// Each subscription calls `transform` (as the `map` stage does, at subscription, since `just`
/// emits then) on the current thread's trampoline (as every `map` subscribes), then delivers
/// the result and completion, or the error `transform` throws. Unfused, nothing can stop the
/// `map` sink between the element and the completion (its disposer reaches the caller only
/// when `subscribe` returns), so the two events are delivered unconditionally, as here.
///
/// While the inspector records, a subscription goes through the two unfused sequences instead,
/// so that the inspector shows `just` and `map` as the user wrote them.
final class JustMapObservable<Element, Result>: Observable<Result> {
    private let element: Element
    private let transform: (Element) throws -> Result

    init(element: Element, transform: @escaping (Element) throws -> Result) {
        self.element = element
        self.transform = transform
    }

    /// As the `map` stage's: a producer's subscription runs on the trampoline.
    override var subscribesOnTrampoline: Bool { true }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Result {
        if InspectorHook.isRecording { return unfused().subscribe(observer) }
        return Trampoline.run { deliver(to: observer) }
    }

    /// The chain as written: `map` applied to `just`.
    @inline(never)
    private func unfused() -> Observable<Result> {
        MapProducer(source: JustObservable(element: element), transform: transform)
    }

    @inline(__always)
    private func deliver<Observer: ObserverType>(to observer: Observer) -> Disposable where Observer.Element == Result {
        let result: Result
        do {
            result = try transform(element)
        } catch {
            return fail(observer, error)
        }
        observer.onNext(result)
        observer.onCompleted()
        return Disposables.create()
    }

    /// A trait's closures, called as a `TraitClosureObserver` would call them (the element, or
    /// the error; nothing for the completion after the element), without the observer.
    override func subscribeTrait(success: ((Result) -> Void)?, failure: ((Swift.Error) -> Void)?, callStack: [String]?) -> Disposable? {
        if InspectorHook.isRecording { return nil }
        return Trampoline.run {
            let result: Result
            do {
                result = try transform(element)
            } catch {
                Self.fail(error, failure: failure, callStack: callStack)
                return Disposables.create()
            }
            success?(result)
            return Disposables.create()
        }
    }

    /// Passes `error` to `failure`, or without one to `Hooks.defaultErrorHandler` (as
    /// `TraitClosureObserver`).
    @inline(never)
    private static func fail(_ error: Swift.Error, failure: ((Swift.Error) -> Void)?, callStack: [String]?) {
        if let failure { failure(error) } else { Hooks.reportUnhandledError(error, subscriptionCallStack: callStack) }
    }

    /// Delivers the error `transform` threw (out of line: the element path never builds an
    /// ``Event``).
    @inline(never)
    private func fail<Observer: ObserverType>(_ observer: Observer, _ error: Swift.Error) -> Disposable where Observer.Element == Result {
        observer.on(.error(error))
        return Disposables.create()
    }
}

import Synchronization

/// The observer behind the traits' `subscribe(on…:onDisposed:)` (``Single``, ``Maybe``,
/// ``Completable``): acts on the first event only, then disposes `disposed` (which runs
/// `onDisposed`).
///
/// It holds the caller's closures itself, so a subscription allocates one object here instead of
/// an observer plus a context per wrapping closure, and it is built through `subscribe(to:…)` on
/// the metatype the caller's specialized code already has, so subscribing asks the runtime for
/// no generic metadata (see <doc:Performance>). It is not `ClosureObserver` with a flag:
/// that would put a branch on every element of every `subscribe(onNext:)`.
@usableFromInline
final class TraitClosureObserver<Element>: ObserverType {
    private let success: ((Element) -> Void)?
    private let failure: ((Swift.Error) -> Void)?
    private let completion: (() -> Void)?
    /// Whether completing without an element is a failure (`RxError.noElements`, as for ``Single``)
    /// rather than a completion (``Maybe``, ``Completable``).
    private let completionFails: Bool
    /// Runs `onDisposed` (`nil` without one: no existential to copy in and destroy).
    private let disposed: AnonymousDisposable?
    /// The subscription's call stack, for an error without a handler (`nil` unless recorded).
    private let callStack: [String]?
    private let stopped = Atomic<Bool>(false)

    @usableFromInline
    init(
        success: ((Element) -> Void)?, failure: ((Swift.Error) -> Void)?, completion: (() -> Void)?,
        completionFails: Bool, disposed: AnonymousDisposable?, callStack: [String]?
    ) {
        self.success = success
        self.failure = failure
        self.completion = completion
        self.completionFails = completionFails
        self.disposed = disposed
        self.callStack = callStack
    }

    /// Subscribes a new observer of the closures to `source` and returns the subscription (which
    /// also runs `onDisposed` when one is given). Inlined into the caller's specialized code (see
    /// `subscribeClosureObserver`).
    @inlinable
    static func subscribe(
        to source: Observable<Element>, onSuccess: ((Element) -> Void)?, onFailure: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?, completionFails: Bool, onDisposed: (() -> Void)?
    ) -> Disposable {
        // A `just(…).map(…)` delivers its one event at once, straight to the closures: no observer
        // object. A `Single`'s completion (which fails) cannot happen there.
        if onDisposed == nil, completionFails || onCompleted == nil,
            let subscription = source.subscribeTrait(
                success: onSuccess, failure: onFailure, callStack: onFailure == nil ? Hooks.subscriptionCallStack() : nil)
        {
            return subscription
        }
        return subscribeClosureObserver(to: source, hasErrorHandler: onFailure != nil, onDisposed: onDisposed) { disposed, callStack in
            self.init(
                success: onSuccess, failure: onFailure, completion: onCompleted, completionFails: completionFails,
                disposed: disposed, callStack: callStack)
        }
    }

    /// Whether this call is the first event (every later one is ignored).
    private func claim() -> Bool {
        !stopped.exchange(true, ordering: .acquiringAndReleasing)
    }

    @usableFromInline
    func onNext(_ element: Element) {
        guard claim() else { return }
        success?(element)
        disposed?.dispose()
    }

    @usableFromInline
    func onCompleted() {
        guard claim() else { return }
        if completionFails {
            fail(RxError.noElements)
        } else {
            completion?()
            disposed?.dispose()
        }
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            guard claim() else { return }
            fail(error)
        case .completed:
            onCompleted()
        }
    }

    /// Passes `error` to the failure handler, or without one to `Hooks.defaultErrorHandler`.
    private func fail(_ error: Swift.Error) {
        if let failure { failure(error) } else { Hooks.reportUnhandledError(error, subscriptionCallStack: callStack) }
        disposed?.dispose()
    }
}

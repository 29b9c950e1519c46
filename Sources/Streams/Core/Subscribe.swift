import Synchronization

extension ObservableType {
    /// Subscribes a closure that receives every event.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        subscribe(AnonymousObserver(on))
    }

    /// Subscribes closures for elements, the error, completion and disposal.
    ///
    /// `onDisposed` runs once, after a terminal event or when the returned disposable is disposed.
    /// An error with no `onError` handler goes to `Hooks.defaultErrorHandler` (which passes it to
    /// `Hooks.unhandledError`, which prints it, by default), with the call stack of this call
    /// when `Hooks.recordCallStackOnError` is on.
    /// - Returns: A disposable that cancels the subscription.
    @inlinable  // so that the observer's metadata is looked up once per call site, not per subscription
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        ClosureObserver<Element>.subscribe(
            to: asObservable(), onNext: onNext, onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes closures that also receive `object`, held weakly: once it is gone, nothing is called.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] value in
                guard let object else { return }
                onNext?(object, value)
            },
            onError: { [weak object] error in
                guard let object else { return }
                onError?(object, error)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }
}

/// An observer that calls a closure and ignores everything after a terminal event.
final class AnonymousObserver<Element>: ObserverType {
    private let handler: (Event<Element>) -> Void
    private let stopped = Atomic<Bool>(false)

    init(_ handler: @escaping (Event<Element>) -> Void) {
        self.handler = handler
    }

    func on(_ event: Event<Element>) {
        if case .next = event {
            if stopped.load(ordering: .relaxed) { return }
            handler(event)
        } else if !stopped.exchange(true, ordering: .acquiringAndReleasing) {
            handler(event)
        }
    }
}

/// The observer behind `subscribe(onNext:onError:onCompleted:onDisposed:)`: calls the closures
/// and ignores everything after a terminal event.
///
/// A `SubjectObserver`, so that a ``PublishSubject`` registers it as it is, without a node of its
/// own (one allocation less per subscription; see `subjectNode(for:owner:)`).
@usableFromInline
final class ClosureObserver<Element>: SubjectObserver<Element>, ObserverType {
    private let next: ((Element) -> Void)?
    private let error: ((Swift.Error) -> Void)?
    private let completed: (() -> Void)?
    /// Runs `onDisposed` (`nil` without one: no existential to copy in and destroy).
    private let disposed: AnonymousDisposable?
    /// The subscription's call stack, for an error without `onError` (`nil` unless recorded).
    private let callStack: [String]?
    private let stopped = Atomic<Bool>(false)

    @usableFromInline
    init(
        onNext: ((Element) -> Void)?, onError: ((Swift.Error) -> Void)?, onCompleted: (() -> Void)?,
        disposed: AnonymousDisposable?, callStack: [String]?
    ) {
        next = onNext
        error = onError
        completed = onCompleted
        self.disposed = disposed
        self.callStack = callStack
        super.init()
    }

    /// Receives an event from the subject it is registered in (as its own node).
    @usableFromInline
    override func receive(_ event: Event<Element>) { on(event) }

    /// Receives an element from the subject it is registered in (as its own node).
    @usableFromInline
    override __consuming func receiveNext(_ element: Element) { onNext(element) }

    /// Subscribes a new observer of the closures to `source`. Inlined into the caller's
    /// specialized code, where the observer's metadata and its conformance to ``ObserverType``
    /// are cached at the call site (see `subscribeClosureObserver`).
    @inlinable
    static func subscribe(
        to source: Observable<Element>, onNext: ((Element) -> Void)?, onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?, onDisposed: (() -> Void)?
    ) -> Disposable {
        subscribeClosureObserver(to: source, hasErrorHandler: onError != nil, onDisposed: onDisposed) { disposed, callStack in
            self.init(onNext: onNext, onError: onError, onCompleted: onCompleted, disposed: disposed, callStack: callStack)
        }
    }

    @usableFromInline
    @inline(__always)  // into its protocol witness: one call frame less per delivery
    func onNext(_ element: Element) {
        if stopped.load(ordering: .relaxed) { return }
        next?(element)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let failure):
            if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
            if let error { error(failure) } else { Hooks.reportUnhandledError(failure, subscriptionCallStack: callStack) }
            disposed?.dispose()
        case .completed:
            onCompleted()
        }
    }

    @usableFromInline
    func onCompleted() {
        if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        completed?()
        disposed?.dispose()
    }
}

/// The plumbing shared by the closure observers (`ClosureObserver`, `TraitClosureObserver`):
/// the `onDisposed` disposable, the call stack to report an unhandled error with (only without an
/// error handler), the subscription, and `onDisposed` attached to it when given.
///
/// Inlined into the caller's specialized code (with the closure subscriptions that call it), so
/// that `source.subscribe(_:)` finds the observer's conformance to ``ObserverType`` through a
/// witness table cached at the call site: in the library's unspecialized code, the conformance of
/// a generic class is a runtime lookup (`swift_getWitnessTable`, ~100 instructions) per
/// subscription (see <doc:Performance>).
@inlinable
@inline(__always)
func subscribeClosureObserver<Observer: ObserverType>(
    to source: Observable<Observer.Element>, hasErrorHandler: Bool, onDisposed: (() -> Void)?,
    make: (_ disposed: AnonymousDisposable?, _ callStack: [String]?) -> Observer
) -> Disposable {
    let disposed = onDisposedDisposable(onDisposed)
    let callStack = hasErrorHandler ? nil : Hooks.subscriptionCallStack()
    let subscription = source.subscribe(make(disposed, callStack))
    guard let disposed else { return subscription }
    return Disposables.create(subscription, disposed)
}

/// The disposable that runs `onDisposed` once (`nil` when there is nothing to run).
///
/// The disposable is made out of line, so the usual path (no `onDisposed`) does not pay for the
/// inlined making of a disposable and its lock (measured: 5 instructions per subscription).
@usableFromInline
func onDisposedDisposable(_ onDisposed: (() -> Void)?) -> AnonymousDisposable? {
    guard let onDisposed else { return nil }
    return makeOnDisposedDisposable(onDisposed)
}

/// The disposable that runs `onDisposed` once.
@inline(never)
private func makeOnDisposedDisposable(_ onDisposed: @escaping () -> Void) -> AnonymousDisposable {
    AnonymousDisposable(onDisposed)
}

extension ObservableType {
    /// Emits one element, then completes.
    ///
    ///     output: (a|)
    ///
    /// - Note: Delivers synchronously on the subscribing thread. See <doc:Creating>.
    @inlinable  // so that the sequence's metadata is looked up once per call site, not per call
    public static func just(_ element: Element) -> Observable<Element> {
        JustObservable(element: element)
    }

    /// Emits one element on `scheduler`, then completes (two scheduled steps).
    ///
    ///     output: -a|
    ///
    /// - Note: Delivers on `scheduler`. See <doc:Creating>.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        Observable.create { observer in
            scheduler.scheduleRecursive(true) { emitElement, recurse in
                if emitElement {
                    observer.onNext(element)
                    recurse(false)
                } else {
                    observer.onCompleted()
                }
            }
        }
    }

    /// Completes at once without elements.
    ///
    ///     output: |
    ///
    /// - Note: Delivers synchronously on the subscribing thread. See <doc:Creating>.
    public static func empty() -> Observable<Element> {
        TerminalObservable(event: .completed)
    }

    /// Never emits and never terminates.
    ///
    ///     output: ------…
    ///
    /// - Note: Delivers nothing. See <doc:Creating>.
    public static func never() -> Observable<Element> {
        NeverObservable()
    }

    /// Fails at once with `error`.
    ///
    ///     output: #
    ///
    /// - Note: Delivers synchronously on the subscribing thread. See <doc:Creating>.
    public static func error(_ error: Swift.Error) -> Observable<Element> {
        TerminalObservable(event: .error(error))
    }
}

/// `just`: two events on subscribe, nothing to cancel (so no sink).
@usableFromInline
final class JustObservable<Element>: Observable<Element> {
    private let element: Element

    @usableFromInline
    init(element: Element) {
        self.element = element
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {

        if InspectorHook.isRecording { return InspectorHook.subscribe(self, observer) { subscribeUninspected($0) } }

        return subscribeUninspected(observer)

    }

    @inline(__always)

    private func subscribeUninspected<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        observer.onNext(element)
        observer.onCompleted()
        return Disposables.create()
    }

    /// `map` after `just`: one sequence that transforms the element at each subscription (see
    /// `JustMapObservable`).
    @usableFromInline
    override func mapStage<Result>(_ transform: @escaping (Element) throws -> Result, stage: () -> MapChainStage) -> Observable<Result>? {
        // From the cache: named here, in unspecialized code, the type is a runtime metadata
        // lookup per `map` call (the pair determines it).
        let observableType = MetatypeCache.stageType(owner: type(of: self), result: Result.self) {
            JustMapObservable<Element, Result>.self
        }
        return unsafeBitCast(observableType, to: JustMapObservable<Element, Result>.Type.self)
            .init(element: element, transform: transform)
    }
}

/// ``ObservableType/empty()`` and ``ObservableType/error(_:)``: one terminal event on subscribe.
final private class TerminalObservable<Element>: Observable<Element> {
    private let event: Event<Element>

    init(event: Event<Element>) {
        self.event = event
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {

        if InspectorHook.isRecording { return InspectorHook.subscribe(self, observer) { subscribeUninspected($0) } }

        return subscribeUninspected(observer)

    }

    @inline(__always)

    private func subscribeUninspected<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        observer.on(event)
        return Disposables.create()
    }
}

/// ``ObservableType/never()``: nothing at all.
final private class NeverObservable<Element>: Observable<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if InspectorHook.isRecording { return InspectorHook.subscribe(self, observer) { subscribeUninspected($0) } }
        return subscribeUninspected(observer)
    }

    @inline(__always)
    private func subscribeUninspected<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        Disposables.create()
    }
}

extension ObservableType {
    /// Continues a sequence that failed with the sequence `handler` returns for the error.
    ///
    ///     source:  -a-b-#
    ///     handler:       -x-y|
    ///     output:  -a-b--x-y|
    ///
    /// On an error the source subscription is disposed and `handler(error)` is subscribed; its
    /// events (including its own error) go to the observer. If `handler` throws, the thrown error
    /// is sent instead. Elements and completion of the source pass through unchanged.
    /// - Parameter handler: Maps the source's error to the sequence that continues the output.
    /// - Returns: The source sequence, continued by the handler's sequence after an error.
    /// - Note: The handler runs, and its sequence is subscribed, on the thread of the source's
    ///   error. See <doc:ErrorHandling>.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        CatchProducer(source: asObservable(), handler: handler)
    }

    /// Continues a sequence that failed with one last element, then completes.
    ///
    ///     source:  -a-b-#
    ///     output:  -a-b-(x|)     (element: x)
    ///
    /// - Parameter element: The element sent in place of the error.
    /// - Returns: The source sequence, ending with `element` instead of an error.
    /// - Note: Delivers on the source's thread. See <doc:ErrorHandling>.
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        CatchProducer(source: asObservable(), handler: { _ in Observable.just(element) })
    }

    /// Continues a sequence that failed with the handler's sequence (renamed `catch(_:)`).
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        `catch`(handler)
    }

    /// Continues a sequence that failed with one element (renamed ``ObservableType/catchAndReturn(_:)``).
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> {
        catchAndReturn(element)
    }
}

final private class CatchSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    private let handler: (Swift.Error) throws -> Observable<Element>
    private let subscription = SerialDisposable()

    init(handler: @escaping (Swift.Error) throws -> Observable<Element>, observer: Observer, cancel: SinkDisposer) {
        self.handler = handler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        original.setDisposable(source.subscribe(self))
        return subscription
    }

    func on(_ event: Event<Element>) {
        guard case .error(let error) = event else {
            forwardOn(event)
            return
        }
        if isDisposed { return }
        let continuation: Observable<Element>
        do {
            continuation = try handler(error)
        } catch {
            forwardOn(.error(error))
            return
        }
        // Disposes the failed source subscription, then follows the continuation.
        let next = SingleAssignmentDisposable()
        subscription.disposable = next
        next.setDisposable(
            continuation.subscribe(
                SinkForward<Element> { [self] event in
                    forwardOn(event)
                }))
    }

    override func dispose() {
        subscription.dispose()
        super.dispose()
    }
}

final private class CatchProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let handler: (Swift.Error) throws -> Observable<Element>

    init(source: Observable<Element>, handler: @escaping (Swift.Error) throws -> Observable<Element>) {
        self.source = source
        self.handler = handler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = CatchSink(handler: handler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}

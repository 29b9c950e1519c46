extension ObservableType {
    /// Emits `element` over and over, forever.
    ///
    ///     Observable.repeatElement(7).take(3)
    ///     output: (777|)
    ///
    /// The sequence never terminates by itself: bound it downstream (`take`, `take(until:)`, …) or
    /// dispose it. On the default scheduler each element is one step of the current thread's
    /// trampoline, so disposing (e.g. by `take` downstream) stops it (see <doc:Creating>);
    /// on another scheduler each element is one scheduled step.
    /// - Parameters:
    ///   - element: The element to repeat.
    ///   - scheduler: Where to emit (synchronously on subscribe by default).
    /// - Returns: An endless sequence of `element`.
    /// - Note: Delivers on the subscribing thread (default) or on `scheduler`. See <doc:Creating>.
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        RepeatProducer(element: element, scheduler: scheduler)
    }
}

/// Yields the same element forever.
private struct RepeatIterator<Element>: IteratorProtocol {
    let element: Element
    func next() -> Element? { element }
}

final private class RepeatProducer<Element>: Producer<Element> {
    private let element: Element
    private let scheduler: ImmediateSchedulerType

    init(element: Element, scheduler: ImmediateSchedulerType) {
        self.element = element
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = IteratorSink(iterator: RepeatIterator(element: element), observer: observer, cancel: cancel)
        return (sink, sink.start(on: scheduler))
    }
}

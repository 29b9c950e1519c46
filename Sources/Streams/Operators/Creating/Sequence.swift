extension ObservableType {
    /// Emits the given elements in order, then completes.
    ///
    ///     Observable.of(1, 2, 3)
    ///     output: (123|)
    ///
    /// On the default `CurrentThreadScheduler.instance` the elements are sent synchronously during
    /// `subscribe`; on another scheduler each element, and the completion, is one scheduled step.
    /// - Parameters:
    ///   - elements: The elements to emit.
    ///   - scheduler: Where to emit them.
    /// - Returns: A finite sequence of `elements`.
    /// - Note: Delivers on the subscribing thread (default) or on `scheduler`. See `Guides/Creating.md`.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        SequenceProducer(elements: elements, scheduler: scheduler)
    }

    /// Emits the elements of `array` in order, then completes.
    ///
    ///     Observable.from([1, 2, 3])
    ///     output: (123|)
    ///
    /// - Parameters:
    ///   - array: The elements to emit.
    ///   - scheduler: Where to emit them (synchronously on subscribe by default).
    /// - Returns: A finite sequence of the array's elements.
    /// - Note: Delivers on the subscribing thread (default) or on `scheduler`. See `Guides/Creating.md`.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        SequenceProducer(elements: array, scheduler: scheduler)
    }

    /// Emits the elements of `sequence` in order, then completes (when the sequence ends).
    ///
    ///     Observable.from(1...3)
    ///     output: (123|)
    ///
    /// The sequence is iterated anew for every subscription. It may be infinite: emission stops
    /// as soon as the subscription is disposed or an operator downstream (e.g. `take`) stops.
    /// - Parameters:
    ///   - sequence: The elements to emit.
    ///   - scheduler: Where to emit them (synchronously on subscribe by default).
    /// - Returns: The sequence's elements as an observable sequence.
    /// - Note: Delivers on the subscribing thread (default) or on `scheduler`. See `Guides/Creating.md`.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> where Sequence.Element == Element {
        SequenceProducer(elements: sequence, scheduler: scheduler)
    }
}

/// Emits what an iterator yields, then completes: in a loop during `subscribe` on the
/// current-thread scheduler, or one element per scheduled step on any other scheduler.
///
/// Shared by `of`, `from` and `range`.
final class IteratorSink<Iterator: IteratorProtocol, Observer: ObserverType>: Sink<Observer> where Observer.Element == Iterator.Element {
    /// The observers downstream, checked before each element (see `StopReporting`).
    private var downstream: StopChain?

    private var isStopped: Bool {
        isDisposed || downstream?.isStopped == true
    }

    /// Starts emitting; returns what cancels scheduled emission.
    func run(_ iterator: Iterator, scheduler: ImmediateSchedulerType) -> Disposable {
        downstream = StopChain(startingAt: observer)
        if scheduler is CurrentThreadScheduler {
            var iterator = iterator
            while !isStopped {
                guard let element = iterator.next() else {
                    forwardCompleted()
                    break
                }
                forwardNext(element)
            }
            return Disposables.create()
        }
        return scheduler.scheduleRecursive(iterator) { [self] iterator, recurse in
            guard !self.isStopped else { return }
            var iterator = iterator
            if let element = iterator.next() {
                self.forwardNext(element)
                recurse(iterator)
            } else {
                self.forwardCompleted()
            }
        }
    }

    /// Fails with `error` at once (current-thread scheduler) or as one scheduled step.
    func fail(_ error: Swift.Error, scheduler: ImmediateSchedulerType) -> Disposable {
        if scheduler is CurrentThreadScheduler {
            forwardOn(.error(error))
            return Disposables.create()
        }
        return scheduler.schedule(error) { [self] error in
            self.forwardOn(.error(error))
            return Disposables.create()
        }
    }
}

final private class SequenceProducer<Elements: Swift.Sequence>: Producer<Elements.Element> {
    private let elements: Elements
    private let scheduler: ImmediateSchedulerType

    init(elements: Elements, scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Elements.Element {
        let sink = IteratorSink<Elements.Iterator, Observer>(observer: observer, cancel: cancel)
        let subscription = sink.run(elements.makeIterator(), scheduler: scheduler)
        return (sink, subscription)
    }
}

extension ObservableType {
    /// Emits the given elements in order, then completes.
    ///
    ///     Observable.of(1, 2, 3)
    ///     output: (123|)
    ///
    /// On the default `CurrentThreadScheduler.instance` each element, and the completion, is one
    /// step of the current thread's trampoline (all of them before the outermost `subscribe`
    /// returns, interleaved with other synchronous sources as in RxSwift); on another scheduler
    /// each is one scheduled step.
    /// - Parameters:
    ///   - elements: The elements to emit.
    ///   - scheduler: Where to emit them.
    /// - Returns: A finite sequence of `elements`.
    /// - Note: Delivers on the subscribing thread (default) or on `scheduler`. See <doc:Creating>.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ArrayProducer(elements: elements, scheduler: scheduler)
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
    /// - Note: Delivers on the subscribing thread (default) or on `scheduler`. See <doc:Creating>.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ArrayProducer(elements: array, scheduler: scheduler)
    }

    /// Emits the elements of `sequence` in order, then completes (when the sequence ends).
    ///
    ///     Observable.from(1...3)
    ///     output: (123|)
    ///
    /// The sequence is iterated anew for every subscription. It may be infinite: emission stops
    /// as soon as the subscription is disposed (e.g. by `take` downstream).
    /// - Parameters:
    ///   - sequence: The elements to emit.
    ///   - scheduler: Where to emit them (synchronously on subscribe by default).
    /// - Returns: The sequence's elements as an observable sequence.
    /// - Note: Delivers on the subscribing thread (default) or on `scheduler`. See <doc:Creating>.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<
        Element
    > where Sequence.Element == Element {
        SequenceProducer(elements: sequence, scheduler: scheduler)
    }
}

/// Emits what an iterator yields, then completes (or fails at once with `failure`), one
/// element per step (see `SteppingSink`).
///
/// Shared by `from(_:)` over any sequence and ``ObservableType/repeatElement(_:scheduler:)``; arrays (``ObservableType/of(_:scheduler:)``, `from(_:)` of an
/// array) and ``ObservableType/range(start:count:scheduler:)`` have sinks of their own that index instead (an iterator's `next()` returns
/// an `Optional` of the generic element, whose metadata unspecialized code looks up per element).
final class IteratorSink<Iterator: IteratorProtocol, Observer: ObserverType>: SteppingSink<Observer> where Observer.Element == Iterator.Element {
    // Only the step being run touches it (steps of one subscription never overlap), so the
    // dynamic exclusivity check, a runtime call per element, is not needed.
    @exclusivity(unchecked) private var iterator: Iterator

    init(iterator: Iterator, observer: Observer, cancel: SinkDisposer) {
        self.iterator = iterator
        super.init(observer: observer, cancel: cancel)
    }

    override func step() -> Bool {
        guard let element = iterator.next() else {
            forwardCompleted()
            return false
        }
        forwardNext(element)
        return true
    }
}

final private class SequenceProducer<Elements: Swift.Sequence>: Producer<Elements.Element> {
    private let elements: Elements
    private let scheduler: ImmediateSchedulerType

    init(elements: Elements, scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Elements.Element {
        let sink = IteratorSink(iterator: elements.makeIterator(), observer: observer, cancel: cancel)
        return (sink, sink.start(on: scheduler))
    }
}

/// Emits an array's elements in order, one element per step (see `SteppingSink`), by index.
final private class ArraySink<Observer: ObserverType>: SteppingSink<Observer> {
    private let elements: [Observer.Element]
    // Only the step being run touches it (steps of one subscription never overlap).
    @exclusivity(unchecked) private var index = 0

    init(elements: [Observer.Element], observer: Observer, cancel: SinkDisposer) {
        self.elements = elements
        super.init(observer: observer, cancel: cancel)
    }

    override func step() -> Bool {
        guard index < elements.count else {
            forwardCompleted()
            return false
        }
        let element = elements[index]
        index += 1
        forwardNext(element)
        return true
    }
}

final private class ArrayProducer<Element>: Producer<Element> {
    private let elements: [Element]
    private let scheduler: ImmediateSchedulerType

    init(elements: [Element], scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = ArraySink(elements: elements, observer: observer, cancel: cancel)
        return (sink, sink.start(on: scheduler))
    }
}

extension ObservableType where Element: RxAbstractInteger {
    /// Emits `count` consecutive integers starting at `start`, then completes.
    ///
    ///     Observable.range(start: 3, count: 4)
    ///     output: (3456|)
    ///
    /// A negative `count` fails with `RxError.argumentOutOfRange`; a range whose last element
    /// does not fit in `Element` fails with `RxError.overflow` (both as an `error` event on subscribe).
    /// - Parameters:
    ///   - start: The first integer.
    ///   - count: How many integers to emit.
    ///   - scheduler: Where to emit them (synchronously on subscribe by default).
    /// - Returns: The sequence `start, start + 1, …, start + count - 1`.
    /// - Note: Delivers on the subscribing thread (default) or on `scheduler`. See <doc:Creating>.
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        RangeProducer(start: start, count: count, scheduler: scheduler)
    }
}

/// Yields `start, start + 1, …` `count` times (the range was checked for overflow).
/// Emits `start, start + 1, …` (`count` elements), one element per step (see `SteppingSink`).
///
/// Its own sink rather than `IteratorSink` over an iterator: an iterator's `next()` returns an
/// `Optional` of the generic element, whose metadata unspecialized code looks up per element.
final private class RangeSink<Observer: ObserverType>: SteppingSink<Observer> where Observer.Element: RxAbstractInteger {
    typealias Element = Observer.Element
    private let start: Element
    private let count: Element
    private let failure: RxError?
    // Only the step being run touches it (steps of one subscription never overlap).
    @exclusivity(unchecked) private var index: Element = 0

    init(start: Element, count: Element, failure: RxError?, observer: Observer, cancel: SinkDisposer) {
        self.start = start
        self.count = count
        self.failure = failure
        super.init(observer: observer, cancel: cancel)
    }

    override func step() -> Bool {
        if let failure {
            forwardError(failure)
            return false
        }
        guard index < count else {
            forwardCompleted()
            return false
        }
        let value = start + index
        index += 1
        forwardNext(value)
        return true
    }
}

final private class RangeProducer<Element: RxAbstractInteger>: Producer<Element> {
    private let start: Element
    private let count: Element
    private let scheduler: ImmediateSchedulerType

    init(start: Element, count: Element, scheduler: ImmediateSchedulerType) {
        self.start = start
        self.count = count
        self.scheduler = scheduler
    }

    /// Why the range cannot be emitted, if it cannot.
    private var failure: RxError? {
        if count < 0 { return .argumentOutOfRange }
        if count > 0 && start.addingReportingOverflow(count - 1).overflow { return .overflow }
        return nil
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let failure = failure
        if Element.self == Int.self, failure == nil {
            // `Int`, the common case, counts in concrete arithmetic (see `IntRangeSink`).
            let sink = IntRangeSink(start: Int(start), count: Int(count), observer: observer, cancel: cancel)
            return (sink, sink.start(on: scheduler))
        }
        let sink = RangeSink(start: start, count: count, failure: failure, observer: observer, cancel: cancel)
        return (sink, sink.start(on: scheduler))
    }
}

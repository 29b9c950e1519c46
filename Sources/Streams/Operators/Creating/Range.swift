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
    /// - Note: Delivers on the subscribing thread (default) or on `scheduler`. See `Guides/Creating.md`.
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        RangeProducer(start: start, count: count, scheduler: scheduler)
    }
}

/// Yields `start, start + 1, …` `count` times (the range was checked for overflow).
private struct RangeIterator<Element: RxAbstractInteger>: IteratorProtocol {
    let start: Element
    let count: Element
    var index: Element = 0

    mutating func next() -> Element? {
        guard index < count else { return nil }
        defer { index += 1 }
        return start + index
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

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = IteratorSink(iterator: RangeIterator(start: start, count: count), failure: failure, observer: observer, cancel: cancel)
        return (sink, sink.start(on: scheduler))
    }
}

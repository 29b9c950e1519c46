/// Whether the take operators with a predicate also emit the element that ends the sequence.
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
public enum TakeBehavior {
    /// Emit the element that ends the sequence, then complete.
    case inclusive
    /// Complete without emitting the element that ends the sequence.
    case exclusive
}

extension ObservableType {
    /// Forwards elements until `predicate` returns `true` for one, then completes.
    ///
    ///     source: --1--2--3--4--|
    ///     output: --1--2--|             (predicate: { $0 == 3 }, behavior: .exclusive)
    ///     output: --1--2--(3|)          (predicate: { $0 == 3 }, behavior: .inclusive)
    ///
    /// An error thrown by `predicate` terminates the output with that error.
    /// - Parameters:
    ///   - predicate: Decides, per element, whether the sequence ends there.
    ///   - behavior: Whether the element that satisfied `predicate` is emitted.
    /// - Returns: The elements before the first one satisfying `predicate`.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        TakeUntilPredicateProducer(source: asObservable(), behavior: behavior, predicate: predicate)
    }

    /// Forwards elements while `predicate` returns `true`, then completes.
    ///
    ///     source: --1--2--3--4--|
    ///     output: --1--2--|             (predicate: { $0 < 3 }, behavior: .exclusive)
    ///     output: --1--2--(3|)          (predicate: { $0 < 3 }, behavior: .inclusive)
    ///
    /// An error thrown by `predicate` terminates the output with that error.
    /// - Parameters:
    ///   - predicate: Decides, per element, whether the sequence goes on.
    ///   - behavior: Whether the first element failing `predicate` is emitted.
    /// - Returns: The leading elements that satisfy `predicate`.
    /// - Note: Delivers on the source's scheduler. See <doc:Filtering>.
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        TakeUntilPredicateProducer(source: asObservable(), behavior: behavior, predicate: { try !predicate($0) })
    }

    /// Forwards elements until `predicate` returns `true` for one, then completes.
    ///
    /// - Note: Renamed `take(until:behavior:)` in RxSwift 6. See <doc:Filtering>.
    @available(*, deprecated, renamed: "take(until:behavior:)")
    public func takeUntil(_ behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(until: predicate, behavior: behavior)
    }

    /// Forwards elements while `predicate` returns `true`, then completes.
    ///
    /// - Note: Renamed `take(while:)` in RxSwift 6. See <doc:Filtering>.
    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(while: predicate)
    }
}

final private class TakeUntilPredicateSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element
    private let behavior: TakeBehavior
    private let predicate: (Element) throws -> Bool

    init(behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool, observer: Observer, cancel: SinkDisposer) {
        self.behavior = behavior
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            let ends: Bool
            do {
                ends = try predicate(event.element!)
            } catch {
                forwardOn(.error(error))
                return
            }
            if !ends {
                forwardOn(event)
                return
            }
            if behavior == .inclusive { forwardOn(event) }
            forwardCompleted()
        case .error, .completed:
            forwardOn(event)
        }
    }
}

final private class TakeUntilPredicateProducer<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let behavior: TakeBehavior
    private let predicate: (Element) throws -> Bool

    init(source: Observable<Element>, behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.behavior = behavior
        self.predicate = predicate
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = TakeUntilPredicateSink(behavior: behavior, predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink, subscription)
    }
}

/// The element-independent root of `SubjectObserver`, so that observer lists (and the subject
/// state holding them) are not generic: per-element code in an unspecialized generic subject
/// then never asks the Swift runtime for generic metadata (see Guides/Performance.md).
class AnySubjectObserver {
    /// The key the observer is registered under in its subject's `ObserverList` (one list per
    /// node; set under the subject's lock).
    @exclusivity(unchecked) final var subjectKey: UInt64 = 0
}

/// A subject's reference to one registered observer.
///
/// Subjects call `onNext(_:)` for elements, so a library observer downstream receives them
/// without an `Event` being built (see Guides/Performance.md).
class SubjectObserver<Element>: AnySubjectObserver {
    /// Receives one event.
    func on(_ event: Event<Element>) { fatalError("abstract") }
    /// Receives one element.
    func onNext(_ element: Element) { fatalError("abstract") }
}

/// A `SubjectObserver` that forwards to an `ObserverType`.
final class SubjectObserverOf<Observer: ObserverType>: SubjectObserver<Observer.Element> {
    private let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func on(_ event: Event<Observer.Element>) { observer.on(event) }
    override func onNext(_ element: Observer.Element) { observer.onNext(element) }
}

/// The registered observers of a subject, in subscription order.
struct ObserverList {
    typealias Handler = AnySubjectObserver
    typealias Handlers = ContiguousArray<Handler>

    /// The observers; each carries its key (`subjectKey`), so the list is one array.
    private(set) var handlers: ContiguousArray<Handler> = []
    private var nextKey: UInt64 = 0

    var isEmpty: Bool { handlers.isEmpty }

    mutating func insert(_ handler: Handler) -> UInt64 {
        let key = nextKey
        nextKey &+= 1
        handler.subjectKey = key
        handlers.append(handler)
        return key
    }

    /// Removes the handler registered under `key` and returns it, so the caller can release it
    /// after leaving its lock (dropping the last reference may run arbitrary deinit code).
    ///
    /// - Complexity: O(log n) to find it (keys are handed out in increasing order and the list
    ///   keeps subscription order, so it is sorted by key), plus moving the observers after it.
    @discardableResult
    mutating func remove(_ key: UInt64) -> Handler? {
        var low = 0
        var high = handlers.count
        while low < high {
            let middle = low + (high - low) / 2
            if handlers[middle].subjectKey < key { low = middle + 1 } else { high = middle }
        }
        guard low < handlers.count, handlers[low].subjectKey == key else { return nil }
        return handlers.remove(at: low)
    }

    mutating func removeAll() -> ContiguousArray<Handler> {
        defer { handlers = [] }
        return handlers
    }
}

/// Sends `event` to `handlers` (elements through `onNext`, without the `Event`).
@inline(__always)
func deliver<Element>(_ event: Event<Element>, to handlers: ObserverList.Handlers) {
    if case .next(let element) = event {
        deliverNext(element, to: handlers)
        return
    }
    for handler in handlers { unsafeDowncast(handler, to: SubjectObserver<Element>.self).on(event) }
}

/// Sends `element` to `handlers`, which must all observe `Element` (they come from one subject).
@inline(__always)
func deliverNext<Element>(_ element: Element, to handlers: ObserverList.Handlers) {
    for handler in handlers { unsafeDowncast(handler, to: SubjectObserver<Element>.self).onNext(element) }
}

/// The element-independent root of `SubjectObserver`, so that observer lists (and the subject
/// state holding them) are not generic: per-element code in an unspecialized generic subject
/// then never asks the Swift runtime for generic metadata (see Guides/Performance.md).
class AnySubjectObserver {}

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
///
/// Removal leaves a hole (`nil`) instead of shifting the observers after it; the holes are
/// squeezed out once they are more than half of the slots, so removing is O(log n) to find the
/// key plus O(1) amortized, whatever the order of removal (see Guides/Performance.md,
/// "Unsubscribing"). Delivery skips holes.
struct ObserverList {
    typealias Handler = AnySubjectObserver
    /// A snapshot of the slots, holes included, for delivery after the lock.
    typealias Handlers = ContiguousArray<Handler?>

    /// The slots, in subscription order; `nil` where an observer was removed.
    private(set) var handlers: Handlers = []
    /// The key of each slot (holes keep theirs), so it is sorted: keys are handed out in
    /// increasing order and slots keep subscription order.
    private var keys: ContiguousArray<UInt64> = []
    private var holes = 0
    private var nextKey: UInt64 = 0

    /// The number of registered observers.
    var count: Int { handlers.count - holes }

    var isEmpty: Bool { handlers.count == holes }

    mutating func insert(_ handler: Handler) -> UInt64 {
        let key = nextKey
        nextKey &+= 1
        handlers.append(handler)
        keys.append(key)
        return key
    }

    /// Removes the handler registered under `key` and returns it, so the caller can release it
    /// after leaving its lock (dropping the last reference may run arbitrary deinit code).
    ///
    /// - Complexity: O(log n) to find it, O(1) amortized to remove it.
    @discardableResult
    mutating func remove(_ key: UInt64) -> Handler? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = low &+ (high &- low) / 2
            if keys[middle] < key { low = middle &+ 1 } else { high = middle }
        }
        guard low < keys.count, keys[low] == key, let handler = handlers[low] else { return nil }
        handlers[low] = nil
        holes &+= 1
        if holes == handlers.count {
            handlers.removeAll()
            keys.removeAll()
            holes = 0
        } else if holes > 16 && holes &* 2 > handlers.count {
            squeeze()
        }
        return handler
    }

    /// Drops the holes (O(n), run after n/2 removals at the least).
    private mutating func squeeze() {
        var kept = 0
        for index in handlers.indices where handlers[index] != nil {
            handlers.swapAt(kept, index)
            keys[kept] = keys[index]
            kept &+= 1
        }
        handlers.removeLast(handlers.count &- kept)
        keys.removeLast(keys.count &- kept)
        holes = 0
    }

    mutating func removeAll() -> Handlers {
        defer {
            handlers = []
            keys = []
            holes = 0
        }
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
    for case let handler? in handlers { unsafeDowncast(handler, to: SubjectObserver<Element>.self).on(event) }
}

/// Sends `element` to `handlers`, which must all observe `Element` (they come from one subject).
@inline(__always)
func deliverNext<Element>(_ element: Element, to handlers: ObserverList.Handlers) {
    for case let handler? in handlers { unsafeDowncast(handler, to: SubjectObserver<Element>.self).onNext(element) }
}

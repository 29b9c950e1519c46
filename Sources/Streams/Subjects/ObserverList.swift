/// The element-independent root of `SubjectObserver`, so that observer lists (and the subject
/// state holding them) are not generic: per-element code in an unspecialized generic subject
/// then never asks the Swift runtime for generic metadata (see <doc:Performance>).
class AnySubjectObserver {}

/// A subject's reference to one registered observer.
///
/// Subjects call `onNext(_:)` for elements, so a library observer downstream receives them
/// without an ``Event`` being built (see <doc:Performance>).
class SubjectObserver<Element>: AnySubjectObserver {
    /// Receives one event.
    func on(_ event: Event<Element>) { fatalError("abstract") }
    /// Receives one element.
    ///
    /// `__consuming` (the node is passed owned, and released by the callee): a subject delivers
    /// from the reference its snapshot retained under the lock, and hands that reference over
    /// instead of retaining and releasing the node once more around a borrowed call (~40
    /// instructions per delivery; see <doc:Performance>).
    __consuming func onNext(_ element: Element) { fatalError("abstract") }
}

/// A `SubjectObserver` that forwards to an ``ObserverType``.
final class SubjectObserverOf<Observer: ObserverType>: SubjectObserver<Observer.Element> {
    private let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func on(_ event: Event<Observer.Element>) { observer.on(event) }
    override __consuming func onNext(_ element: Observer.Element) { observer.onNext(element) }
}

/// The registered observers of a subject, in subscription order (see `KeyedList`).
typealias ObserverList = KeyedList<AnySubjectObserver>

extension KeyedList where Value == AnySubjectObserver {
    /// A snapshot of the slots, holes included, for delivery after the lock.
    typealias Handlers = Slots

    /// The observers' slots, in subscription order; `nil` where an observer was removed.
    var handlers: Slots { slots }
}

/// Sends `event` to `handlers` (elements through `onNext`, without the ``Event``).
@inline(__always)
func deliver<Element>(_ event: Event<Element>, to handlers: ObserverList.Handlers) {
    if case .next(let element) = event {
        deliverNext(element, to: handlers)
        return
    }
    handlers.forEachValue { unsafeDowncast($0, to: SubjectObserver<Element>.self).on(event) }
}

/// Sends `element` to `handlers`, which must all observe `Element` (they come from one subject).
@inline(__always)
func deliverNext<Element>(_ element: Element, to handlers: ObserverList.Handlers) {
    handlers.forEachValue { unsafeDowncast($0, to: SubjectObserver<Element>.self).onNext(element) }
}

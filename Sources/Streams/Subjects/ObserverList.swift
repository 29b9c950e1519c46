/// The element-independent root of `SubjectObserver`, so that observer lists (and the subject
/// state holding them) are not generic: per-element code in an unspecialized generic subject
/// then never asks the Swift runtime for generic metadata (see <doc:Performance>).
@usableFromInline
class AnySubjectObserver {
    @usableFromInline @inline(__always) init() {}
}

/// A subject's reference to one registered observer.
///
/// Subjects call `receiveNext(_:)` for elements, so a library observer downstream receives them
/// without an ``Event`` being built (see <doc:Performance>).
///
/// An observer that is itself a `SubjectObserver` of the subject's element (``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:)``'s
/// `ClosureObserver`) is registered as it is, without a node (see `subjectNode(for:owner:)`).
@usableFromInline
class SubjectObserver<Element>: AnySubjectObserver {
    // Always inlined: a subclass's `super.init()` then costs no call, nor the retain and
    // release of `self` around it (measured on `StageSink`, whose init calls it per subscription).
    @usableFromInline @inline(__always) override init() {}

    /// Receives one event.
    @usableFromInline
    func receive(_ event: Event<Element>) { fatalError("abstract") }
    /// Receives one element.
    ///
    /// `__consuming` (the node is passed owned, and released by the callee): a subject delivers
    /// from the reference its snapshot retained under the lock, and hands that reference over
    /// instead of retaining and releasing the node once more around a borrowed call (~40
    /// instructions per delivery; see <doc:Performance>).
    ///
    /// Named apart from ``ObserverType``'s `onNext(_:)`, so that an observer that is its own node
    /// (`ClosureObserver`) keeps a borrowing `onNext(_:)` for everything else: a consuming
    /// witness would cost a retain and a release per element wherever it is called as an observer.
    @usableFromInline
    __consuming func receiveNext(_ element: Element) { fatalError("abstract") }
}

/// The node a subject registers for `observer`: the observer itself when it is a
/// `SubjectObserver` of its element, else a new `SubjectObserverOf` holding it (one allocation
/// less per subscription of a closure observer).
///
/// A free function, not a static method of `SubjectObserver`: naming the generic class to call
/// it would look up its metadata.
/// Which of the two is decided once per (`owner`, observer type) pair and cached in
/// `MetatypeCache` (the cached type is the observer's own type when it is its own node), so
/// neither the class test nor the node's metadata is looked up per subscription.
@inline(__always)
func subjectNode<Observer: ObserverType>(for observer: Observer, owner: AnyObject.Type) -> AnySubjectObserver {
    let nodeType = MetatypeCache.type(owner: owner, observer: Observer.self) {
        Observer.self is SubjectObserver<Observer.Element>.Type ? Observer.self as Any.Type : SubjectObserverOf<Observer>.self
    }
    if nodeType == unsafeBitCast(Observer.self as Any.Type, to: UnsafeRawPointer.self) {
        // Safety of the cast: `Observer` is a subclass of `SubjectObserver<Observer.Element>` (checked
        // when the entry was made), so `observer` is a reference to one.
        // (Through its address: `Observer` is not known to be a class here. Not `withUnsafePointer`,
        // which unspecialized code calls out of line: ~55 instructions per subscription.)
        let address = unsafeBitCast(observer, to: UnsafeRawPointer.self)
        return Unmanaged<AnySubjectObserver>.fromOpaque(address).takeUnretainedValue()
    }
    return unsafeBitCast(nodeType, to: SubjectObserverOf<Observer>.Type.self).init(observer)
}

/// A `SubjectObserver` that forwards to an ``ObserverType``.
final class SubjectObserverOf<Observer: ObserverType>: SubjectObserver<Observer.Element> {
    private let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func receive(_ event: Event<Observer.Element>) { observer.on(event) }
    override __consuming func receiveNext(_ element: Observer.Element) { observer.onNext(element) }
}

/// The registered observers of a subject, in RxSwift's delivery order (see `KeyedList`).
typealias ObserverList = KeyedList<AnySubjectObserver>

extension KeyedList where Value == AnySubjectObserver {
    /// A snapshot of the slots, holes included, for delivery after the lock.
    typealias Handlers = Slots

    /// The observers' slots, in delivery order; `nil` where an observer was removed.
    var handlers: Slots { slots }
}

/// Sends `event` to `handlers` (elements through `onNext`, without the ``Event``).
@inline(__always)
func deliver<Element>(_ event: Event<Element>, to handlers: ObserverList.Handlers) {
    if case .next(let element) = event {
        deliverNext(element, to: handlers)
        return
    }
    handlers.forEachValue { unsafeDowncast($0, to: SubjectObserver<Element>.self).receive(event) }
}

/// Sends `element` to `handlers`, which must all observe `Element` (they come from one subject).
@inline(__always)
func deliverNext<Element>(_ element: Element, to handlers: ObserverList.Handlers) {
    handlers.forEachValue { unsafeDowncast($0, to: SubjectObserver<Element>.self).receiveNext(element) }
}

/// An observer that can tell a synchronous source that its events no longer reach anyone.
///
/// Sources emit synchronously on subscribe (`from`, `of`, `range` on the default scheduler), so
/// while such a source loops, nobody downstream holds its subscription yet: a `take(3)` below it
/// completes, but cannot dispose it. Instead, the looping source walks the chain of observers
/// between itself and the subscriber once (`StopChain`) and, before each element, asks every link
/// whether it has stopped. Every `Sink` is a link; operators with their own inner observers
/// (`flatMap`, `flatMapLatest`, …) make those observers links too. The chain ends at the first
/// observer that is not a link (a user closure); an `AnyObserver` wrapping a sink (as `create`
/// passes) is a link, so a loop inside `create` notices too.
protocol StopReporting {
    /// Whether this link has stopped: it forwards nothing more.
    var reportsStopped: Bool { get }
    /// The observer this link forwards to, if any.
    var downstreamObserver: Any? { get }
}

extension Sink: StopReporting {
    /// A sink stops when it is disposed or has forwarded a terminal event.
    var reportsStopped: Bool { isDisposed }
    /// The sink's observer.
    var downstreamObserver: Any? { observer }
}

extension AnyObserver: StopReporting {
    /// The wrapper itself never stops; the observer it wraps may.
    var reportsStopped: Bool { false }
    /// The wrapped sink, if any.
    var downstreamObserver: Any? { base }
}

/// The links between a source and its subscriber, resolved once per subscription.
struct StopChain {
    private let links: [any StopReporting]

    /// Collects the links starting at `observer` (dynamic casts happen here, once).
    init(startingAt observer: Any) {
        var links: [any StopReporting] = []
        var current: Any? = observer
        while let link = current as? any StopReporting {
            links.append(link)
            current = link.downstreamObserver
        }
        self.links = links
    }

    /// Whether any link has stopped.
    var isStopped: Bool {
        for link in links where link.reportsStopped { return true }
        return false
    }
}

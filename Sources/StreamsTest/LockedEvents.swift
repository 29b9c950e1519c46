import Streams

/// A thread-safe list of recorded events.
final class LockedEvents<Element>: @unchecked Sendable {
    // Safety: `events` is only accessed under the lock.
    private let events = LockedState([Recorded<Event<Element>>]())

    var all: [Recorded<Event<Element>>] { events.withLock { $0 } }

    func append(_ event: Recorded<Event<Element>>) {
        events.withLock { $0.append(event) }
    }
}

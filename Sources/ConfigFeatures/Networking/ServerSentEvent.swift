/// One event dispatched from a `text/event-stream` (Server-Sent Events) response.
///
/// Produced by ``ServerSentEventParser``; the fields are those of the WHATWG `MessageEvent` an
/// `EventSource` would fire.
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event type: the last `event:` field of the event, or `"message"` when there was none
    /// (or it was empty).
    public var type: String
    /// The `data:` lines of the event joined with `"\n"`.
    public var data: String
    /// The stream's last event ID when the event was dispatched (the last `id:` field seen so
    /// far, possibly from an earlier event; `""` when none).
    public var lastEventID: String

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }

    /// The event as text, e.g. `put(id: 7): {"path":"/"}`.
    public var description: String {
        lastEventID.isEmpty ? "\(type): \(data)" : "\(type)(id: \(lastEventID)): \(data)"
    }
}

/// Why a ``ServerSentEventParser`` stopped reading a stream.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum ServerSentEventError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An event (its unfinished line plus its data so far) grew past `limit` bytes, the
    /// parser's `maximumEventSize`.
    case eventTooLarge(limit: Int)

    /// A readable description.
    public var description: String {
        switch self {
        case .eventTooLarge(let limit): return "server-sent event larger than \(limit) bytes"
        }
    }
}

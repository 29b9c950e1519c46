import Foundation

extension FirebaseTestServer {
    /// A fault that the server applies to the next `count` requests matching `route` (`nil`:
    /// any request), injected with `inject(_:)`.
    ///
    /// Faults are used in the order they were injected. A `delay` combines with the other kinds
    /// (the request waits, then gets the next other fault, if any, or its normal answer); of the
    /// other kinds one request uses at most one. Faults for open streams are methods instead:
    /// `dropStreams(midMessage:route:)`, `sendCancel()`, `revokeAuth(_:)`.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum Fault: Sendable, Hashable {
        /// Answer with HTTP `status` and an error body in the route's format (Google's
        /// `{"error":{"code","message","status"}}` for Remote Config, `{"error":"…"}` for the
        /// database): e.g. 429 or 503 bursts.
        case status(Int, count: Int = 1, route: Route? = nil)
        /// Answer 200 with a body that is not valid JSON. A stream opens normally but starts with
        /// a malformed message (an SSE `put` whose data is not JSON; a realtime message that is
        /// not JSON), followed by the normal messages.
        case malformedJSON(count: Int = 1, route: Route? = nil)
        /// Wait `seconds` before handling the request (for client timeouts); the request still
        /// takes effect afterwards.
        case delay(TimeInterval, count: Int = 1, route: Route? = nil)
        /// Answer 307 with `Location:` the same URL under the `/__redirected` prefix, which the
        /// server maps back to the original endpoint (`RecordedRequest.wasRedirected` is set).
        case redirect307(count: Int = 1, route: Route? = nil)
        /// Close the connection without answering (the client sees a network error).
        case disconnect(count: Int = 1, route: Route? = nil)

        /// How many requests the fault applies to.
        public var count: Int {
            switch self {
            case .status(_, let count, _), .malformedJSON(let count, _), .delay(_, let count, _), .redirect307(let count, _), .disconnect(let count, _):
                return count
            }
        }

        /// The route the fault applies to (`nil`: every request).
        public var route: Route? {
            switch self {
            case .status(_, _, let route), .malformedJSON(_, let route), .delay(_, _, let route), .redirect307(_, let route), .disconnect(_, let route):
                return route
            }
        }

        /// Whether the fault is a `delay` (which combines with the other kinds).
        var isDelay: Bool {
            if case .delay = self { return true }
            return false
        }
    }
}

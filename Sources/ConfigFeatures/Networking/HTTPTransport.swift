import Foundation

/// Sends HTTP requests for the network backends (``HTTPRemoteConfigBackend``,
/// ``FirebaseRESTDatabase``) and reports the answers as cold observables.
///
/// `URLSessionTransport` is the real implementation; tests inject a scripted one. Both
/// methods start the exchange when subscribed, and disposing the subscription cancels it.
/// Events of one exchange are delivered one at a time (never concurrently), on whatever
/// thread the transport uses; backends move them to their own scheduler. See <doc:Networking>.
package protocol HTTPTransport: Sendable {
    /// Sends `request` and emits its complete response (any status) once, then completes;
    /// fails with `HTTPTransportError` when no response arrives (`.timedOut` after `timeout`
    /// seconds in all).
    func send(_ request: WireRequest, timeout: TimeInterval) -> Observable<WireResponse>

    /// Sends `request` and emits the response as it arrives: `.response` (status and headers)
    /// once, then the body in `.data` chunks as they come; completes when the server ends the
    /// response and fails with `HTTPTransportError` when the connection fails.
    func stream(_ request: WireRequest) -> Observable<HTTPStreamPart>
}

/// One piece of a streamed HTTP response.
package enum HTTPStreamPart: Sendable, Hashable {
    /// The status line and headers (always first, exactly once).
    case response(statusCode: Int, headers: [String: String])
    /// The next chunk of the body, as received.
    case data(Data)
}

/// Why an HTTP exchange failed below HTTP (an HTTP error status is a response, not an error).
package enum HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No response (or, for a stream, no data) within the time allowed.
    case timedOut(message: String)
    /// The server could not be reached: unknown host, connection refused, no network.
    case cannotConnect(message: String)
    /// The connection broke while the exchange was in progress.
    case connectionLost(message: String)
    /// Anything else (TLS failure, invalid URL, a response that is not HTTP, …).
    case failed(message: String)
    /// A `send` response body grew past the transport's limit (`limit` bytes); the exchange was
    /// cancelled rather than buffered without bound.
    case responseTooLarge(limit: Int)

    /// The error's message.
    package var message: String {
        switch self {
        case .timedOut(let message), .cannotConnect(let message), .connectionLost(let message), .failed(let message):
            return message
        case .responseTooLarge(let limit):
            return "the response body is larger than \(limit) bytes"
        }
    }

    /// A human-readable description.
    package var description: String {
        switch self {
        case .timedOut(let message): return "timed out: \(message)"
        case .cannotConnect(let message): return "cannot connect: \(message)"
        case .connectionLost(let message): return "connection lost: \(message)"
        case .failed(let message): return "request failed: \(message)"
        case .responseTooLarge: return "response too large: \(message)"
        }
    }
}

import Foundation
import Streams
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a `URLSession.rx` request failed (RxCocoa's `RxCocoaURLError`, on every platform).
///
/// Errors of the transfer itself (no connection, timeout, …) are forwarded as `URLSession`
/// reports them (`URLError`); these cases cover what `URLSession` does not treat as failures.
/// See the Networking guide.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RxCocoaURLError: Swift.Error {
    /// The task ended without a response, data or error.
    case unknown
    /// The response is not an `HTTPURLResponse` (e.g. a `data:` or `file:` URL).
    case nonHTTPResponse(response: URLResponse)
    /// The status code is outside `200..<300`; `data` is the response body.
    case httpRequestFailed(response: HTTPURLResponse, data: Data?)
    /// The body could not be decoded (`json(request:options:)`): the decoder's error.
    case deserializationError(error: Swift.Error)
}

extension RxCocoaURLError: CustomDebugStringConvertible {
    /// What went wrong, for logs and test failures.
    public var debugDescription: String {
        switch self {
        case .unknown:
            return "The request ended without a response or an error."
        case .nonHTTPResponse(let response):
            return "The response is not an HTTP response: \(response)."
        case .httpRequestFailed(let response, _):
            return "The HTTP request failed with status \(response.statusCode)."
        case .deserializationError(let error):
            return "The response could not be deserialized: \(error)"
        }
    }
}

extension Reactive where Base: URLSession {
    /// Performs `request` once per subscription and emits the HTTP response with its body.
    ///
    ///     subscribe:  x
    ///     task:       --------response(200, body)
    ///     output:     --------(r|)                    r = (response: HTTPURLResponse, data: body)
    ///
    /// Any status code is a response (use `data(request:)` to fail on non-2xx). A transfer error
    /// is sent as it is (`URLError`); a response that is not HTTP fails with
    /// `RxCocoaURLError.nonHTTPResponse`. Disposing the subscription cancels the task.
    /// - Parameter request: The request, performed per subscription.
    /// - Returns: A sequence of one `(response, data)` pair.
    /// - Note: Delivers on the session's delegate queue (a background thread); use
    ///   `observe(on:)` to move. See the Networking guide.
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        let session = base
        return Observable.create { observer in
            let log = URLRequestLog(request)
            // Safety: the completion handler runs once, on the session's delegate queue, and is
            // the only user of the observer after `create` returns; the observer forwards to
            // this subscription's sink, which drops events once disposed (a cancelled task still
            // calls its handler, with `URLError.cancelled`).
            let target = UncheckedSendable(observer)
            let task = session.dataTask(with: request) { data, response, error in
                log?.finish(response: response, error: error)
                let observer = target.value
                guard let response, let data else {
                    observer.onError(error ?? RxCocoaURLError.unknown)
                    return
                }
                guard let httpResponse = response as? HTTPURLResponse else {
                    observer.onError(RxCocoaURLError.nonHTTPResponse(response: response))
                    return
                }
                observer.onNext((response: httpResponse, data: data))
                observer.onCompleted()
            }
            task.resume()
            return Disposables.create { task.cancel() }
        }
    }

    /// Performs `request` once per subscription and emits the body of a successful (2xx) response.
    ///
    ///     task:   --------response(200, body)        --------response(404, body)
    ///     output: --------(body|)                    --------#   httpRequestFailed(response, body)
    ///
    /// - Parameter request: The request, performed per subscription.
    /// - Returns: A sequence of one `Data`.
    /// - Note: Fails with `RxCocoaURLError.httpRequestFailed(response:data:)` for a status code
    ///   outside `200..<300`. Delivers on the session's delegate queue. See the Networking guide.
    public func data(request: URLRequest) -> Observable<Data> {
        response(request: request).map { pair -> Data in
            guard 200..<300 ~= pair.response.statusCode else {
                throw RxCocoaURLError.httpRequestFailed(response: pair.response, data: pair.data)
            }
            return pair.data
        }
    }

    /// Performs `request` once per subscription and emits the body of a successful response
    /// decoded by `JSONSerialization`.
    ///
    ///     task:   --------response(200, {"a":1})     --------response(200, "nope")
    ///     output: --------(["a": 1]|)                --------#   deserializationError(error)
    ///
    /// - Parameters:
    ///   - request: The request, performed per subscription.
    ///   - options: The `JSONSerialization` reading options.
    /// - Returns: A sequence of one JSON object (`[String: Any]`, `[Any]`, …).
    /// - Note: Fails as `data(request:)` does, and with `RxCocoaURLError.deserializationError`
    ///   for a body that is not JSON. Delivers on the session's delegate queue.
    ///   See the Networking guide.
    public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = []) -> Observable<Any> {
        data(request: request).map { data -> Any in
            do {
                return try JSONSerialization.jsonObject(with: data, options: options)
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }

    /// Performs a GET of `url` once per subscription and emits the decoded JSON body.
    /// - Parameter url: The URL to get.
    /// - Returns: A sequence of one JSON object.
    /// - Note: As `json(request:options:)`. See the Networking guide.
    public func json(url: Foundation.URL) -> Observable<Any> {
        json(request: URLRequest(url: url))
    }
}

extension Reactive where Base == URLSession {
    /// Decides which requests `response(request:)` (and so `data`/`json`) prints as a `curl`
    /// command with the outcome and duration: every request in DEBUG builds, none otherwise, as in
    /// RxCocoa.
    ///
    ///     URLSession.rx.shouldLogRequest = { _ in false }
    ///
    /// The closure is called from the subscribing thread when a request starts. Thread-safe.
    public static var shouldLogRequest: @Sendable (URLRequest) -> Bool {
        get { requestLogFilter.withLock { $0 } }
        set { requestLogFilter.withLock { $0 = newValue } }
    }
}

/// The filter behind `URLSession.rx.shouldLogRequest`.
private let requestLogFilter = LockedState<@Sendable (URLRequest) -> Bool>({ _ in
    #if DEBUG
    return true
    #else
    return false
    #endif
})

/// One logged request: printed as a `curl` command when it finishes, with its outcome.
private struct URLRequestLog: Sendable {
    let request: URLRequest
    let started: Date

    /// A log for `request`, or `nil` when `shouldLogRequest` says not to log it.
    init?(_ request: URLRequest) {
        guard URLSession.rx.shouldLogRequest(request) else { return nil }
        self.request = request
        started = Date()
    }

    func finish(response: URLResponse?, error: Swift.Error?) {
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        print(Self.curl(request))
        print(Self.outcome(response: response, error: error, milliseconds: milliseconds))
    }

    /// `request` as a `curl` command line that repeats it.
    static func curl(_ request: URLRequest) -> String {
        var parts = ["curl", "-X", request.httpMethod ?? "GET"]
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts += ["-H", quoted("\(name): \(value)")]
        }
        if let body = request.httpBody, let text = String(data: body, encoding: .utf8) {
            parts += ["-d", quoted(text)]
        }
        parts += [quoted(request.url?.absoluteString ?? "<no URL>"), "-i", "-v"]
        return parts.joined(separator: " ")
    }

    /// How the request ended, e.g. `Success (12ms): Status 200`.
    static func outcome(response: URLResponse?, error: Swift.Error?, milliseconds: Int) -> String {
        if let response = response as? HTTPURLResponse {
            let verdict = 200..<300 ~= response.statusCode ? "Success" : "Failure"
            return "\(verdict) (\(milliseconds)ms): Status \(response.statusCode)"
        }
        if let error = error as? URLError, error.code == .cancelled {
            return "Canceled (\(milliseconds)ms)"
        }
        if let error {
            return "Failure (\(milliseconds)ms): \(error)"
        }
        return "Finished (\(milliseconds)ms) without an HTTP response"
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

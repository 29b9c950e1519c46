import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `HTTPTransport` of the network backends, built on `URLSession`.
///
/// Every subscription runs one exchange in a `URLSession` of its own (ephemeral: no cache, no
/// cookies, no stored credentials) whose delegate receives the response as it arrives; the
/// session is invalidated when the exchange ends or the subscription is disposed, so no
/// session, delegate or callback outlives it.
///
/// - Redirects are followed (at most `maximumRedirects` in a row); for 307 and 308 the new
///   request keeps the method, body and headers of the original, as the Realtime Database
///   REST API requires (`URLSession` rewrites other redirects as it always does).
/// - `send` enforces its `timeout` twice: as the idle timeout between packets and as a
///   deadline for the whole exchange. `stream` only has the idle timeout
///   `streamIdleTimeout` (a streaming response may last for hours).
/// - Events are delivered on the session's serial delegate queue, one at a time.
package final class URLSessionTransport: HTTPTransport {
    /// The longest a stream may stay silent before it fails with `.timedOut`.
    package let streamIdleTimeout: TimeInterval
    /// How many redirects in a row are followed before the exchange fails.
    package let maximumRedirects: Int

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - streamIdleTimeout: The idle timeout of streams, in seconds (330 s by default, as
    ///     Firebase's realtime client; the Realtime Database sends a keep-alive every 30 s).
    ///   - maximumRedirects: How many redirects in a row are followed.
    package init(streamIdleTimeout: TimeInterval = 330, maximumRedirects: Int = 10) {
        self.streamIdleTimeout = streamIdleTimeout
        self.maximumRedirects = maximumRedirects
    }

    package func send(_ request: WireRequest, timeout: TimeInterval) -> Observable<WireResponse> {
        let maximumRedirects = maximumRedirects
        return Observable.create { observer in
            let collector = ResponseCollector()
            let exchange = URLSessionExchange(request: request, maximumRedirects: maximumRedirects) { event in
                switch event {
                case .next(.response(let statusCode, let headers)):
                    collector.response = WireResponse(statusCode: statusCode, headers: headers)
                case .next(.data(let data)):
                    collector.response?.body.append(data)
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    guard let response = collector.response else {
                        observer.onError(HTTPTransportError.failed(message: "the exchange ended without a response"))
                        return
                    }
                    observer.onNext(response)
                    observer.onCompleted()
                }
            }
            exchange.start(idleTimeout: timeout, deadline: timeout)
            return Disposables.create { exchange.cancel() }
        }
    }

    package func stream(_ request: WireRequest) -> Observable<HTTPStreamPart> {
        let idleTimeout = streamIdleTimeout
        let maximumRedirects = maximumRedirects
        return Observable.create { observer in
            let exchange = URLSessionExchange(request: request, maximumRedirects: maximumRedirects) { event in
                observer.on(event)
            }
            exchange.start(idleTimeout: idleTimeout, deadline: nil)
            return Disposables.create { exchange.cancel() }
        }
    }

    /// The `URLRequest` for `request` (no caching; the body and headers as given).
    static func urlRequest(for request: WireRequest, timeout: TimeInterval) -> URLRequest {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        return urlRequest
    }

    /// The transport error for a failure reported by `URLSession`.
    static func transportError(for error: Error) -> HTTPTransportError {
        guard let urlError = error as? URLError else {
            return .failed(message: error.localizedDescription)
        }
        let message = "\(urlError.failingURL.map { "\($0.scheme ?? "")://\($0.host ?? "")\($0.port.map { ":\($0)" } ?? ""): " } ?? "")\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))"
        switch urlError.code {
        case .timedOut:
            return .timedOut(message: message)
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .internationalRoamingOff, .dataNotAllowed, .callIsActive:
            return .cannotConnect(message: message)
        case .networkConnectionLost, .resourceUnavailable:
            return .connectionLost(message: message)
        default:
            return .failed(message: message)
        }
    }
}

/// The response being collected by `send` (used on the exchange's serial delegate queue only).
private final class ResponseCollector {
    var response: WireResponse?
}

/// One request in flight: owns its `URLSession` (whose delegate it is) and reports the response
/// to `handler` as a grammar-respecting stream of events.
///
/// `URLSession` keeps its delegate alive until it is invalidated, so the exchange invalidates
/// its session when it finishes or is cancelled; it forgets the handler at the same moment, so
/// whatever the handler holds (the subscriber) is released at once even if the session takes
/// a little longer to let go of the delegate.
private final class URLSessionExchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Safety: the mutable state lives in `state`, guarded by its lock. `handler` is only called
    // from the session's serial delegate queue `queue` (the deadline timer hops onto it), never
    // while the lock is held, and never again after the terminal event. `request`,
    // `maximumRedirects` and `queue` are immutable (OperationQueue is thread-safe).
    private struct State {
        var handler: ((Event<HTTPStreamPart>) -> Void)?
        var session: URLSession?
        var task: URLSessionDataTask?
        var deadlineTimer: DispatchSourceTimer?
        var redirects = 0
    }

    private let request: WireRequest
    private let maximumRedirects: Int
    private let state: LockedState<State>
    /// The session's delegate queue: serial, so every delegate call (and the deadline, which
    /// is moved onto it) reaches `handler` one at a time.
    private let queue: OperationQueue

    init(request: WireRequest, maximumRedirects: Int, handler: @escaping (Event<HTTPStreamPart>) -> Void) {
        self.request = request
        self.maximumRedirects = maximumRedirects
        state = LockedState(State(handler: handler))
        queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Streams.URLSessionTransport"
        super.init()
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }

    /// Starts the exchange with an idle timeout and, optionally, a deadline for all of it.
    func start(idleTimeout: TimeInterval, deadline: TimeInterval?) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        if let deadline { configuration.timeoutIntervalForResource = deadline }
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        let task = session.dataTask(with: URLSessionTransport.urlRequest(for: request, timeout: idleTimeout))
        var timer: DispatchSourceTimer?
        if let deadline {
            let source = DispatchSource.makeTimerSource(queue: .global())
            source.schedule(deadline: .now() + max(deadline, 0))
            // Weak: the timer must not keep a finished exchange alive. The timeout is reported
            // from the delegate queue, so it never overlaps a delegate call.
            source.setEventHandler { [weak self] in
                self?.queue.addOperation { [weak self] in
                    self?.finish(.error(HTTPTransportError.timedOut(message: "no complete response within \(deadline) s")))
                }
            }
            timer = source
        }
        state.withLock { state in
            state.session = session
            state.task = task
            state.deadlineTimer = timer
        }
        timer?.resume()
        task.resume()
    }

    /// Cancels the exchange (the subscription was disposed): nothing more is reported.
    func cancel() {
        let (session, timer, handler) = state.withLock { state in
            defer {
                state.handler = nil
                state.session = nil
                state.task = nil
                state.deadlineTimer = nil
            }
            return (state.session, state.deadlineTimer, state.handler)
        }
        timer?.cancel()
        session?.invalidateAndCancel()
        _ = handler  // released here, outside the lock
    }

    // MARK: - Reporting

    /// Reports a non-terminal event, unless the exchange has ended.
    private func report(_ part: HTTPStreamPart) {
        let handler = state.withLock { $0.handler }
        handler?(.next(part))
    }

    /// Reports the terminal event once and tears everything down.
    private func finish(_ event: Event<HTTPStreamPart>) {
        let (handler, session, timer) = state.withLock { state in
            defer {
                state.handler = nil
                state.session = nil
                state.task = nil
                state.deadlineTimer = nil
            }
            return (state.handler, state.session, state.deadlineTimer)
        }
        guard let handler else { return }
        timer?.cancel()
        session?.invalidateAndCancel()
        handler(event)
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            finish(.error(HTTPTransportError.failed(message: "not an HTTP response: \(response)")))
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers["\(name)"] = "\(value)"
        }
        completionHandler(.allow)
        report(.response(statusCode: http.statusCode, headers: headers))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        report(.data(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error {
            finish(.error(URLSessionTransport.transportError(for: error)))
        } else {
            finish(.completed)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let allowed = state.withLock { state -> Bool in
            state.redirects += 1
            return state.redirects <= maximumRedirects
        }
        guard allowed, let url = newRequest.url else {
            completionHandler(nil)
            finish(.error(HTTPTransportError.failed(message: "more than \(maximumRedirects) redirects")))
            return
        }
        guard response.statusCode == 307 || response.statusCode == 308 else {
            completionHandler(newRequest)
            return
        }
        // 307 and 308 repeat the request unchanged at the new location.
        let redirected = WireRequest(method: request.method, url: url, headers: request.headers, body: request.body)
        completionHandler(URLSessionTransport.urlRequest(for: redirected, timeout: newRequest.timeoutInterval))
    }
}

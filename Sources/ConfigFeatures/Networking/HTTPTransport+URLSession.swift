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
/// - `send`'s `timeout` is a deadline for the whole exchange; `stream` fails when nothing
///   arrives for `streamIdleTimeout` (a streaming response may last for hours). Both are
///   exact to the millisecond on every platform.
/// - `send` buffers at most `maximumResponseSize` bytes of body (16 MiB by default); a larger
///   body cancels the exchange and fails with `.responseTooLarge(limit:)`. Streams are bounded
///   by their readers (``ServerSentEventParser``, the realtime message splitter).
/// - Events are delivered on the session's serial delegate queue, one at a time.
package final class URLSessionTransport: HTTPTransport {
    /// The longest a stream may stay silent before it fails with `.timedOut`.
    package let streamIdleTimeout: TimeInterval
    /// How many redirects in a row are followed before the exchange fails.
    package let maximumRedirects: Int
    /// The most bytes of body `send` buffers before it fails with `.responseTooLarge`.
    package let maximumResponseSize: Int

    /// The default `maximumResponseSize`: 16 MiB (a Remote Config template is at most 1 MB;
    /// an Installations answer a few hundred bytes; a database `GET` may be large).
    package static let defaultMaximumResponseSize = 16 << 20

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - streamIdleTimeout: The idle timeout of streams, in seconds (330 s by default, as
    ///     Firebase's realtime client; the Realtime Database sends a keep-alive every 30 s).
    ///   - maximumRedirects: How many redirects in a row are followed.
    ///   - maximumResponseSize: The most bytes of body `send` buffers.
    package init(streamIdleTimeout: TimeInterval = 330, maximumRedirects: Int = 10, maximumResponseSize: Int = URLSessionTransport.defaultMaximumResponseSize) {
        self.maximumResponseSize = max(0, maximumResponseSize)
        self.streamIdleTimeout = streamIdleTimeout
        self.maximumRedirects = maximumRedirects
    }

    package func send(_ request: WireRequest, timeout: TimeInterval) -> Observable<WireResponse> {
        let maximumRedirects = maximumRedirects
        let maximumResponseSize = maximumResponseSize
        return Observable.create { observer in
            let collector = ResponseCollector()
            let exchange = URLSessionExchange(request: request, maximumRedirects: maximumRedirects, timeout: .deadline(timeout)) { event in
                switch event {
                case .next(.response(let statusCode, let headers)):
                    collector.response = WireResponse(statusCode: statusCode, headers: headers)
                case .next(.data(let data)):
                    guard let received = collector.response?.body.count else { return }
                    guard data.count <= maximumResponseSize - received else {
                        // The error disposes the subscription, which cancels the exchange.
                        collector.response = nil
                        observer.onError(HTTPTransportError.responseTooLarge(limit: maximumResponseSize))
                        return
                    }
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
            exchange.start()
            return Disposables.create { exchange.cancel() }
        }
    }

    package func stream(_ request: WireRequest) -> Observable<HTTPStreamPart> {
        let idleTimeout = streamIdleTimeout
        let maximumRedirects = maximumRedirects
        return Observable.create { observer in
            let exchange = URLSessionExchange(request: request, maximumRedirects: maximumRedirects, timeout: .idle(idleTimeout)) { event in
                observer.on(event)
            }
            exchange.start()
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
        let message =
            "\(urlError.failingURL.map { "\($0.scheme ?? "")://\($0.host ?? "")\($0.port.map { ":\($0)" } ?? ""): " } ?? "")\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))"
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
///
/// Two things are done by hand because Foundation on Linux does not do them:
/// - Timeouts: it truncates timeouts to whole seconds (0.5 s fires at once) and counts its
///   "request" timeout from the start instead of from the last packet, which would cut every
///   stream. The exchange runs its own timer (a deadline for `send`, an idle timeout for
///   streams) and gives `URLSession` only a generous backstop.
/// - 307/308: it drops the body when following a redirect. The exchange declines the
///   redirect and sends the original request (method, headers, body) to the new location as a
///   new task of the same session; callbacks of the superseded task are ignored.
private final class URLSessionExchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Safety: the mutable state lives in `state`, guarded by its lock. `handler` is only called
    // from the session's serial delegate queue `queue` (the timer hops onto it), never while
    // the lock is held, and never again after the terminal event. `request`,
    // `maximumRedirects`, `timeout` and `queue` are immutable (OperationQueue is thread-safe).
    private struct State {
        var handler: ((Event<HTTPStreamPart>) -> Void)?
        var session: URLSession?
        /// The task whose callbacks count (after a manual redirect, the newest one).
        var task: URLSessionDataTask?
        var timer: DispatchSourceTimer?
        /// When the idle timeout was last restarted (uptime nanoseconds).
        var lastActivity: UInt64 = 0
        var redirects = 0

        /// Forgets everything once the exchange has ended.
        mutating func clear() {
            handler = nil
            session = nil
            task = nil
            timer = nil
        }
    }

    /// How the exchange times out.
    enum Timeout {
        /// Fail if the whole exchange takes longer than this many seconds.
        case deadline(TimeInterval)
        /// Fail if nothing arrives for this many seconds.
        case idle(TimeInterval)
    }

    /// The timeout given to `URLSession` itself: longer than any of ours, so ours fire first.
    private static let backstopTimeout: TimeInterval = 7 * 24 * 3600

    private let request: WireRequest
    private let maximumRedirects: Int
    private let timeout: Timeout
    private let state: LockedState<State>
    /// The session's delegate queue: serial, so every delegate call (and the timeout, which
    /// is moved onto it) reaches `handler` one at a time.
    private let queue: OperationQueue

    init(request: WireRequest, maximumRedirects: Int, timeout: Timeout, handler: @escaping (Event<HTTPStreamPart>) -> Void) {
        self.request = request
        self.maximumRedirects = maximumRedirects
        self.timeout = timeout
        state = LockedState(State(handler: handler))
        queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Streams.URLSessionTransport"
        super.init()
        Resources.incrementTotal(for: type(of: self))
    }

    deinit {
        Resources.decrementTotal(for: type(of: self))
    }

    /// Sends the request.
    func start() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.backstopTimeout
        configuration.timeoutIntervalForResource = Self.backstopTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        let task = session.dataTask(with: URLSessionTransport.urlRequest(for: request, timeout: Self.backstopTimeout))
        let timer = makeTimer()
        let started = state.withLock { state -> Bool in
            guard state.handler != nil else { return false }
            state.session = session
            state.task = task
            state.timer = timer
            state.lastActivity = DispatchTime.now().uptimeNanoseconds
            return true
        }
        guard started else {
            session.invalidateAndCancel()
            return
        }
        timer?.resume()
        task.resume()
    }

    /// Cancels the exchange (the subscription was disposed): nothing more is reported.
    func cancel() {
        let (session, timer, handler) = state.withLock { state in
            defer { state.clear() }
            return (state.session, state.timer, state.handler)
        }
        timer?.cancel()
        session?.invalidateAndCancel()
        _ = handler  // released here, outside the lock
    }

    // MARK: - Timeout

    private func makeTimer() -> DispatchSourceTimer? {
        let seconds: TimeInterval
        switch timeout {
        case .deadline(let value), .idle(let value): seconds = value
        }
        guard seconds.isFinite, seconds < Self.backstopTimeout else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + max(seconds, 0))
        // Weak: the timer must not keep a finished exchange alive. The check runs on the
        // delegate queue, so it never overlaps a delegate call.
        timer.setEventHandler { [weak self] in
            self?.queue.addOperation { [weak self] in self?.timerFired() }
        }
        return timer
    }

    /// On the delegate queue: fails the exchange, unless (idle timeout) something arrived
    /// meanwhile, in which case the timer is set again.
    private func timerFired() {
        switch timeout {
        case .deadline(let seconds):
            finish(.error(HTTPTransportError.timedOut(message: "no complete response within \(seconds) s")))
        case .idle(let seconds):
            let interval = UInt64(max(seconds, 0) * 1_000_000_000)
            let now = DispatchTime.now().uptimeNanoseconds
            let (timer, due) = state.withLock { state in (state.timer, state.lastActivity &+ interval) }
            guard let timer else { return }
            if now >= due {
                finish(.error(HTTPTransportError.timedOut(message: "nothing received for \(seconds) s")))
            } else {
                timer.schedule(deadline: DispatchTime(uptimeNanoseconds: due))
            }
        }
    }

    // MARK: - Reporting

    /// Whether `task` is the current task of a live exchange (records activity if so).
    private func isCurrent(_ task: URLSessionTask) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { state in
            guard state.handler != nil, state.task === task else { return false }
            state.lastActivity = now
            return true
        }
    }

    /// Reports a non-terminal event, unless the exchange has ended.
    private func report(_ part: HTTPStreamPart) {
        let handler = state.withLock { $0.handler }
        handler?(.next(part))
    }

    /// Reports the terminal event once and tears everything down.
    private func finish(_ event: Event<HTTPStreamPart>) {
        let (handler, session, timer) = state.withLock { state in
            defer { state.clear() }
            return (state.handler, state.session, state.timer)
        }
        guard let handler else { return }
        timer?.cancel()
        session?.invalidateAndCancel()
        handler(event)
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard isCurrent(dataTask) else {
            completionHandler(.cancel)
            return
        }
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
        guard isCurrent(dataTask) else { return }
        report(.data(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard isCurrent(task) else { return }
        if let error {
            finish(.error(URLSessionTransport.transportError(for: error)))
        } else {
            finish(.completed)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let allowed = state.withLock { state -> Bool? in
            guard state.handler != nil, state.task === task else { return nil }
            state.redirects += 1
            return state.redirects <= maximumRedirects
        }
        guard let allowed else {
            completionHandler(nil)
            return
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
        // 307 and 308 repeat the request unchanged at the new location: send it as a new task
        // and let the superseded one finish unnoticed.
        let redirected = WireRequest(method: request.method, url: url, headers: request.headers, body: request.body)
        let next = session.dataTask(with: URLSessionTransport.urlRequest(for: redirected, timeout: Self.backstopTimeout))
        let replaced = state.withLock { state -> Bool in
            guard state.handler != nil, state.task === task else { return false }
            state.task = next
            return true
        }
        completionHandler(nil)
        if replaced { next.resume() }
    }
}

import Foundation
@testable import ConfigFeatures
import Streams
import StreamsTest

/// A scripted `HTTPTransport`: records every exchange, answers `send` from a queue of scripted
/// replies (delivered on `scheduler` after `latency`), and lets the test drive each stream by
/// hand (`open`, `send`, `complete`, `fail`).
final class FakeHTTPTransport: HTTPTransport, @unchecked Sendable {
    // Safety: the mutable state is in `state`, guarded by its lock; observers are called
    // outside it.

    /// A scripted answer to a `send`.
    enum Reply {
        /// Answer with this response.
        case response(WireResponse)
        /// Fail with this error.
        case failure(Error)
        /// Never answer.
        case never

        static func status(_ code: Int, _ body: String = "", headers: [String: String] = [:]) -> Reply {
            .response(WireResponse(statusCode: code, headers: headers, body: Data(body.utf8)))
        }

        static func json(_ body: JSONValue, status: Int = 200, headers: [String: String] = [:]) -> Reply {
            .response(WireResponse(statusCode: status, headers: headers, body: body.data()))
        }
    }

    /// One `send` subscription.
    final class SentRequest: @unchecked Sendable {
        // Safety: `disposed` is an atomic-free flag guarded by `lock`.
        let request: WireRequest
        let timeout: TimeInterval
        private let lock = LockedState(false)
        init(request: WireRequest, timeout: TimeInterval) {
            self.request = request
            self.timeout = timeout
        }
        /// Whether the subscription was disposed (cancelled or finished).
        var isDisposed: Bool { lock.withLock { $0 } }
        fileprivate func markDisposed() { lock.withLock { $0 = true } }
    }

    /// One `stream` subscription, driven by the test.
    final class Stream: @unchecked Sendable {
        // Safety: `observer` and `disposed` are guarded by `state`; the observer is called
        // outside the lock.
        let request: WireRequest
        private let state = LockedState<(observer: AnyObserver<HTTPStreamPart>?, disposed: Bool)>((nil, false))

        init(request: WireRequest) { self.request = request }

        fileprivate func attach(_ observer: AnyObserver<HTTPStreamPart>) { state.withLock { $0.observer = observer } }
        fileprivate func markDisposed() {
            let observer = state.withLock { state -> AnyObserver<HTTPStreamPart>? in
                defer { state.observer = nil; state.disposed = true }
                return state.observer
            }
            _ = observer
        }

        /// Whether the subscription was disposed (by the client, or after a terminal event).
        var isDisposed: Bool { state.withLock { $0.disposed } }

        private func emit(_ event: Event<HTTPStreamPart>) {
            let observer = state.withLock { $0.observer }
            observer?.on(event)
        }

        /// Sends the status line and headers.
        func open(status: Int = 200, headers: [String: String] = [:]) { emit(.next(.response(statusCode: status, headers: headers))) }
        /// Sends a body chunk.
        func send(_ text: String) { emit(.next(.data(Data(text.utf8)))) }
        /// Sends raw bytes.
        func send(bytes: Data) { emit(.next(.data(bytes))) }
        /// Ends the response.
        func complete() { emit(.completed) }
        /// Fails the connection.
        func fail(_ error: Error = HTTPTransportError.connectionLost(message: "reset")) { emit(.error(error)) }
    }

    private struct State {
        var replies: [Reply] = []
        var sent: [SentRequest] = []
        var streams: [Stream] = []
    }

    private let state = LockedState(State())
    private let scheduler: SchedulerType
    private let latency: RxTimeInterval
    /// Called (outside the lock) when a stream is subscribed, e.g. to open it at once.
    private let onStream: (@Sendable (Stream) -> Void)?

    /// Creates a transport answering on `scheduler` after `latency`.
    init(scheduler: SchedulerType, latency: RxTimeInterval = .seconds(0), onStream: (@Sendable (Stream) -> Void)? = nil) {
        self.scheduler = scheduler
        self.latency = latency
        self.onStream = onStream
    }

    /// Queues replies for the next `send`s, in order; without one a `send` never answers.
    func reply(_ replies: Reply...) {
        state.withLock { $0.replies.append(contentsOf: replies) }
    }

    /// Every `send` so far, oldest first.
    var sentRequests: [SentRequest] { state.withLock { $0.sent } }

    /// Every stream so far, oldest first.
    var streams: [Stream] { state.withLock { $0.streams } }

    /// The streams whose subscription is still alive.
    var openStreams: [Stream] { streams.filter { !$0.isDisposed } }

    func send(_ request: WireRequest, timeout: TimeInterval) -> Observable<WireResponse> {
        Observable.create { [self] observer in
            let record = SentRequest(request: request, timeout: timeout)
            let reply = state.withLock { state -> Reply in
                state.sent.append(record)
                return state.replies.isEmpty ? .never : state.replies.removeFirst()
            }
            let work: Disposable
            switch reply {
            case .never:
                work = Disposables.create()
            case .response(let response):
                work = scheduler.scheduleRelative((), dueTime: latency) { _ in
                    observer.onNext(response)
                    observer.onCompleted()
                    return Disposables.create()
                }
            case .failure(let error):
                work = scheduler.scheduleRelative((), dueTime: latency) { _ in
                    observer.onError(error)
                    return Disposables.create()
                }
            }
            return Disposables.create {
                record.markDisposed()
                work.dispose()
            }
        }
    }

    func stream(_ request: WireRequest) -> Observable<HTTPStreamPart> {
        Observable.create { [self] observer in
            let stream = Stream(request: request)
            stream.attach(observer)
            state.withLock { $0.streams.append(stream) }
            onStream?(stream)
            return Disposables.create { stream.markDisposed() }
        }
    }
}

extension WireRequest {
    /// The body as JSON (`nil` when absent or not JSON).
    var bodyJSON: JSONValue? { body.flatMap { try? JSONValue(parsing: $0) } }
}

import Foundation
import Streams

extension FirebaseRESTDatabase {
    /// Runs a transaction at `path` when subscribed, with the REST API's conditional requests:
    /// a `GET` with `X-Firebase-ETag: true` reads the value and its ETag, `update` computes the
    /// new value, and a `PUT` with `if-match` stores it only if the value is unchanged; a 412
    /// answer carries the current value and ETag, and `update` runs again with them (up to
    /// `RealtimeDatabaseTransaction.maximumAttempts` times, as Firebase's SDKs).
    ///
    /// `update` runs on the transport's thread, possibly several times; it must only compute.
    /// - Returns: A `Single` of the outcome; it fails with
    ///   `RealtimeDatabaseError.transactionRetriesExhausted` after 25 conflicts, what `update`
    ///   throws, a ``RealtimeDatabaseError`` for an invalid path or value, or a
    ///   ``FirebaseRESTDatabaseError``. Disposing it cancels the request in flight (a `PUT`
    ///   already sent may still be stored).
    /// - Note: Delivers on the scheduler. See <doc:Networking>.
    public func runTransaction(at path: String, update: @escaping (JSONValue) throws -> JSONValue?) -> Single<RealtimeDatabaseTransactionResult> {
        let core = self.core
        let pin = self.pin
        return Observable.create { observer in
            let location: RealtimeDatabasePath
            do {
                location = try RealtimeDatabasePath(path, limits: core.limits)
            } catch {
                return core.deliver(.error(error), to: observer)
            }
            let transaction = RESTTransaction(core: core, path: path, location: location, pin: pin, update: update, observer: observer)
            transaction.start()
            return transaction
        }.asSingle()
    }
}

/// One `runTransaction` over REST: read with ETag, then conditional writes until one is stored.
final class RESTTransaction: Disposable, @unchecked Sendable {
    // Safety: the mutable parts are thread-safe disposables (`exchange`, `delivery`); `update`
    // runs on one transport callback at a time (each request is sent after the previous
    // answer), so it is never called concurrently. `exchange` is sequenced: the next attempt's
    // request is started from inside the previous answer's callback, and may be answered (and
    // start a third) before the call that started it returns; a plain `SerialDisposable` would
    // then let the older subscription overwrite, and cancel, the newest request.
    private let core: FirebaseRESTDatabase.Core
    private let path: String
    private let location: RealtimeDatabasePath
    private let pin: RESTUserPin?
    private let update: (JSONValue) throws -> JSONValue?
    private let observer: AnyObserver<RealtimeDatabaseTransactionResult>
    private let exchange = SequencedSerialDisposable()
    private let delivery = SerialDisposable()

    init(
        core: FirebaseRESTDatabase.Core, path: String, location: RealtimeDatabasePath, pin: RESTUserPin?,
        update: @escaping (JSONValue) throws -> JSONValue?,
        observer: AnyObserver<RealtimeDatabaseTransactionResult>
    ) {
        self.core = core
        self.path = path
        self.location = location
        self.pin = pin
        self.update = update
        self.observer = observer
    }

    /// Looks the credential up (one for the whole transaction), then reads with the ETag.
    func start() {
        exchange.replace {
            core.credential(pin: pin).take(1).subscribe(
                onNext: { [self] credential in
                    let wire = core.wire(credential)
                    send(wire.eTagReadRequest(at: location)) { [self] response in
                        guard let eTag = response.header("ETag") else {
                            throw FirebaseRESTDatabaseError.invalidResponse(message: "no ETag in the answer to X-Firebase-ETag: true")
                        }
                        try attempt(try value(in: response), eTag: eTag, number: 1, wire: wire)
                    }
                },
                onError: { [self] error in finish(.error(error)) })
        }
    }

    func dispose() {
        exchange.dispose()
        delivery.dispose()
    }

    /// Runs `update` on `current` and sends the conditional write.
    private func attempt(_ current: JSONValue, eTag: String, number: Int, wire: RealtimeDatabaseRESTWire) throws {
        guard number <= RealtimeDatabaseTransaction.maximumAttempts else {
            throw RealtimeDatabaseError.transactionRetriesExhausted(path: path, attempts: RealtimeDatabaseTransaction.maximumAttempts)
        }
        guard let proposed = try update(current) else {
            return finish(.next(RealtimeDatabaseTransactionResult(committed: false, value: current)))
        }
        let request = try wire.conditionalSetRequest(proposed, at: location, eTag: eTag, limits: core.limits)
        send(request) { [self] response in
            if response.statusCode == 412 {
                guard let eTag = response.header("ETag") else {
                    throw FirebaseRESTDatabaseError.invalidResponse(message: "no ETag in a 412 answer")
                }
                var conflict = response
                conflict.statusCode = 200
                return try attempt(try value(in: conflict), eTag: eTag, number: number + 1, wire: wire)
            }
            finish(.next(RealtimeDatabaseTransactionResult(committed: true, value: try value(in: response))))
        }
    }

    /// The normalized JSON value of a 2xx `response` (throws the status's error otherwise).
    private func value(in response: WireResponse) throws -> JSONValue {
        let depth = max(0, core.limits.maximumDepth - location.depth)
        let json = try RealtimeDatabaseRESTWire.decodeResponse(response, maximumJSONDepth: depth, limits: core.limits)
        return try FirebaseRESTDatabase.normalizedResponse(json, at: location, limits: core.limits)
    }

    /// Sends `request`; `handle` gets its answer (a thrown error ends the transaction).
    private func send(_ request: WireRequest, handle: @escaping (WireResponse) throws -> Void) {
        exchange.replace {
            core.transport.send(request, timeout: core.requestTimeout).subscribe { [self] event in
                switch event {
                case .next(let response):
                    do {
                        try handle(response)
                    } catch {
                        finish(.error(error))
                    }
                case .error(let error):
                    finish(.error(FirebaseRESTDatabase.Core.wireError(error)))
                case .completed:
                    break
                }
            }
        }
    }

    private func finish(_ event: Event<RealtimeDatabaseTransactionResult>) {
        delivery.disposable = core.deliver(event, to: observer)
    }
}

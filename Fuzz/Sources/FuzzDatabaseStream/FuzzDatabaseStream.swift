// Fuzzes the Realtime Database stream: `ServerSentEventParser`, the event decoding
// (`RealtimeDatabaseStreamEvent`) and the local tree (`RealtimeDatabaseStreamTree`, which
// applies `put` and `patch`), all behind the public `FirebaseRESTDatabase.observeValue(at:)`.
// A loopback HTTP server answers the stream request with the fuzz bytes as a
// `text/event-stream` body, written in pieces and ended by closing the connection.
//
// The database is built with `maximumAttempts: 0`, so the end of the stream ends the
// observation with an error instead of reconnecting: every input terminates.
//
// Input: a control byte, then the body. The low two bits + 1 are the number of pieces;
// control bytes from 0xF0 answer an error status instead of 200.
import ConfigFeatures
import FuzzSupport
import StreamsTest

let server = LoopbackHTTPServer()
let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "fuzz.database.stream")
let database = FirebaseRESTDatabase(
    databaseURL: server.baseURL,
    scheduler: scheduler,
    reconnectBackoff: BackoffPolicy(initialDelay: 0, jitter: 0, maximumAttempts: 0)
)
let errorStatuses = [400, 401, 403, 404, 500, 503, 408, 429]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let status = input.control < 0xF0 ? 200 : errorStatuses[Int(input.control) % errorStatuses.count]
    server.respond(
        with: .init(status: status, contentType: "text/event-stream", body: input.payload, framing: .closeDelimited, pieces: Int(input.control & 3) + 1))
    switch database.observeValue(at: "Groups/group0").toBlocking().materialize() {
    case .completed:
        require(false, "observeValue completed (it never completes)")
    case .failed(let values, let error):
        for value in values { _ = value.serialized() }
        // Transport and protocol failures are FirebaseRESTDatabaseError; server data past the
        // database's limits (depth, key length) is the typed RealtimeDatabaseError.
        require(error is FirebaseRESTDatabaseError || error is RealtimeDatabaseError, "failed with a foreign error: \(error)")
    }
    return 0
}

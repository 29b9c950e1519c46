// Fuzzes the Realtime Database REST response decoding (`RealtimeDatabaseRESTWire`,
// package-level) through the public `FirebaseRESTDatabase`: a loopback HTTP server answers
// with the fuzz bytes as the response body, through the real `URLSession` transport.
//
// Input: a control byte, then the body. The low two bits pick the call: `getValue` of a
// child, `getValue` of the root, `push` (decodes `{"name": …}`), `perform(.setValue)`. The
// other bits pick the status: mostly 200, else 204, 400, 401, 403, 404, 500 or 503.
import ConfigFeatures
import FuzzSupport
import StreamsTest

let server = LoopbackHTTPServer()
let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "fuzz.database.rest")
let database = FirebaseRESTDatabase(databaseURL: server.baseURL, auth: .idToken("fuzz-token"), scheduler: scheduler)
let statuses = [200, 200, 200, 200, 200, 200, 200, 200, 204, 400, 401, 403, 404, 412, 500, 503]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let status = statuses[Int(input.control >> 2) % statuses.count]
    server.respond(with: .init(status: status, body: input.payload))
    // No timeout of our own: an exchange that never ends is a hang for libFuzzer's -timeout.
    let outcome: String
    switch input.control & 3 {
    case 0:
        outcome = describe(database.getValue(at: "Groups/group0").toBlocking().materialize())
    case 1:
        outcome = describe(database.getValue(at: "/").toBlocking().materialize())
    case 2:
        outcome = describe(database.push(["title": "hello", "count": 1], at: "Groups/group0/comments").toBlocking().materialize())
    default:
        outcome = describe(database.perform(.setValue(["a": [1, 2, 3]], at: "Users/u1")).toBlocking().materialize())
    }
    _ = outcome
    return 0
}

/// The outcome as text (exercising the errors' descriptions); checks that a call emits one
/// element or fails.
func describe<Element>(_ result: MaterializedSequenceResult<Element>) -> String {
    switch result {
    case .completed(let elements):
        require(elements.count == 1, "completed with \(elements.count) elements")
        return "\(elements)"
    case .failed(let elements, let error):
        require(elements.isEmpty, "failed after an element")
        // A wire failure is a FirebaseRESTDatabaseError; server data nested past the
        // database's limits is the typed RealtimeDatabaseError (`.pathTooDeep`), as documented.
        require(error is FirebaseRESTDatabaseError || isLimitError(error), "failed with a foreign error: \(error)")
        return "\(error)"
    }
}

/// Whether `error` is the documented error for server data past the database's limits.
func isLimitError(_ error: Error) -> Bool {
    switch error as? RealtimeDatabaseError {
    case .pathTooDeep?, .keyTooLong?: return true
    default: return false
    }
}

// Fuzzes the Remote Config fetch response decoding through its public entry point,
// `HTTPRemoteConfigBackend.fetch(_:)`: the decoder (`RemoteConfigWire`) and the transport are
// package-level, so the bytes come from a loopback HTTP server (`LoopbackHTTPServer`) that
// the backend is pointed at, and travel through the real `URLSession` transport.
//
// Input: a control byte, then the response body. Control bytes below 0xC0 answer 200 (the
// JSON body path); the others pick an error status (304, 4xx, 5xx: Google's error body
// path). Bit 0 of the control byte decides whether the request carries an ETag.
import ConfigFeatures
import FuzzSupport
import StreamsTest

let server = LoopbackHTTPServer()
let backend = HTTPRemoteConfigBackend(
    project: "fuzz-project",
    apiKey: "fuzz-key",
    appID: "1:1234:ios:fuzz",
    appInstanceID: "fuzz-instance",
    fetchBaseURL: server.baseURL,
    realtimeBaseURL: server.baseURL,
    sdkVersion: "11.0.0",
    languageCode: "en"
)
let errorStatuses = [304, 400, 401, 403, 404, 429, 500, 502, 503, 504, 418, 599]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let status = input.control < 0xC0 ? 200 : errorStatuses[Int(input.control) % errorStatuses.count]
    server.respond(with: .init(status: status, body: input.payload))
    let request = RemoteConfigFetchRequest(
        eTag: input.control & 1 == 0 ? nil : "etag-7",
        lastKnownTemplateVersion: input.control & 1 == 0 ? nil : 7
    )
    // No timeout of our own: a client that never answers is a hang, which libFuzzer's
    // `-timeout` reports with the input.
    switch backend.fetch(request).toBlocking().materialize() {
    case .completed(let elements):
        require(elements.count == 1, "fetch completed with \(elements.count) responses")
        _ = "\(elements[0])"
    case .failed(let elements, let error):
        require(elements.isEmpty, "fetch failed after a response")
        require(error is RemoteConfigBackendError, "fetch failed with a foreign error: \(error)")
        if let error = error as? RemoteConfigBackendError { _ = error.description }
    }
    return 0
}

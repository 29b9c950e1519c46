// Fuzzes the Remote Config realtime stream decoding (`RemoteConfigInvalidationDecoder` and its
// JSON object splitter, both package-level) through the public
// `HTTPRemoteConfigBackend.realtimeInvalidations(lastKnownTemplateVersion:)`: a loopback
// HTTP server answers the stream request with the fuzz bytes as the streamed body (no
// Content-Length, ended by closing the connection, written in several pieces so that the
// decoder sees chunks split anywhere).
//
// Input: a control byte, then the body. The low two bits + 1 are the number of pieces;
// control bytes from 0xF0 answer an error status instead of 200 (the error-body path).
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
let errorStatuses = [400, 403, 429, 500, 502, 503, 504, 404]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let status = input.control < 0xF0 ? 200 : errorStatuses[Int(input.control) % errorStatuses.count]
    server.respond(with: .init(status: status, body: input.payload, framing: .closeDelimited, pieces: Int(input.control & 3) + 1))
    // The stream ends when the server closes it (a completion, or an error for a malformed
    // message or an error status); a stream that never ends is a hang for libFuzzer's -timeout.
    switch backend.realtimeInvalidations(lastKnownTemplateVersion: 1).toBlocking().materialize() {
    case .completed(let invalidations):
        require(status == 200, "HTTP \(status) completed normally")
        for invalidation in invalidations {
            require(invalidation.latestTemplateVersion >= 0, "negative template version \(invalidation)")
            if let retry = invalidation.retryInterval { require(retry.isFinite && retry >= 0, "bad retry interval \(retry)") }
        }
    case .failed(_, let error):
        require(error is RemoteConfigBackendError, "stream failed with a foreign error: \(error)")
    }
    return 0
}

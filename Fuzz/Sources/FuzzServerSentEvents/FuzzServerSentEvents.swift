// Fuzzes `ServerSentEventParser` (public): the `text/event-stream` parser behind the Realtime
// Database stream.
//
// Input: a control byte, then the stream. The stream is parsed whole and again in chunks
// whose sizes come from the control byte (low and high nibble + 1, alternating; odd chunks go
// through the non-contiguous-sequence path). The parser promises the same events and state
// however the stream is split, so any difference is reported.
import ConfigFeatures
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let stream = input.payload

    var whole = ServerSentEventParser()
    let wholeEvents = whole.feed(stream)

    var chunked = ServerSentEventParser()
    var chunkedEvents: [ServerSentEvent] = []
    let sizes = [Int(input.control & 0x0F) + 1, Int(input.control >> 4) + 1]
    for (index, chunk) in FuzzInput.chunks(of: stream, sizes: sizes).enumerated() {
        if index.isMultiple(of: 2) {
            chunkedEvents += chunked.feed(chunk)
        } else {
            chunkedEvents += chunked.feed(chunk.lazy.map { $0 })
        }
    }

    require(wholeEvents == chunkedEvents, "chunked parse differs: \(wholeEvents) vs \(chunkedEvents)")
    require(whole.lastEventID == chunked.lastEventID, "lastEventID differs")
    require(whole.reconnectionTime == chunked.reconnectionTime, "reconnectionTime differs")
    for event in wholeEvents { _ = event.description }

    // A reconnection: the same parser reads the stream again after `finish()`.
    require(whole.finish().isEmpty, "finish() returned events")
    _ = whole.feed(stream)
    return 0
}

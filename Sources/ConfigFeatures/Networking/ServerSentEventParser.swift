/// An incremental parser for `text/event-stream` bodies (Server-Sent Events), following the
/// WHATWG HTML "Interpreting an event stream" rules.
///
/// Feed it the response body in chunks of any size, split anywhere (even inside a UTF-8
/// character or between the CR and LF of a line end); each call returns the events completed
/// by that chunk. Call `finish()` at the end of the stream: an event not yet ended by a blank
/// line is discarded, as the spec requires.
///
///     var parser = ServerSentEventParser()
///     parser.feed("event: put\ndata: {\"path\":\"/\",".utf8)   // []
///     parser.feed("\"data\":1}\n\n".utf8)                      // [put: {"path":"/","data":1}]
///
/// - The stream is decoded as UTF-8; one leading byte order mark is skipped; invalid bytes
///   become U+FFFD (never a failure).
/// - Lines end with CRLF, LF or CR. A blank line dispatches the event; lines starting with `:`
///   are comments.
/// - `event` sets the type (default `"message"`); `data` lines are joined with `"\n"`; `id`
///   (unless it contains U+0000) sets the last event ID, which carries over to later events;
///   `retry` (ASCII digits only) sets `reconnectionTime`; other fields are ignored. A block
///   without any `data` field dispatches nothing (`data` with an empty value dispatches `""`).
///
/// - What it buffers is bounded: the unfinished line plus the data of the event being read may
///   hold at most `maximumEventSize` bytes (16 MiB by default). Past it the parser stops with
///   `failure` set to `ServerSentEventError.eventTooLarge(limit:)` and returns no more events,
///   so the client ends the stream (a 32 MiB line without a line end grew memory without
///   bound before).
///
/// A value type with no I/O: a transport owns one per connection.
public struct ServerSentEventParser: Sendable {
    /// The default `maximumEventSize`: 16 MiB, room for a large Realtime Database snapshot (one
    /// `data:` line) while bounding memory on a phone; Firebase allows reads of up to 256 MB,
    /// so raise it for bigger locations.
    public static let defaultMaximumEventSize = 16 * 1024 * 1024

    /// The most bytes buffered for one event (its unfinished line and its data so far).
    public let maximumEventSize: Int

    /// Why the parser stopped (`nil` while it reads): the stream is to be ended.
    public private(set) var failure: ServerSentEventError?

    /// The last event ID of the stream (set when an event block ends; `""` until an `id` field
    /// is seen), to send as `Last-Event-ID` when reconnecting.
    public private(set) var lastEventID = ""

    /// The reconnection time in milliseconds the server asked for with a `retry` field, if any.
    public private(set) var reconnectionTime: Int?

    /// The bytes of the line being read (without its line end).
    private var line: [UInt8] = []
    /// Whether the previous byte was a CR, so that an LF right after it is part of the same
    /// line end (even across chunks).
    private var afterCR = false
    /// Whether the first line is still being read (a byte order mark is stripped only there).
    private var inFirstLine = true

    private var dataBuffer = ""
    private var eventTypeBuffer = ""
    private var lastEventIDBuffer = ""

    /// Creates a parser at the start of a stream, buffering at most `maximumEventSize` bytes
    /// for one event.
    public init(maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize) {
        self.maximumEventSize = maximumEventSize
    }

    /// Parses the next chunk of the stream and returns the events it completes, in order.
    ///
    /// Once `failure` is set (an event past `maximumEventSize`), returns the events completed
    /// before it, then nothing.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        guard failure == nil else { return events }
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            scan(buffer, into: &events)
        }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { scan($0, into: &events) }
        }
        return events
    }

    /// Ends the stream. An incomplete event (no blank line after it) is discarded, as the spec
    /// requires, so this returns no events.
    ///
    /// The parser is then ready for a new stream (a reconnection): the partial line and the
    /// event buffers are cleared and a byte order mark is skipped again, while `lastEventID`
    /// and `reconnectionTime` (state of the event source, not of one stream) are kept, and so is
    /// `failure`.
    @discardableResult
    public mutating func finish() -> [ServerSentEvent] {
        line.removeAll()
        afterCR = false
        inFirstLine = true
        dataBuffer = ""
        eventTypeBuffer = ""
        lastEventIDBuffer = ""
        return []
    }

    // MARK: - Lines

    private mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>, into events: inout [ServerSentEvent]) {
        var start = 0
        var index = 0
        let count = buffer.count
        if afterCR, count > 0 {
            afterCR = false
            if buffer[0] == Self.lf {
                start = 1
                index = 1
            }
        }
        while index < count {
            let byte = buffer[index]
            if byte == Self.lf || byte == Self.cr {
                guard fits(index - start) else { return }
                line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<index]))
                processLine(into: &events)
                guard fits(0) else { return }
                index += 1
                if byte == Self.cr {
                    if index < count {
                        if buffer[index] == Self.lf { index += 1 }
                    } else {
                        afterCR = true
                    }
                }
                start = index
            } else {
                index += 1
            }
        }
        if start < count, fits(count - start) {
            line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<count]))
        }
    }

    /// Whether `more` bytes of the current line still fit `maximumEventSize`; if not, stops
    /// the parser (`failure`) and frees what it buffered.
    private mutating func fits(_ more: Int) -> Bool {
        if line.count + more + dataBuffer.utf8.count <= maximumEventSize { return true }
        failure = .eventTooLarge(limit: maximumEventSize)
        line = []
        dataBuffer = ""
        return false
    }

    private mutating func processLine(into events: inout [ServerSentEvent]) {
        defer { line.removeAll(keepingCapacity: line.count <= 4096) }
        var bytes = line[...]
        if inFirstLine {
            inFirstLine = false
            if bytes.starts(with: Self.byteOrderMark) { bytes = bytes.dropFirst(Self.byteOrderMark.count) }
        }
        guard let first = bytes.first else {
            if let event = dispatch() { events.append(event) }
            return
        }
        if first == Self.colon { return }  // a comment
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = bytes.firstIndex(of: Self.colon) {
            name = bytes[..<colon]
            value = bytes[(colon + 1)...]
            if value.first == Self.space { value = value.dropFirst() }
        } else {
            name = bytes
            value = []
        }
        process(field: name, value: value)
    }

    // MARK: - Fields

    private mutating func process(field name: ArraySlice<UInt8>, value: ArraySlice<UInt8>) {
        if name.elementsEqual("data".utf8) {
            dataBuffer += String(decoding: value, as: UTF8.self)
            dataBuffer += "\n"
        } else if name.elementsEqual("event".utf8) {
            eventTypeBuffer = String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual("id".utf8) {
            if !value.contains(0) { lastEventIDBuffer = String(decoding: value, as: UTF8.self) }
        } else if name.elementsEqual("retry".utf8) {
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                reconnectionTime = Self.saturatingInteger(value)
            }
        }
        // Any other field is ignored.
    }

    /// Ends the current event block: updates `lastEventID` and returns the event, if its data is
    /// not empty.
    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = lastEventIDBuffer
        defer {
            dataBuffer = ""
            eventTypeBuffer = ""
        }
        guard !dataBuffer.isEmpty else { return nil }
        var data = dataBuffer
        if data.utf8.last == Self.lf { data.removeLast() }
        return ServerSentEvent(type: eventTypeBuffer.isEmpty ? "message" : eventTypeBuffer, data: data, lastEventID: lastEventID)
    }

    /// The decimal value of `digits`, `Int.max` when it does not fit.
    private static func saturatingInteger(_ digits: ArraySlice<UInt8>) -> Int {
        var result = 0
        for digit in digits {
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int(digit - 0x30))
            if overflow1 || overflow2 { return Int.max }
            result = sum
        }
        return result
    }

    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D
    private static let colon: UInt8 = 0x3A
    private static let space: UInt8 = 0x20
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}

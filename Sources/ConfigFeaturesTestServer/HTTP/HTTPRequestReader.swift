import Foundation

/// Reads one HTTP/1.1 request from a byte source: the head up to the blank line, then a body
/// framed by `Content-Length` or `Transfer-Encoding: chunked`.
///
/// The source returns the next bytes, or `nil` at the end of the stream. Limits keep a
/// misbehaving client from exhausting memory.
struct HTTPRequestReader {
    /// What reading produced.
    enum Outcome {
        /// A complete request.
        case request(HTTPRequest)
        /// Bytes that are not a valid request; answer with the error and close.
        case invalid(HTTPRequestError)
        /// The stream ended (or failed) before a complete request; nothing to answer.
        case closed
    }

    /// The largest request head accepted.
    static let maximumHeadLength = 64 * 1024
    /// The largest body accepted.
    static let maximumBodyLength = 32 * 1024 * 1024

    private let source: () -> [UInt8]?
    private let sendContinue: () -> Void
    private var buffer: [UInt8] = []
    private var position = 0

    /// - Parameters:
    ///   - source: The next received bytes, `nil` at the end.
    ///   - sendContinue: Writes `100 Continue` (for `Expect: 100-continue`).
    init(source: @escaping () -> [UInt8]?, sendContinue: @escaping () -> Void) {
        self.source = source
        self.sendContinue = sendContinue
    }

    /// Reads the request.
    mutating func read() -> Outcome {
        do {
            guard let head = try readHead() else { return .closed }
            var request = try HTTPRequest(head: head)
            guard let body = try readBody(of: request) else { return .closed }
            request.body = body
            return .request(request)
        } catch {
            return .invalid(error)
        }
    }

    // MARK: Framing

    private mutating func readHead() throws(HTTPRequestError) -> [UInt8]? {
        // Tolerate blank lines before the request line (RFC 9112 §2.2).
        while true {
            guard let line = try readLine(limit: Self.maximumHeadLength, tooLong: HTTPRequestError(status: 431, reason: "request header too large")) else {
                return nil
            }
            if line.isEmpty { continue }
            var head = line
            while true {
                guard
                    let next = try readLine(
                        limit: Self.maximumHeadLength - head.count, tooLong: HTTPRequestError(status: 431, reason: "request header too large"))
                else {
                    return nil
                }
                if next.isEmpty { return head }
                head += Array("\r\n".utf8) + next
            }
        }
    }

    private mutating func readBody(of request: HTTPRequest) throws(HTTPRequestError) -> Data? {
        let encoding = request.header("transfer-encoding")?.lowercased()
        let length = request.header("content-length")
        if let encoding {
            guard length == nil else { throw .malformed("both Content-Length and Transfer-Encoding") }
            guard encoding == "chunked" else { throw HTTPRequestError(status: 501, reason: "unsupported transfer encoding \(encoding)") }
            if request.header("expect")?.lowercased() == "100-continue" { sendContinue() }
            return try readChunkedBody()
        }
        guard let length else { return Data() }
        guard let count = Int(length), count >= 0, length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .malformed("malformed Content-Length")
        }
        guard count <= Self.maximumBodyLength else { throw HTTPRequestError(status: 413, reason: "request body too large") }
        if count > 0 && request.header("expect")?.lowercased() == "100-continue" { sendContinue() }
        return try readBytes(count).map { Data($0) }
    }

    private mutating func readChunkedBody() throws(HTTPRequestError) -> Data? {
        var body: [UInt8] = []
        while true {
            guard let line = try readLine(limit: 1024, tooLong: .malformed("malformed chunk size")) else { return nil }
            let sizeText = String(decoding: line, as: UTF8.self).split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !sizeText.isEmpty, sizeText.count <= 8, let size = Int(sizeText, radix: 16), size >= 0 else {
                throw .malformed("malformed chunk size")
            }
            if size == 0 {
                // Trailer fields until the blank line.
                while true {
                    guard let trailer = try readLine(limit: Self.maximumHeadLength, tooLong: .malformed("trailer too large")) else { return nil }
                    if trailer.isEmpty { return Data(body) }
                }
            }
            guard body.count + size <= Self.maximumBodyLength else { throw HTTPRequestError(status: 413, reason: "request body too large") }
            guard let chunk = try readBytes(size) else { return nil }
            body += chunk
            guard let end = try readLine(limit: 0, tooLong: .malformed("missing CRLF after a chunk")) else { return nil }
            guard end.isEmpty else { throw .malformed("missing CRLF after a chunk") }
        }
    }

    // MARK: Buffering

    /// The next line without its CRLF (a bare LF is accepted too); `nil` at the end of the stream.
    private mutating func readLine(limit: Int, tooLong: HTTPRequestError) throws(HTTPRequestError) -> [UInt8]? {
        var searched = 0  // bytes after `position` already known to hold no newline
        while true {
            if let newline = buffer[(position + searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > position && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = Array(buffer[position..<end])
                position = newline + 1
                guard line.count <= limit else { throw tooLong }
                return line
            }
            guard buffer.count - position <= limit + 1 else { throw tooLong }
            searched = buffer.count - position
            guard fill() else { return nil }
        }
    }

    /// Exactly `count` bytes; `nil` at the end of the stream.
    private mutating func readBytes(_ count: Int) throws(HTTPRequestError) -> [UInt8]? {
        while buffer.count - position < count {
            guard fill() else { return nil }
        }
        let bytes = Array(buffer[position..<(position + count)])
        position += count
        return bytes
    }

    private mutating func fill() -> Bool {
        guard let more = source(), !more.isEmpty else { return false }
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer += more
        return true
    }
}

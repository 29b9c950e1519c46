import ConfigFeatures
import Foundation

/// A complete HTTP response (one per connection: always `Connection: close`).
struct HTTPResponse: Sendable {
    /// The status code.
    var status: Int
    /// Extra header fields (`Content-Length` and `Connection` are added when serialized).
    var headers: [(name: String, value: String)]
    /// The body (always empty for 204 and 304).
    var body: Data

    init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response.
    static func json(_ status: Int, _ value: JSONValue, prettyPrinted: Bool = false, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: value.data(prettyPrinted: prettyPrinted))
    }

    /// The bytes on the wire.
    func serialized() -> Data {
        let bodyless = status == 204 || status == 304 || (100..<200).contains(status)
        var head = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !bodyless { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        var data = Data(head.utf8)
        if !bodyless { data.append(body) }
        return data
    }

    /// The head of a streaming response: no `Content-Length`; the body lasts until the server
    /// closes the connection.
    static func streamHead(contentType: String, headers: [(name: String, value: String)] = []) -> Data {
        var head = "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nCache-Control: no-cache\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Data(head.utf8)
    }

    /// The interim response for `Expect: 100-continue`.
    static let continueHead = Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The reason phrase of `status`.
    static func reason(for status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "Status \(status)"
        }
    }
}

import Foundation

/// An HTTP request described as plain values (no `URLRequest`), built by the protocol types of
/// the network clients and sent by their transport.
package struct WireRequest: Sendable, Hashable {
    /// An HTTP method.
    package enum Method: String, Sendable, Hashable {
        /// `GET`.
        case get = "GET"
        /// `PUT`.
        case put = "PUT"
        /// `PATCH`.
        case patch = "PATCH"
        /// `POST`.
        case post = "POST"
        /// `DELETE`.
        case delete = "DELETE"
    }

    /// The method.
    package var method: Method
    /// The full URL, query included, already percent-encoded.
    package var url: URL
    /// The header fields (names as sent; compare them case-insensitively).
    package var headers: [String: String]
    /// The body, `nil` for none.
    package var body: Data?

    /// Creates a request.
    package init(method: Method, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name`, compared case-insensitively.
    package func header(_ name: String) -> String? {
        WireHeaders.value(of: name, in: headers)
    }
}

/// An HTTP response described as plain values: what the transport received.
package struct WireResponse: Sendable, Hashable {
    /// The HTTP status code.
    package var statusCode: Int
    /// The header fields as received.
    package var headers: [String: String]
    /// The body (empty when there was none).
    package var body: Data

    /// Creates a response.
    package init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name`, compared case-insensitively (HTTP header names are).
    package func header(_ name: String) -> String? {
        WireHeaders.value(of: name, in: headers)
    }

    /// The body as text for error messages: UTF-8 (invalid bytes replaced), trimmed, at most
    /// `limit` characters; `nil` when blank.
    package func bodyExcerpt(limit: Int = 500) -> String? {
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return nil }
        return text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}

enum WireHeaders {
    /// The value of `name` in `headers`, compared case-insensitively (ASCII).
    static func value(of name: String, in headers: [String: String]) -> String? {
        if let exact = headers[name] { return exact }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }
}

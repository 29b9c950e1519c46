import Foundation

/// A parsed HTTP/1.1 request.
struct HTTPRequest: Sendable {
    /// The method, as sent (`GET`, `POST`, …).
    var method: String
    /// The request target, as sent (`/a/b.json?auth=x`).
    var target: String
    /// The percent-decoded path (`/a/b.json`).
    var path: String
    /// The percent-decoded query parameters, in order (a name may repeat).
    var queryItems: [(name: String, value: String)]
    /// The header fields: lowercased names, repeated fields joined with `", "`.
    var headers: [String: String]
    /// The body (de-chunked).
    var body: Data

    /// The last value of the query parameter `name`.
    func query(_ name: String) -> String? {
        queryItems.last { $0.name == name }?.value
    }

    /// The value of the header `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The query parameters as a dictionary (the last value wins).
    var query: [String: String] {
        var result: [String: String] = [:]
        for item in queryItems { result[item.name] = item.value }
        return result
    }
}

/// Why bytes could not be read as a request: answered with `status` and `reason`.
struct HTTPRequestError: Error, Sendable {
    /// The status to answer with (400, 413, 431, 501).
    var status: Int
    /// A short explanation for the error body.
    var reason: String

    static func malformed(_ reason: String) -> HTTPRequestError { HTTPRequestError(status: 400, reason: reason) }
}

extension HTTPRequest {
    /// Parses a request head (everything before the blank line, without it).
    ///
    /// - Throws: `HTTPRequestError` for a malformed request line or header.
    init(head: [UInt8]) throws(HTTPRequestError) {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("malformed request line") }
        let method = String(parts[0])
        let target = String(parts[1])
        let version = parts[2]
        guard !method.isEmpty, method.utf8.allSatisfy(Self.isTokenCharacter) else { throw .malformed("malformed method") }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { throw .malformed("unsupported HTTP version") }
        guard target.hasPrefix("/") else { throw .malformed("the request target must be an absolute path") }

        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("malformed header line") }
            let name = line[..<colon]
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenCharacter) else { throw .malformed("malformed header name") }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            let key = name.lowercased()
            if let existing = headers[key] {
                headers[key] = existing + ", " + value
            } else {
                headers[key] = value
            }
        }

        let rawPath: Substring
        let rawQuery: Substring?
        if let question = target.firstIndex(of: "?") {
            rawPath = target[..<question]
            rawQuery = target[target.index(after: question)...]
        } else {
            rawPath = target[...]
            rawQuery = nil
        }
        guard let path = String(rawPath).removingPercentEncoding else { throw .malformed("malformed percent-encoding in the path") }
        var queryItems: [(name: String, value: String)] = []
        for pair in (rawQuery ?? "").split(separator: "&") where !pair.isEmpty {
            let name: Substring
            let value: Substring
            if let equals = pair.firstIndex(of: "=") {
                name = pair[..<equals]
                value = pair[pair.index(after: equals)...]
            } else {
                name = pair
                value = ""
            }
            guard let decodedName = Self.decodeQueryComponent(name), let decodedValue = Self.decodeQueryComponent(value) else {
                throw .malformed("malformed percent-encoding in the query")
            }
            queryItems.append((decodedName, decodedValue))
        }
        self.init(method: method, target: target, path: path, queryItems: queryItems, headers: headers, body: Data())
    }

    /// Decodes a form-encoded query component (`+` is a space).
    private static func decodeQueryComponent(_ component: Substring) -> String? {
        component.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// Whether `byte` may appear in an HTTP token (method, header name).
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

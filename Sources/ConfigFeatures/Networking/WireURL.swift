import Foundation

/// Builds request URLs from a base URL, percent-encoded path segments and query items.
enum WireURL {
    /// `base` with `path` (already percent-encoded, starting with `/`) appended to its path and
    /// `query` appended to its query (each name and value percent-encoded).
    ///
    /// A trailing slash of the base path is dropped, so `https://h/` and `https://h` give the
    /// same URL; a query already on the base (such as the database emulator's `?ns=`) is kept
    /// before the new items.
    static func make(base: URL, encodedPath path: String, query: [(name: String, value: String)] = []) -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else {
            preconditionFailure("\(base) is not a valid base URL")
        }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        components.percentEncodedPath = basePath + path
        var items: [String] = []
        if let existing = components.percentEncodedQuery, !existing.isEmpty { items.append(existing) }
        for item in query { items.append(encode(item.name) + "=" + encode(item.value)) }
        components.percentEncodedQuery = items.isEmpty ? nil : items.joined(separator: "&")
        guard let url = components.url else {
            // Unreachable: every added character is an unreserved character or a %-escape.
            preconditionFailure("could not build a URL from \(base) and \(path)")
        }
        return url
    }

    /// `text` with every byte of its UTF-8 form percent-encoded except the RFC 3986 unreserved
    /// characters (`A-Z a-z 0-9 - . _ ~`), so it is safe in a path segment or a query value.
    static func encode(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%"
                result.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte & 0x0F)]))
            }
        }
        return result
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}

import ConfigFeatures
import Foundation

/// The unsigned JSON Web Tokens the Firebase Auth emulator issues and accepts: header
/// `{"alg":"none","typ":"JWT"}`, a base64url JSON payload, an empty signature.
enum AuthJWT {
    /// The header of every token this server issues.
    static let header: JSONValue = ["alg": "none", "typ": "JWT"]

    /// `base64url(header).base64url(payload).` (empty signature).
    static func encode(_ payload: JSONValue) -> String {
        base64URL(header.data()) + "." + base64URL(payload.data()) + "."
    }

    /// The payload of a token with three dot-separated parts whose first two are base64url
    /// JSON objects (any algorithm; the signature is not checked, as by the emulator); `nil` when
    /// it is not such a token.
    static func payload(of token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerData = data(base64URL: parts[0]), (try? JSONValue(parsing: headerData))?.objectValue != nil,
            let payloadData = data(base64URL: parts[1]), let payload = (try? JSONValue(parsing: payloadData))?.objectValue
        else { return nil }
        return payload
    }

    /// Base64url without padding.
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url (padding optional).
    static func data(base64URL text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    /// An opaque random token: `prefix` and 40 random base64url characters.
    static func randomToken(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<30).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return prefix + base64URL(Data(bytes))
    }
}

import ConfigFeatures
import Foundation

/// The Identity Toolkit and Secure Token APIs' bodies: Google's Auth error shape and the
/// account records.
enum AuthWire {
    /// A refusal: the error code (`EMAIL_EXISTS`), an optional detail written after ` : ` as
    /// Google writes it, and the HTTP status.
    struct Failure: Error {
        var code: String
        var detail: String?
        var status = 400

        init(_ code: String, _ detail: String? = nil, status: Int = 400) {
            self.code = code
            self.detail = detail
            self.status = status
        }

        /// `CODE` or `CODE : detail`.
        var message: String { detail.map { "\(code) : \($0)" } ?? code }

        /// `{"error":{"code":400,"message":"EMAIL_EXISTS","errors":[{"message":"EMAIL_EXISTS","domain":"global","reason":"invalid"}]}}`.
        var response: HTTPResponse { AuthWire.error(status, message) }
    }

    /// `WEAK_PASSWORD : Password should be at least 6 characters`.
    static let weakPassword = Failure("WEAK_PASSWORD", "Password should be at least 6 characters")

    /// Google's Auth error body.
    static func error(_ status: Int, _ message: String, reason: String = "invalid", grpcStatus: String? = nil) -> HTTPResponse {
        var error: [String: JSONValue] = [
            "code": .number(Double(status)), "message": .string(message),
            "errors": [["message": .string(message), "domain": "global", "reason": .string(reason)]],
        ]
        if let grpcStatus { error["status"] = .string(grpcStatus) }
        return .json(status, ["error": .object(error)])
    }

    /// The audience of the custom tokens firebase-admin mints.
    static let customTokenAudience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    /// Milliseconds as the Identity Toolkit writes them (a decimal string).
    static func milliseconds(_ time: TimeInterval) -> JSONValue {
        .string(String(Int64((time * 1000).rounded(.down))))
    }

    /// An account as `accounts:lookup` and `accounts:batchGet` answer it (no password hash:
    /// the password never leaves the server).
    static func record(_ user: AuthState.User) -> JSONValue {
        var members: [String: JSONValue] = [
            "localId": .string(user.uid),
            "emailVerified": .bool(user.emailVerified),
            "disabled": .bool(user.disabled),
            "createdAt": milliseconds(user.createdAt),
            "validSince": .string(String(Int64(user.validSince.rounded(.down)))),
            "providerUserInfo": .array(providerInfo(user)),
        ]
        if let email = user.email { members["email"] = .string(email) }
        if let name = user.displayName { members["displayName"] = .string(name) }
        if let photo = user.photoURL { members["photoUrl"] = .string(photo) }
        if let login = user.lastLoginAt { members["lastLoginAt"] = milliseconds(login) }
        if let updated = user.passwordUpdatedAt { members["passwordUpdatedAt"] = .number((updated * 1000).rounded(.down)) }
        if !user.customClaims.isEmpty { members["customAttributes"] = .string(JSONValue.object(user.customClaims).serialized()) }
        return .object(members)
    }

    /// `providerUserInfo`: the `password` provider's entry for a user with an email and password.
    static func providerInfo(_ user: AuthState.User) -> [JSONValue] {
        guard user.providers.contains("password"), let email = user.email else { return [] }
        var entry: [String: JSONValue] = ["providerId": "password", "email": .string(email), "federatedId": .string(email), "rawId": .string(email)]
        if let name = user.displayName { entry["displayName"] = .string(name) }
        return [.object(entry)]
    }

    /// The members of an `application/x-www-form-urlencoded` body (or of a JSON object body, which
    /// the Secure Token API also accepts); `nil` when it is neither.
    static func formOrJSON(_ body: Data) -> [String: String]? {
        if let json = try? JSONValue(parsing: body), let object = json.objectValue {
            return object.compactMapValues { $0.stringValue }
        }
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") where !pair.isEmpty {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decode(halves[0]), let value = halves.count > 1 ? decode(halves[1]) : "" else { return nil }
            result[name] = value
        }
        return result
    }
}

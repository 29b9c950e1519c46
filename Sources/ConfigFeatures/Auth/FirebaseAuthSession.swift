import Foundation

/// What ``FirebaseAuth`` keeps of a signed-in user, and what a ``FirebaseAuthStorage`` persists:
/// the user, the refresh token, and the latest ID token with its expiry.
///
/// The tokens are credentials: `description`, `debugDescription` and the mirror `dump` uses show
/// the user and the expiry only.
public struct FirebaseAuthSession: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The signed-in user.
    public var user: FirebaseUser
    /// The long-lived token that renews the ID token (Secure Token's `refresh_token`).
    public var refreshToken: String
    /// The latest ID token (a JWT), sent to Firebase services as the user's credential.
    public var idToken: String
    /// When `idToken` stops being accepted (issued plus `expiresIn`; an hour at Firebase).
    public var idTokenExpiry: Date

    /// Creates a session value.
    public init(user: FirebaseUser, refreshToken: String, idToken: String, idTokenExpiry: Date) {
        self.user = user
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.idTokenExpiry = idTokenExpiry
    }

    /// The user and the token's expiry; never the tokens.
    public var description: String { "FirebaseAuthSession(\(user), ID token expires: \(idTokenExpiry))" }

    /// The same as `description`: the tokens are never printed.
    public var debugDescription: String { description }

    /// The user and the expiry, the tokens redacted (what `dump` shows).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["user": user, "refreshToken": "<redacted>", "idToken": "<redacted>", "idTokenExpiry": idTokenExpiry],
            displayStyle: .struct)
    }

    // MARK: - The stored form

    /// The version of the stored form written by ``json``.
    static let formatVersion = 1

    /// The stored form: a JSON object with the format version, the user's fields, the tokens, and
    /// the expiry in seconds since 1970.
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "version": .number(Double(Self.formatVersion)),
            "uid": .string(user.uid),
            "isAnonymous": .bool(user.isAnonymous),
            "refreshToken": .string(refreshToken),
            "idToken": .string(idToken),
            "idTokenExpiry": .number(idTokenExpiry.timeIntervalSince1970),
        ]
        if let email = user.email { object["email"] = .string(email) }
        return .object(object)
    }

    /// Reads the stored form; the reason it is not one otherwise (naming the field, never its value).
    init(json: JSONValue) throws(FirebaseAuthStorageError) {
        guard let object = json.objectValue else { throw .corrupt("not a JSON object") }
        guard object["version"]?.numberValue == Double(Self.formatVersion) else { throw .corrupt("unknown version (expected \(Self.formatVersion))") }
        func string(_ key: String) throws(FirebaseAuthStorageError) -> String {
            guard let value = object[key]?.stringValue, !value.isEmpty else { throw .corrupt("no \(key)") }
            return value
        }
        guard let isAnonymous = object["isAnonymous"]?.boolValue else { throw .corrupt("no isAnonymous") }
        guard let expiry = object["idTokenExpiry"]?.numberValue, expiry.isFinite else { throw .corrupt("no idTokenExpiry") }
        let email: String?
        switch object["email"] {
        case nil, .null?: email = nil
        case .string(let value)?: email = value
        default: throw .corrupt("email is not a string")
        }
        self.init(
            user: FirebaseUser(uid: try string("uid"), isAnonymous: isAnonymous, email: email), refreshToken: try string("refreshToken"),
            idToken: try string("idToken"), idTokenExpiry: Date(timeIntervalSince1970: expiry))
    }
}

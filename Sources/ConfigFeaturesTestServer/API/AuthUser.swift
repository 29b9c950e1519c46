import ConfigFeatures
import Foundation

extension FirebaseTestServer {
    /// An account of the server's Firebase Authentication, as `user(uid:)` and `authUsers`
    /// list it (its password is never shown).
    public struct AuthUser: Sendable, Hashable {
        /// The uid (`localId`).
        public var uid: String
        /// The email, `nil` for an anonymous or custom-token user.
        public var email: String?
        /// The display name.
        public var displayName: String?
        /// Whether sign-ins and refreshes are refused (`USER_DISABLED`).
        public var isDisabled: Bool
        /// Whether the email is marked verified.
        public var isEmailVerified: Bool
        /// Whether the account has a password.
        public var hasPassword: Bool
        /// The custom claims every new ID token carries.
        public var customClaims: [String: JSONValue]
        /// When it was created, on the auth clock.
        public var createdAt: Date
        /// When it last signed in, on the auth clock.
        public var lastSignInAt: Date?
        /// Tokens issued before this time (auth clock) are revoked; `nil`: never revoked.
        public var tokensValidAfter: Date?
    }

    /// A user to create: what `createUser(_:)` and `--auth-users` take. The password never
    /// appears in its `description`.
    public struct NewAuthUser: Sendable, Hashable, Decodable, CustomStringConvertible {
        /// The uid; `nil` lets the server choose one.
        public var uid: String?
        /// The email (with `password`), `nil` for an anonymous user.
        public var email: String?
        /// The password (at least 6 characters), with `email`.
        public var password: String?
        /// The display name.
        public var displayName: String?
        /// Whether the account starts disabled.
        public var disabled: Bool?
        /// Whether the email is marked verified.
        public var emailVerified: Bool?
        /// Custom claims for its ID tokens.
        public var customClaims: [String: JSONValue]?

        /// A user with these fields (all optional: no field makes an anonymous user).
        public init(
            uid: String? = nil, email: String? = nil, password: String? = nil, displayName: String? = nil, disabled: Bool? = nil,
            emailVerified: Bool? = nil, customClaims: [String: JSONValue]? = nil
        ) {
            self.uid = uid
            self.email = email
            self.password = password
            self.displayName = displayName
            self.disabled = disabled
            self.emailVerified = emailVerified
            self.customClaims = customClaims
        }

        /// The fields, the password redacted.
        public var description: String {
            var parts: [String] = []
            if let uid { parts.append("uid: \(uid)") }
            if let email { parts.append("email: \(email)") }
            if password != nil { parts.append("password: <redacted>") }
            if let displayName { parts.append("displayName: \(displayName)") }
            if let disabled { parts.append("disabled: \(disabled)") }
            if let customClaims { parts.append("customClaims: \(JSONValue.object(customClaims))") }
            return "NewAuthUser(\(parts.joined(separator: ", ")))"
        }
    }
}

extension FirebaseTestServer.AuthUser {
    init(_ user: AuthState.User) {
        uid = user.uid
        email = user.email
        displayName = user.displayName
        isDisabled = user.disabled
        isEmailVerified = user.emailVerified
        hasPassword = user.password != nil
        customClaims = user.customClaims
        createdAt = Date(timeIntervalSince1970: user.createdAt)
        lastSignInAt = user.lastLoginAt.map { Date(timeIntervalSince1970: $0) }
        tokensValidAfter = user.validSince > 0 ? Date(timeIntervalSince1970: user.validSince) : nil
    }
}

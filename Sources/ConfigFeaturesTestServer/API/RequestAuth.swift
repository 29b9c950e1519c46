import ConfigFeatures

extension FirebaseTestServer {
    /// Who a database request was verified as: what Firebase's security rules call `auth`.
    public struct RequestAuth: Sendable, Hashable {
        /// The user's uid (`auth.uid`); `owner` for the emulator's admin credential.
        public var uid: String
        /// The sign-in provider (`auth.provider`): `anonymous`, `password`, `custom`, or `admin`
        /// for the admin credential.
        public var provider: String
        /// Every claim of the ID token (`auth.token`), custom claims included; empty for the admin.
        public var token: [String: JSONValue]
        /// Whether the request used the emulator's admin credential `owner` (rules don't apply).
        public var isAdmin: Bool

        /// Creates a verified identity.
        public init(uid: String, provider: String, token: [String: JSONValue], isAdmin: Bool = false) {
            self.uid = uid
            self.provider = provider
            self.token = token
            self.isAdmin = isAdmin
        }
    }
}

/// A user signed in with ``FirebaseAuth``: who they are, never their credentials.
///
/// The ID and refresh tokens stay inside ``FirebaseAuth`` (ask it for a token with
/// ``FirebaseAuth/idToken(forcingRefresh:)``), so a `FirebaseUser` can be printed, logged,
/// compared and kept in view state freely.
public struct FirebaseUser: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The user's Firebase ID (`localId` in Identity Toolkit's answers, the ID token's `user_id`).
    public var uid: String
    /// Whether the account is anonymous (``FirebaseAuth/signInAnonymously()``, or a token whose
    /// `firebase.sign_in_provider` is `anonymous`).
    public var isAnonymous: Bool
    /// The account's email address, `nil` when it has none (anonymous and most custom-token accounts).
    public var email: String?

    /// Creates a user value.
    public init(uid: String, isAnonymous: Bool, email: String? = nil) {
        self.uid = uid
        self.isAnonymous = isAnonymous
        self.email = email
    }

    /// The ID, the kind and the email, e.g. `FirebaseUser(uid: abc, anonymous)`.
    public var description: String {
        let kind = isAnonymous ? "anonymous" : "email: \(email ?? "none")"
        return "FirebaseUser(uid: \(uid), \(kind))"
    }
}

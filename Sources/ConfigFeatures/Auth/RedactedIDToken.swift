/// An ID token as it travels inside ``FirebaseAuth``'s own streams, with the sign-in it belongs
/// to.
///
/// Every printed form is `<redacted>`: the stream inspector records each element of every
/// operator as its description, so the token is carried in this wrapper and unwrapped only at
/// the last step, the element ``FirebaseAuth/idToken(forcingRefresh:)`` hands to its subscriber.
struct RedactedIDToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The token.
    let value: String
    /// The sign-in (``FirebaseAuthState``'s generation) the token belongs to.
    let generation: UInt64

    /// `RedactedIDToken(<redacted>)`.
    var description: String { "RedactedIDToken(<redacted>)" }

    /// The same as `description`.
    var debugDescription: String { description }

    /// No children: `dump` shows the description only.
    var customMirror: Mirror { Mirror(self, children: [:]) }
}

import Foundation
import Streams

/// The user a ``FirebaseRESTDatabase`` request must be made as: a `LocalFirstRealtimeDatabase`
/// pins the requests of one user's queue and cache to that user, so that they are never sent
/// with another user's token (`uid` `nil`: no one signed in, no credential).
struct RESTUserPin: Sendable, Hashable {
    let uid: String?
}

/// A credential ready to send with one request or stream connection. Its descriptions and
/// mirror never show the token (operators carrying it may be logged, e.g. by the inspector).
struct RESTCredential: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What goes on the wire: `.none`, `.idToken` or `.accessToken`.
    let auth: FirebaseRESTAuth
    /// Whether it is the ID token of a ``FirebaseAuth`` user (a 401 answer to it earns one forced
    /// refresh and one retry, unless the body is a Security Rules "Permission denied").
    let isUserToken: Bool
    /// The user it belongs to (`nil` when no one is signed in, or without a ``FirebaseAuth``).
    let uid: String?

    /// The kind of credential and its user, never the token.
    var description: String { "RESTCredential(\(auth), user: \(uid ?? "none"))" }

    /// The same as `description`.
    var debugDescription: String { description }

    /// The kind and the user only (what `dump` shows).
    var customMirror: Mirror {
        Mirror(self, children: ["auth": auth.description, "uid": uid as Any], displayStyle: .struct)
    }
}

/// A request pinned to one user (`RESTUserPin`) found another user signed in: it was not sent.
struct RESTUserChanged: Error, Sendable, CustomStringConvertible {
    var description: String { "the signed-in user changed; the request was not sent" }
}

/// The failure to get a stream connection's credential (the ``FirebaseAuth`` error, or
/// `RESTUserChanged`), told apart from the connection's own failures.
struct RESTCredentialFailure: Error {
    let underlying: Error

    /// Whether getting a credential again later may succeed: a network failure of the token
    /// refresh, or a pinned user who is not signed in right now.
    var isTransient: Bool {
        if underlying is RESTUserChanged { return true }
        if case .network? = underlying as? FirebaseAuthError { return true }
        return false
    }
}

extension FirebaseRESTDatabase.Core {
    /// The ``FirebaseAuth`` whose user signs the requests, with `.user`.
    var userAuth: FirebaseAuth? {
        if case .user(let auth) = auth { return auth }
        return nil
    }

    /// The credential for one request or connection, looked up when subscribed: the configured
    /// one, or with `.user` the signed-in user's ID token (`idToken(forcingRefresh:)`: cached
    /// while fresh, refreshed near expiry), `.none` when no one is signed in.
    ///
    /// Fails with the ``FirebaseAuthError`` of a failed refresh, or `RESTUserChanged` when `pin`
    /// names another user than the signed-in one (before asking for a token, and again once the
    /// token arrives: the current user and the token's own `user_id` claim must still be `pin`'s).
    func credential(pin: RESTUserPin?, forcingRefresh: Bool = false) -> Observable<RESTCredential> {
        Observable.deferred { [self] in
            guard case .user(let firebaseAuth) = auth else {
                return .just(RESTCredential(auth: auth, isUserToken: false, uid: nil))
            }
            let uid = firebaseAuth.currentUser?.uid
            if let pin, pin.uid != uid { return .error(RESTUserChanged()) }
            guard let uid else { return .just(RESTCredential(auth: .none, isUserToken: false, uid: nil)) }
            return firebaseAuth.redactedIDToken(forcingRefresh: forcingRefresh)
                .map { redacted in
                    let token = redacted.value
                    if pin != nil {
                        guard firebaseAuth.currentUser?.uid == uid, Self.tokenUserID(token).map({ $0 == uid }) ?? true else { throw RESTUserChanged() }
                    }
                    return RESTCredential(auth: .idToken(token), isUserToken: true, uid: uid)
                }
                .catch { error in
                    // Signed out since: an unpinned request goes without a credential, as it
                    // would have a moment later.
                    guard pin == nil, case .notSignedIn? = error as? FirebaseAuthError else { throw error }
                    return .just(RESTCredential(auth: .none, isUserToken: false, uid: nil))
                }
        }
    }

    /// The wire format sending `credential`.
    func wire(_ credential: RESTCredential) -> RealtimeDatabaseRESTWire {
        RealtimeDatabaseRESTWire(databaseURL: databaseURL, auth: credential.auth)
    }

    /// The `user_id` (else `sub`) claim of a Firebase ID token, a JWT, read as the Auth client
    /// reads it; `nil` for a token that is not one.
    static func tokenUserID(_ token: String) -> String? {
        FirebaseAuthWire.uid(in: FirebaseAuthWire.claims(ofJWT: token))
    }
}

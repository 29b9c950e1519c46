// How the demos sign in with FirebaseAuth: the two users of the local-server storyline (user1
// with email and password, user2 anonymously) against the loopback server's Auth emulator, and
// the live mode's `--email`/`--password` or `--anonymous` against a real project (an API key and
// nothing else). Only uids are printed, shortened; never a token or a password.
import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams

/// The storyline's two users, each signed in to their own `FirebaseAuth`.
struct DemoUsers: Sendable {
    /// user1: an email-and-password account.
    let user1: FirebaseAuth
    /// user2: an anonymous account.
    let user2: FirebaseAuth
}

/// A demo's wait for a sign-in or a read that did not end in time.
struct DemoWaitTimedOut: Error, CustomStringConvertible {
    let seconds: TimeInterval
    var description: String { "no answer within \(Int(seconds)) s" }
}

/// Blocks (at most `timeout` seconds) until `single` succeeds or fails.
func awaitResult<Element: Sendable>(_ single: Single<Element>, timeout: TimeInterval = 20) -> Result<Element, any Error> {
    let result = LockedState<Result<Element, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let subscription = single.subscribe(
        onSuccess: { value in
            result.withLock { $0 = .success(value) }
            done.signal()
        },
        onFailure: { error in
            result.withLock { $0 = .failure(error) }
            done.signal()
        })
    let timedOut = done.wait(timeout: .now() + timeout) == .timedOut
    subscription.dispose()
    if timedOut { return .failure(DemoWaitTimedOut(seconds: timeout)) }
    return result.withLock { $0 } ?? .failure(DemoWaitTimedOut(seconds: timeout))
}

/// A uid as the demos print it: its first 8 characters.
func shortUID(_ uid: String) -> String {
    uid.count > 8 ? String(uid.prefix(8)) + "…" : uid
}

/// What the demos print about a signed-in user: the kind of account and the shortened uid.
func describeSignedIn(_ user: FirebaseUser) -> String {
    let kind = user.isAnonymous ? "anonymous" : "email \(user.email ?? "?")"
    return "\(kind), uid \(shortUID(user.uid))"
}

extension DemoBackends {
    /// The email and password of the storyline's user1 on the loopback server.
    static let localUser1Email = "user1@example.com"
    private static let localUser1Password = "user1-demo-password"

    /// Signs the storyline's users in to the loopback server: creates user1's account on the
    /// server (`createUser(email:password:)`) and signs it in with email and password, and signs
    /// user2 in anonymously, each through its own `FirebaseAuth` against `server.endpoints`.
    ///
    /// - Precondition: `database` is `.localServer`.
    func signInLocalUsers(scheduler: SchedulerType) -> Result<(users: DemoUsers, user1: FirebaseUser, user2: FirebaseUser), any Error> {
        guard let server else { preconditionFailure("a local-server selection always has a server") }
        func client() -> FirebaseAuth {
            FirebaseAuth(apiKey: server.apiKey, endpoints: server.endpoints, scheduler: scheduler, requestTimeout: 10)
        }
        if !server.authUsers.contains(where: { $0.email == Self.localUser1Email }) {
            do {
                try server.createUser(email: Self.localUser1Email, password: Self.localUser1Password)
            } catch {
                return .failure(error)
            }
        }
        let users = DemoUsers(user1: client(), user2: client())
        return awaitResult(users.user1.signIn(email: Self.localUser1Email, password: Self.localUser1Password)).flatMap { user1 in
            awaitResult(users.user2.signInAnonymously()).map { user2 in (users, user1, user2) }
        }
    }
}

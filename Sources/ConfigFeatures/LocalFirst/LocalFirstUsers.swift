import Foundation
import Streams

/// The per-user side of a ``LocalFirstRealtimeDatabase`` whose remote is a
/// ``FirebaseRESTDatabase`` signed in through a ``FirebaseAuth`` (`FirebaseRESTAuth.user`):
/// one local-first database (cache, pending writes, files) per user, the signed-in user's
/// being current.
///
/// Each user's database talks to the server through the remote pinned to that user
/// (`FirebaseRESTDatabase.pinned(to:)`), so none of its requests carries another user's token.
/// When `authState` names another user (or none), the previous user's database goes offline
/// and keeps its pending writes (on disk with `.file`, in `users/<user>/`), and the new user's
/// database (opened from its own folder, or kept from earlier in this process) becomes current:
/// observers move to it, `goOffline()`/`goOnline()` and `keepSynced(_:_:)` carry over.
final class LocalFirstUsers: @unchecked Sendable {
    // Safety: the mutable state is in `state`, guarded by its lock (never held while calling
    // the databases, which may call out); `current` is thread-safe; the rest is immutable.
    // `make` only creates a database from immutable configuration (its scheduler is thread-safe
    // by contract), so calling it from the thread that changed the user is safe.
    private struct State {
        var uid: String?
        var databases: [String?: LocalFirstRealtimeDatabase] = [:]
        /// Counts user changes, so that a database opened for a user who is no longer signed
        /// in is kept but not made current.
        var change: UInt64 = 0
        var isOffline = false
        /// `keepSynced(_:_:)` calls, by path, replayed on each user's database when it becomes current.
        var keptSynced: [String: Bool] = [:]
    }

    /// Opens the database of a user (`uid`), offline when the flag says so.
    private let make: (_ uid: String?, _ offline: Bool) -> LocalFirstRealtimeDatabase
    private let state: LockedState<State>
    private let userChanges = SingleAssignmentDisposable()
    /// The signed-in user's database.
    let current: BehaviorRelay<LocalFirstRealtimeDatabase>

    /// Opens the database of the signed-in user of `auth` with `make`, then follows `authState`.
    init(auth: FirebaseAuth, make: @escaping (_ uid: String?, _ offline: Bool) -> LocalFirstRealtimeDatabase) {
        self.make = make
        let uid = auth.currentUser?.uid
        let first = make(uid, false)
        var initial = State(uid: uid)
        initial.databases[uid] = first
        state = LockedState(initial)
        current = BehaviorRelay(value: first)
        // Weak: the client keeps the subscription until `deinit` disposes it.
        userChanges.setDisposable(auth.authState.subscribe(onNext: { [weak self] user in self?.userChanged(to: user?.uid) }))
    }

    deinit {
        userChanges.dispose()
    }

    /// The folder of `uid`'s files under `directory`: `users/user-<uid percent-encoded>`, or
    /// `users/signed-out` when no one is signed in.
    static func directory(for uid: String?, in directory: URL) -> URL {
        let users = directory.appendingPathComponent("users", isDirectory: true)
        guard let uid else { return users.appendingPathComponent("signed-out", isDirectory: true) }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        let name = uid.addingPercentEncoding(withAllowedCharacters: allowed) ?? uid
        return users.appendingPathComponent("user-\(name)", isDirectory: true)
    }

    /// `authState` emitted: another user (or none) takes over. The previous user's database
    /// goes offline (its pending writes stay queued for that user), then the new user's becomes
    /// current with the app's `goOffline()` and `keepSynced(_:_:)` settings.
    private func userChanged(to uid: String?) {
        let change = state.withLock { state -> (number: UInt64, existing: LocalFirstRealtimeDatabase?, isOffline: Bool)? in
            guard state.uid != uid else { return nil }
            state.uid = uid
            state.change += 1
            return (state.change, state.databases[uid], state.isOffline)
        }
        guard let change else { return }
        current.value.goOffline()
        // A new database starts offline if the app is: its restored writes wait for goOnline().
        let database = change.existing ?? make(uid, change.isOffline)
        let settings = state.withLock { state -> (isOffline: Bool, keptSynced: [String: Bool])? in
            if state.databases[uid] == nil { state.databases[uid] = database }
            guard state.change == change.number else { return nil }
            return (state.isOffline, state.keptSynced)
        }
        guard let settings else {
            // Another user signed in meanwhile: this one's database waits, offline.
            database.goOffline()
            return
        }
        for (path, enabled) in settings.keptSynced.sorted(by: { $0.key < $1.key }) { database.keepSynced(path, enabled) }
        if settings.isOffline { database.goOffline() } else { database.goOnline() }
        current.accept(database)
    }

    /// Observes `body` of the current user's database, moving to the next user's on a change.
    func observe<Element>(_ body: @escaping (LocalFirstRealtimeDatabase) -> Observable<Element>) -> Observable<Element> {
        current.asObservable().flatMapLatest(body)
    }

    /// `body` of the user's database current when subscribed.
    func whenSubscribed<Element>(_ body: @escaping (LocalFirstRealtimeDatabase) -> Observable<Element>) -> Observable<Element> {
        Observable.deferred { [current] in body(current.value) }
    }

    func goOffline() {
        state.withLock { $0.isOffline = true }
        current.value.goOffline()
    }

    func goOnline() {
        state.withLock { $0.isOffline = false }
        current.value.goOnline()
    }

    func keepSynced(_ path: String, _ enabled: Bool) {
        state.withLock { $0.keptSynced[path] = enabled }
        current.value.keepSynced(path, enabled)
    }
}

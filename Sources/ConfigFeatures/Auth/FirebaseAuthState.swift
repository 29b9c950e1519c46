import Foundation

/// ``FirebaseAuth``'s mutable state, kept in its `LockedState`: the session, the refresh in
/// flight, the ``FirebaseAuth/authState`` observers, and the queue of work to do outside the
/// lock (storage writes and emissions, in the order of the changes that caused them).
///
/// Every method only decides; the caller acts after leaving the lock.
struct FirebaseAuthState {
    /// A token refresh in flight, which callers join, for the sign-in `generation` it began in.
    struct Refresh {
        /// The sign-in the refresh belongs to.
        let generation: UInt64
        /// Where its result goes.
        let subject: AsyncSubject<RedactedIDToken>
    }

    /// The result of a refresh that finished after another user signed in (its callers retry).
    struct StaleRefresh: Error {}

    /// What ``FirebaseAuth/idToken(forcingRefresh:)`` does.
    enum TokenPlan {
        /// Fail: nobody is signed in.
        case signedOut
        /// Return the cached token.
        case ready(RedactedIDToken)
        /// Wait for the refresh in flight.
        case join(Refresh)
        /// Send a refresh for `session`, then wait for it.
        case start(Refresh, session: FirebaseAuthSession)
    }

    /// Work to do outside the lock.
    enum Work {
        /// Save the session (`nil`: remove it).
        case save(FirebaseAuthSession?)
        /// Deliver `user` to these observers.
        case emit([AnyObserver<FirebaseUser?>], FirebaseUser?)
    }

    private enum QueuedWork {
        case save(FirebaseAuthSession?)
        case emit(observerIDs: [UInt64], user: FirebaseUser?)
    }

    /// The signed-in session, `nil` when signed out.
    var session: FirebaseAuthSession?
    /// Counts sign-ins and sign-outs, so a late answer can tell it belongs to an earlier session.
    private(set) var generation: UInt64 = 0
    /// The refresh in flight.
    private var refresh: Refresh?
    /// The latest storage failure (see ``FirebaseAuth/storageError``).
    var storageError: FirebaseAuthStorageError?
    /// The ``FirebaseAuth/authState`` subscribers.
    var observers: [UInt64: AnyObserver<FirebaseUser?>] = [:]
    private var nextObserverID: UInt64 = 0
    private var queue: [QueuedWork] = []
    private var draining = false

    // MARK: - Changes

    /// Adds an ``FirebaseAuth/authState`` subscriber and queues its replay of the current user.
    mutating func subscribe(_ observer: AnyObserver<FirebaseUser?>) -> UInt64 {
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = observer
        queue.append(.emit(observerIDs: [id], user: session?.user))
        return id
    }

    /// Makes `session` the signed-in one (a sign-in).
    mutating func begin(_ session: FirebaseAuthSession) {
        self.session = session
        generation += 1
        refresh = nil
        queue.append(.save(session))
        queue.append(.emit(observerIDs: Array(observers.keys), user: session.user))
    }

    /// Signs out, if signed in.
    mutating func end() {
        guard session != nil else { return }
        session = nil
        generation += 1
        refresh = nil
        queue.append(.save(nil))
        queue.append(.emit(observerIDs: Array(observers.keys), user: nil))
    }

    // MARK: - Tokens

    /// What a call for an ID token does at `now`.
    mutating func planToken(forcingRefresh: Bool, now: Date, margin: TimeInterval) -> TokenPlan {
        guard let session else { return .signedOut }
        if let refresh { return .join(refresh) }
        if !forcingRefresh && session.idTokenExpiry.timeIntervalSince(now) > margin {
            return .ready(RedactedIDToken(value: session.idToken, generation: generation))
        }
        let started = Refresh(generation: generation, subject: AsyncSubject())
        refresh = started
        return .start(started, session: session)
    }

    /// Applies the outcome of `finished`: keeps the renewed session, or signs out when the server
    /// says the session is over. Returns what the refresh's callers get.
    mutating func finishRefresh(_ finished: Refresh, with result: Result<FirebaseAuthSession, FirebaseAuthError>) -> Result<RedactedIDToken, Error> {
        if refresh?.subject === finished.subject { refresh = nil }
        guard finished.generation == generation, session != nil else {
            return .failure(session == nil ? FirebaseAuthError.notSignedIn : StaleRefresh())
        }
        switch result {
        case .success(let renewed):
            session = renewed
            queue.append(.save(renewed))
            return .success(RedactedIDToken(value: renewed.idToken, generation: generation))
        case .failure(let error):
            switch error {
            case .sessionExpired, .userNotFound, .userDisabled: end()
            default: break
            }
            return .failure(error)
        }
    }

    // MARK: - Work outside the lock

    /// Claims the queue for the calling thread; `false` if another thread is draining it.
    mutating func startDraining() -> Bool {
        if draining { return false }
        draining = true
        return true
    }

    /// The next piece of work for the draining thread; `nil` (and the claim released) when done.
    mutating func nextWork() -> Work? {
        guard !queue.isEmpty else {
            draining = false
            return nil
        }
        switch queue.removeFirst() {
        case .save(let session):
            return .save(session)
        case .emit(let ids, let user):
            return .emit(ids.sorted().compactMap { observers[$0] }, user)
        }
    }
}

import Streams

/// The comments of every group a user belongs to, as one stream that follows the membership
/// (seed 004's `GroupsCommentsListener`, rebuilt).
///
/// The database holds the comments of each group under `groupsPath` (`Groups/<groupID>`, an
/// array of strings) and each user's group IDs under `Users/<uid>`:
///
///     let listener = GroupCommentsListener(database: database)
///     listener.listen(listener.membership(ofUser: "user1"))
///         .subscribe(onNext: { print($0) })   // ["group0": [...], "group1": [...]]
///
/// Unlike the seed, a membership change keeps the observations of the groups that stay,
/// observes only the groups that joined, disposes those that left and removes them from the
/// dictionary; duplicate IDs are ignored; and values that are not comments are reported on
/// `diagnostics` instead of crashing. See <doc:Features-GroupComments>.
public final class GroupCommentsListener: Sendable {
    /// The database holding the groups and users.
    public let database: RealtimeDatabase
    /// The path under which each group's comments are stored (`"Groups"` by default).
    public let groupsPath: String

    private let hub = DiagnosticsHub()

    /// Creates a listener reading groups at `<groupsPath>/<groupID>` in `database`.
    ///
    /// - Parameters:
    ///   - database: Where the groups (and users, for `membership(ofUser:usersPath:)`) are stored.
    ///   - groupsPath: The parent of the groups; `"Groups"` as in the seed.
    public init(database: RealtimeDatabase, groupsPath: String = "Groups") {
        self.database = database
        self.groupsPath = groupsPath
    }

    /// Every problem met by this listener's `listen(_:)` and `membership(ofUser:usersPath:)`
    /// streams, as it happens (a hot sequence that never terminates).
    ///
    /// A diagnostic is reported just before the snapshot (or membership) that reflects it.
    /// Subscribe before subscribing the streams to see every diagnostic.
    ///
    /// - Note: Delivered on the thread of the event that caused it (the database's scheduler,
    ///   or the membership stream's thread for invalid group IDs), one at a time.
    public var diagnostics: Observable<GroupCommentsDiagnostic> {
        hub.diagnostics
    }

    /// Emits the comments of every group in the latest membership list, keyed by group ID.
    ///
    ///     (TestScheduler; the seed's database; membership is a hot observable)
    ///     membership:  210: [g0,g1]       300: [g0,g1,g2]       400: [g1,g2]   500: write g1/3
    ///     output:      211: {g0,g1}       301: {g0,g1,g2}       400: {g1,g2}   501: {g1',g2}
    ///     observed:    g0 210-400 · g1 210-disposal (never re-attached) · g2 300-disposal
    ///
    /// - The first snapshot comes once every group of the first membership list has delivered
    ///   its first value; an empty list emits `[:]` at once.
    /// - Every snapshot has exactly the groups of the latest list as keys. When groups join, the
    ///   next snapshot waits for their first values (it also drops the groups that left);
    ///   when groups only leave, the snapshot without them is emitted at once.
    /// - A group that stays keeps its observation (it is never observed twice); only groups that
    ///   join are observed, and those that leave are disposed. Duplicate IDs count once.
    /// - A snapshot is emitted only when it differs from the previous one.
    /// - Comments keep the stored order; a group stored as an object of comments (keyed by push
    ///   ID) is read in key order. A comment is a string or an object with a string `text`. A
    ///   group that is absent, malformed, has an invalid ID or fails is shown as `[]` and
    ///   reported on `diagnostics`; the stream goes on.
    /// - A group the database refuses to read (`permissionDenied`: the security rules deny it,
    ///   or the server cancels its listen when the user is removed from it) leaves the
    ///   snapshots quietly, reported as `groupAccessDenied`; the other groups keep flowing and
    ///   the stream does not fail. A later membership list that still names it observes it again.
    /// - Termination: never completes while it has a membership, even after `belongGroupIDs`
    ///   completes (it keeps following the current groups until disposed); completes if
    ///   `belongGroupIDs` completes without any element; fails with `belongGroupIDs`' error.
    /// - Disposing removes every database observation (`activeObserverCount` drops at once).
    ///
    /// - Parameter belongGroupIDs: The IDs of the groups the user belongs to (for example
    ///   `membership(ofUser:usersPath:)`).
    /// - Returns: A cold sequence: each subscription observes the groups on its own; use
    ///   `share(replay: 1)` to share one set of observations.
    /// - Note: Delivers on the database's scheduler when a group's value causes the snapshot,
    ///   and on `belongGroupIDs`' thread when a membership change alone does (groups that leave,
    ///   an empty list); never concurrently. Use `observe(on:)` to pick one scheduler. See
    ///   <doc:Features-GroupComments>.
    public func listen(_ belongGroupIDs: Observable<[String]>) -> Observable<[String: [String]]> {
        let database = database, groupsPath = groupsPath, hub = hub
        return Observable.create { observer in
            let pipeline = GroupCommentsPipeline(database: database, groupsPath: groupsPath, report: hub.report, mode: .snapshots(observer))
            return pipeline.run(belongGroupIDs)
        }
    }

    /// The chat-scale mode: emits the last `window.limit` comments of every group in the latest
    /// membership list, keyed by group ID, read with a query instead of the whole group.
    ///
    ///     let listener = GroupCommentsListener(database: database)
    ///     listener.listen(listener.membership(ofUser: "user1"), window: GroupCommentsWindow(last: 50))
    ///     // ["group0": [the 50 newest comments, oldest first], …]
    ///
    /// Each group is observed with `observeChildren(of:)` of
    /// `query(at: "<groupsPath>/<id>").ordered(…).limited(toLast: limit)`, so a new comment costs
    /// the window, not the group's history: ``InMemoryRealtimeDatabase`` updates the window from
    /// the written path (O(log n + limit) for a history of n), and ``FirebaseRESTDatabase`` has
    /// the server send only the window. A comment is a string child or an object child with a
    /// string `text` (`{"text": …, "time": …}`); other children are left out and reported on
    /// `diagnostics` (`malformedComments`).
    ///
    /// Membership, first snapshots, termination and disposal behave as in `listen(_:)`; a
    /// snapshot is emitted once per write that changes a window (a comment pushing the oldest
    /// out of it is one snapshot).
    ///
    /// - Parameters:
    ///   - belongGroupIDs: The IDs of the groups the user belongs to.
    ///   - window: Which comments of each group to follow.
    /// - Returns: A cold sequence of snapshots; it fails at once with
    ///   `RealtimeDatabaseError.invalidQuery` when `window` is invalid (a limit below 1, an
    ///   invalid child path).
    /// - Note: Delivers as `listen(_:)` does. See <doc:Features-GroupComments>.
    public func listen(_ belongGroupIDs: Observable<[String]>, window: GroupCommentsWindow) -> Observable<[String: [String]]> {
        let database = database, groupsPath = groupsPath, hub = hub
        if let error = validate(window) { return Observable.error(error) }
        return Observable.create { observer in
            let pipeline = GroupCommentsPipeline(database: database, groupsPath: groupsPath, report: hub.report, mode: .windowSnapshots(window, observer))
            return pipeline.run(belongGroupIDs)
        }
    }

    /// The chat-scale mode as changes, for UIs that update rows: `joined` with a group's first
    /// window, then `inserted` / `removed` / `updated` / `moved` per comment, and `left` when
    /// the group leaves the membership.
    ///
    ///     (a group of 10,000 comments, window of 50; a new comment is written)
    ///     output:  joined group0: 50 comments · removed group0[0]: … · inserted group0[49]: …
    ///
    /// Applying the changes in order (`GroupCommentsChange.apply(to:)`) gives, after each
    /// write, the snapshot `listen(_:window:)` emits. Changes come as soon as a group delivers:
    /// there is no waiting for the other groups, and no snapshot is built.
    ///
    /// - Returns: A cold sequence of changes; fails at once with
    ///   `RealtimeDatabaseError.invalidQuery` for an invalid `window`; terminates as
    ///   `listen(_:)`.
    /// - Note: Delivers as `listen(_:)` does. See <doc:Features-GroupComments>.
    public func listenChanges(_ belongGroupIDs: Observable<[String]>, window: GroupCommentsWindow) -> Observable<GroupCommentsChange> {
        let database = database, groupsPath = groupsPath, hub = hub
        if let error = validate(window) { return Observable.error(error) }
        return Observable.create { observer in
            let pipeline = GroupCommentsPipeline(database: database, groupsPath: groupsPath, report: hub.report, mode: .windowChanges(window, observer))
            return pipeline.run(belongGroupIDs)
        }
    }

    /// Posts `text` as a new comment of `groupID`: stores it as a string under a new push ID
    /// child of `<groupsPath>/<groupID>`, the layout the seed's readers and Firebase's
    /// `childByAutoId().setValue(text)` share, so every mode of `listen` shows it last.
    ///
    ///     (TestScheduler; the poster's LocalFirstRealtimeDatabase; another client on the server)
    ///     poster:     goOffline @250   post "hi" @300   goOnline @400
    ///     its list:                    301: […, hi]
    ///     the other:                                    451: […, hi]     (uplink of 50 ticks)
    ///     the post:                                     452: completed
    ///
    /// On a ``LocalFirstRealtimeDatabase`` the comment shows in this client's lists on the
    /// scheduler's next tick, offline too; it is queued until the server is reachable, sent in
    /// order with the other writes, and reaches the other clients when the server stores it.
    /// A comment the server rejects disappears from this client's lists and the post fails with
    /// the server's error.
    ///
    /// - Parameters:
    ///   - text: The comment.
    ///   - groupID: The group; one valid key (as in the membership).
    /// - Returns: A cold sequence that writes on subscription and completes when the database
    ///   acknowledges the write (on a local-first database, when the server does). The push ID
    ///   is drawn when `post` is called, so subscribing again (`retry()`) rewrites the same
    ///   comment instead of posting it twice. Fails at once with
    ///   `RealtimeDatabaseError.invalidPath` for an invalid `groupID` (nothing is written), or
    ///   with the database's error (e.g. `RealtimeDatabaseError.permissionDenied`).
    /// - Note: Delivers on the database's scheduler. See <doc:Features-GroupComments#Posting-and-offline>.
    public func post(_ text: String, to groupID: String) -> Completable {
        post(.string(text), to: groupID)
    }

    /// Pushes `comment` under `<groupsPath>/<groupID>` (`post(_:to:)` and `post(_:to:as:)`).
    func post(_ comment: JSONValue, to groupID: String) -> Completable {
        let path = GroupCommentsDecoding.path(ofGroup: groupID, below: groupsPath)
        if let problem = GroupCommentsDecoding.problem(withGroupID: groupID) {
            return Completable.error(RealtimeDatabaseError.invalidPath(path, reason: "invalid group ID: \(problem)"))
        }
        return database.push(comment, at: path).ignoreElements().asCompletable()
    }

    /// Why `window` cannot be queried, or `nil`.
    private func validate(_ window: GroupCommentsWindow) -> RealtimeDatabaseError? {
        let sample = window.query(at: GroupCommentsDecoding.path(ofGroup: "group", below: groupsPath), in: database)
        do {
            try sample.validate()
            return nil
        } catch {
            return error
        }
    }

    /// `listen(membership(ofUser: uid, usersPath: usersPath))`: the comments of every group the
    /// user belongs to.
    ///
    /// - Note: Delivers on the database's scheduler. See <doc:Features-GroupComments>.
    public func listen(user uid: String, usersPath: String = "Users") -> Observable<[String: [String]]> {
        listen(membership(ofUser: uid, usersPath: usersPath))
    }

    /// `listen(membership(ofUser: uid, usersPath: usersPath), window: window)`: the chat-scale
    /// mode for the user's groups.
    ///
    /// - Note: Delivers on the database's scheduler. See <doc:Features-GroupComments>.
    public func listen(user uid: String, usersPath: String = "Users", window: GroupCommentsWindow) -> Observable<[String: [String]]> {
        listen(membership(ofUser: uid, usersPath: usersPath), window: window)
    }

    /// The group IDs of the user `uid`, read from `<usersPath>/<uid>`: the current list, then
    /// every change.
    ///
    ///     Users/user1:  ["group0","group1"]---["group0","group1","group2"]---{"a":1}---(absent)
    ///     output:       [group0,group1]-------[group0,group1,group2]---------[]--------[]
    ///     diagnostics:                                                      malformed  userNotFound
    ///
    /// Accepts an array of strings, an object whose values are strings (IDs added with `push`,
    /// in key order) or an object whose values are `true` (`{"group0": true}`, the keys in
    /// order). Any other value, or no value, gives `[]` and a diagnostic; an invalid path gives
    /// `[]`, a `membershipObservationFailed` diagnostic, and completion. Never fails.
    ///
    /// - Note: Delivers on the database's scheduler. See <doc:Features-GroupComments>.
    public func membership(ofUser uid: String, usersPath: String = "Users") -> Observable<[String]> {
        let hub = hub
        return database.observeValue(at: GroupCommentsDecoding.path(ofGroup: uid, below: usersPath))
            .map { value -> [String] in
                let (groupIDs, diagnostic) = GroupCommentsDecoding.groupIDs(ofUser: uid, in: value)
                if let diagnostic { hub.report(diagnostic) }
                return groupIDs
            }
            .catch { error in
                let reason = String(describing: error)
                hub.report(.membershipObservationFailed(userID: uid, reason: reason))
                return Observable.just([])
            }
    }
}

/// Sends the diagnostics of every stream of one listener to its `diagnostics` subject, one at a
/// time (the streams may report from several threads).
final class DiagnosticsHub: Sendable {
    private let subject = PublishSubject<GroupCommentsDiagnostic>()
    private let serialized = SerializedState<Void, GroupCommentsDiagnostic>(())

    var diagnostics: Observable<GroupCommentsDiagnostic> { subject.asObservable() }

    func report(_ diagnostic: GroupCommentsDiagnostic) {
        serialized.update({ _, outbox in outbox.send(diagnostic) }, deliver: subject.onNext)
    }
}

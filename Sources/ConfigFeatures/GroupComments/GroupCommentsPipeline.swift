import Streams

/// The state machine behind one subscription of `GroupCommentsListener.listen(_:)`,
/// `listen(_:window:)` or `listenChanges(_:window:)`.
///
/// It keeps one database observation per member group, keyed by group ID: the group's whole
/// value, or (with a window) the children of its window query. A membership change
/// is diffed against the groups it has: groups that stay keep their observation and their
/// latest comments, new groups are observed, groups that left are disposed and dropped.
///
/// Threading: membership events, group events and `dispose()` may arrive on any threads (and
/// reentrantly, from inside the observer). Every state change happens in
/// `SerializedState.update`, which also queues the outputs it causes; outputs are delivered
/// one at a time, in that order, outside the lock. Observations are subscribed and disposed
/// after `update` returns, never under the lock; `SingleAssignmentDisposable` covers the
/// window between deciding and subscribing (a group dropped before its subscription is
/// assigned is disposed on arrival).
final class GroupCommentsPipeline: @unchecked Sendable {
    // Safety: all mutable state lives in `serialized` and is only changed inside `update`.
    // `observer` and `report` are only called from the draining thread of `serialized`, one
    // output at a time, outside its lock. The other properties are immutable references to
    // thread-safe objects.

    /// One member group.
    private struct Group {
        /// Identifies this attachment, so that events from an observation of the same group
        /// that was already dropped (left and rejoined) are ignored.
        let token: UInt64
        /// The observation; `nil` when the group is not observed (invalid ID, failed, completed).
        var subscription: SingleAssignmentDisposable?
        /// The latest comments; `nil` until the observation delivers its first value.
        var comments: [String]?
        /// With a window: the comments with their keys, to work out the changes of the next one.
        var window: [GroupComment]?
        /// With a window ordered by a child: each comment's order value, to tell moves.
        var orderValues: [String: JSONValue] = [:]
        /// The database refused reading the group: it is left out of the snapshots.
        var isDenied = false
    }

    /// What a subscription reads per group and what it emits.
    enum Mode {
        /// Each group's whole value; snapshots.
        case snapshots(AnyObserver<[String: [String]]>)
        /// Each group's window; snapshots.
        case windowSnapshots(GroupCommentsWindow, AnyObserver<[String: [String]]>)
        /// Each group's window; changes.
        case windowChanges(GroupCommentsWindow, AnyObserver<GroupCommentsChange>)

        var window: GroupCommentsWindow? {
            switch self {
            case .snapshots: return nil
            case .windowSnapshots(let window, _), .windowChanges(let window, _): return window
            }
        }

        var emitsChanges: Bool {
            if case .windowChanges = self { return true } else { return false }
        }
    }

    private struct State {
        var groups: [String: Group] = [:]
        var nextToken: UInt64 = 0
        var hasMembership = false
        var lastEmitted: [String: [String]]?
        var isStopped = false
        /// The subscription emits changes, not snapshots.
        var emitsChanges = false
    }

    private enum Output {
        case snapshot([String: [String]])
        case change(GroupCommentsChange)
        case diagnostic(GroupCommentsDiagnostic)
        case error(Swift.Error)
        case completed
    }

    /// What a membership change asks to do once the lock is released.
    private struct Plan {
        var detach: [Disposable] = []
        var attach: [(groupID: String, token: UInt64, subscription: SingleAssignmentDisposable)] = []
    }

    private let database: RealtimeDatabase
    private let groupsPath: String
    private let report: (GroupCommentsDiagnostic) -> Void
    private let mode: Mode
    private let serialized: SerializedState<State, Output>
    private let membershipSubscription = SingleAssignmentDisposable()

    init(database: RealtimeDatabase, groupsPath: String, report: @escaping (GroupCommentsDiagnostic) -> Void, mode: Mode) {
        self.database = database
        self.groupsPath = groupsPath
        self.report = report
        self.mode = mode
        var state = State()
        state.emitsChanges = mode.emitsChanges
        serialized = SerializedState(state)
    }

    /// Subscribes to `membership`; the returned disposable tears everything down.
    func run(_ membership: Observable<[String]>) -> Disposable {
        membershipSubscription.setDisposable(membership.subscribe { [self] event in on(membership: event) })
        return Disposables.create { [self] in dispose() }
    }

    // MARK: - Events

    private func on(membership event: Event<[String]>) {
        switch event {
        case .next(let groupIDs):
            let mode = mode
            let plan = update { state, outbox in Self.apply(groupIDs, to: &state, mode: mode, outbox: &outbox) }
            plan.detach.forEach { $0.dispose() }
            for (groupID, token, subscription) in plan.attach {
                let path = GroupCommentsDecoding.path(ofGroup: groupID, below: groupsPath)
                if let window = mode.window {
                    let query = window.query(at: path, in: database)
                    subscription.setDisposable(
                        database.observeChildren(of: query).subscribe { [self] event in
                            on(group: groupID, token: token, window: event)
                        })
                } else {
                    subscription.setDisposable(
                        database.observeValue(at: path).subscribe { [self] event in
                            on(group: groupID, token: token, event)
                        })
                }
            }
        case .error(let error):
            // The caller's membership stream failed: fail the output (which disposes everything).
            update { state, outbox in
                guard !state.isStopped else { return }
                state.isStopped = true
                outbox.send(.error(error))
            }
        case .completed:
            // Known groups keep being observed; with no membership ever, nothing will come.
            update { state, outbox in
                guard !state.isStopped, !state.hasMembership else { return }
                state.isStopped = true
                outbox.send(.completed)
            }
        }
    }

    private func on(group groupID: String, token: UInt64, _ event: Event<JSONValue>) {
        switch event {
        case .next(let value):
            let (comments, diagnostic) = GroupCommentsDecoding.comments(ofGroup: groupID, in: value)
            onGroup(groupID, token: token, .next(comments.map { GroupComment(key: "", text: $0) }), diagnostics: diagnostic.map { [$0] } ?? [])
        case .error(let error): onGroup(groupID, token: token, .error(error))
        case .completed: onGroup(groupID, token: token, .completed)
        }
    }

    private func on(group groupID: String, token: UInt64, window event: Event<[RealtimeDatabaseChild]>) {
        switch event {
        case .next(let children):
            let (comments, diagnostics) = GroupCommentsDecoding.comments(ofGroup: groupID, inWindow: children)
            var orderValues: [String: JSONValue] = [:]
            if mode.emitsChanges, case .child(let child)? = mode.window?.order {
                let path = child.split(separator: "/").map(String.init)
                for child in children { orderValues[child.key] = RealtimeDatabaseTree.value(at: path[...], in: child.value) }
            }
            onGroup(groupID, token: token, .next(comments), diagnostics: diagnostics, orderValues: orderValues)
        case .error(let error): onGroup(groupID, token: token, .error(error))
        case .completed: onGroup(groupID, token: token, .completed)
        }
    }

    /// A group's new comments (reporting `diagnostics` first), failure or completion.
    private func onGroup(
        _ groupID: String, token: UInt64, _ event: Event<[GroupComment]>, diagnostics: [GroupCommentsDiagnostic] = [], orderValues: [String: JSONValue] = [:]
    ) {
        let emitsChanges = mode.emitsChanges
        switch event {
        case .next(let comments):
            update { state, outbox in
                guard !state.isStopped, state.groups[groupID]?.token == token else { return }
                for diagnostic in diagnostics { outbox.send(.diagnostic(diagnostic)) }
                Self.setComments(comments, of: groupID, in: &state, emitsChanges: emitsChanges, orderValues: orderValues, outbox: &outbox)
                Self.emitIfReady(&state, outbox: &outbox)
            }
        case .error(let error) where Self.isPermissionDenied(error):
            // The rules refuse the group (or stopped allowing it: a cancelled listen). It leaves
            // the output quietly; the others keep flowing.
            update { state, outbox in
                guard !state.isStopped, var group = state.groups[groupID], group.token == token else { return }
                group.subscription = nil
                group.comments = nil
                group.isDenied = true
                outbox.send(.diagnostic(.groupAccessDenied(groupID: groupID)))
                if emitsChanges, group.window != nil { outbox.send(.change(.left(groupID: groupID))) }
                group.window = nil
                group.orderValues = [:]
                state.groups[groupID] = group
                Self.emitIfReady(&state, outbox: &outbox)
            }
        case .error(let error):
            let reason = String(describing: error)
            update { state, outbox in
                guard !state.isStopped, state.groups[groupID]?.token == token else { return }
                state.groups[groupID]?.subscription = nil
                outbox.send(.diagnostic(.groupObservationFailed(groupID: groupID, reason: reason)))
                Self.setComments([], of: groupID, in: &state, emitsChanges: emitsChanges, outbox: &outbox)
                Self.emitIfReady(&state, outbox: &outbox)
            }
        case .completed:
            // Database observations never complete; a backend that does keeps the last comments.
            update { state, outbox in
                guard !state.isStopped, state.groups[groupID]?.token == token else { return }
                state.groups[groupID]?.subscription = nil
                if state.groups[groupID]?.comments == nil {
                    Self.setComments([], of: groupID, in: &state, emitsChanges: emitsChanges, outbox: &outbox)
                }
                Self.emitIfReady(&state, outbox: &outbox)
            }
        }
    }

    /// Whether `error` is the database refusing a read (`permissionDenied`, from any backend).
    static func isPermissionDenied(_ error: Error) -> Bool {
        if case .permissionDenied? = error as? RealtimeDatabaseError { return true }
        if case .permissionDenied? = error as? FirebaseRESTDatabaseError { return true }
        return false
    }

    private func dispose() {
        let subscriptions = update { state, outbox -> [Disposable] in
            state.isStopped = true
            outbox.discardPending()
            let subscriptions = state.groups.values.compactMap(\.subscription)
            state.groups = [:]
            return subscriptions
        }
        membershipSubscription.dispose()
        subscriptions.forEach { $0.dispose() }
    }

    // MARK: - State transitions (under the lock; no calls out)

    private static func apply(_ groupIDs: [String], to state: inout State, mode: Mode, outbox: inout SerializedOutbox<Output>) -> Plan {
        var plan = Plan()
        guard !state.isStopped else { return plan }
        state.hasMembership = true
        let wanted = Set(groupIDs)
        for (groupID, group) in state.groups where !wanted.contains(groupID) {
            state.groups[groupID] = nil
            if let subscription = group.subscription { plan.detach.append(subscription) }
            if mode.emitsChanges, group.window != nil { outbox.send(.change(.left(groupID: groupID))) }
        }
        for groupID in wanted where state.groups[groupID]?.isDenied == true {
            state.groups[groupID] = nil  // observed again below: the rules may allow it now
        }
        for groupID in groupIDs where state.groups[groupID] == nil {  // also skips duplicates
            let token = state.nextToken
            state.nextToken += 1
            if let problem = GroupCommentsDecoding.problem(withGroupID: groupID) {
                state.groups[groupID] = Group(token: token, subscription: nil, comments: nil)
                outbox.send(.diagnostic(.invalidGroupID(groupID, reason: problem)))
                setComments([], of: groupID, in: &state, emitsChanges: mode.emitsChanges, outbox: &outbox)
            } else {
                let subscription = SingleAssignmentDisposable()
                state.groups[groupID] = Group(token: token, subscription: subscription, comments: nil)
                plan.attach.append((groupID, token, subscription))
            }
        }
        emitIfReady(&state, outbox: &outbox)
        return plan
    }

    /// Stores a group's new comments; when emitting changes, queues the ones from its last
    /// comments (or `joined` for its first).
    private static func setComments(
        _ comments: [GroupComment], of groupID: String, in state: inout State, emitsChanges: Bool, orderValues: [String: JSONValue] = [:],
        outbox: inout SerializedOutbox<Output>
    ) {
        guard var group = state.groups[groupID] else { return }
        group.comments = comments.map(\.text)
        if emitsChanges {
            if let old = group.window {
                let reordered = Set(
                    orderValues.compactMap { key, value in
                        group.orderValues[key].flatMap { $0 != value ? key : nil }
                    })
                for change in GroupCommentsChange.changes(in: groupID, from: old, to: comments, reordered: reordered) { outbox.send(.change(change)) }
            } else {
                outbox.send(.change(.joined(groupID: groupID, comments: comments)))
            }
            group.window = comments
            group.orderValues = orderValues
        }
        state.groups[groupID] = group
    }

    /// Queues the snapshot when every member group has comments and it differs from the last one
    /// (not when emitting changes).
    private static func emitIfReady(_ state: inout State, outbox: inout SerializedOutbox<Output>) {
        guard state.hasMembership, !state.emitsChanges else { return }
        var snapshot: [String: [String]] = [:]
        snapshot.reserveCapacity(state.groups.count)
        for (groupID, group) in state.groups where !group.isDenied {
            guard let comments = group.comments else { return }
            snapshot[groupID] = comments
        }
        guard snapshot != state.lastEmitted else { return }
        state.lastEmitted = snapshot
        outbox.send(.snapshot(snapshot))
    }

    // MARK: - Delivery

    private func update<R>(_ body: (inout State, inout SerializedOutbox<Output>) -> R) -> R {
        serialized.update(body, deliver: deliver)
    }

    /// Runs outside the lock, on the draining thread only.
    private func deliver(_ output: Output) {
        switch (output, mode) {
        case (.snapshot(let snapshot), .snapshots(let observer)), (.snapshot(let snapshot), .windowSnapshots(_, let observer)):
            observer.onNext(snapshot)
        case (.change(let change), .windowChanges(_, let observer)): observer.onNext(change)
        case (.snapshot, .windowChanges), (.change, .snapshots), (.change, .windowSnapshots): break  // never queued
        case (.diagnostic(let diagnostic), _): report(diagnostic)
        case (.error(let error), .snapshots(let observer)), (.error(let error), .windowSnapshots(_, let observer)): observer.onError(error)
        case (.error(let error), .windowChanges(_, let observer)): observer.onError(error)
        case (.completed, .snapshots(let observer)), (.completed, .windowSnapshots(_, let observer)): observer.onCompleted()
        case (.completed, .windowChanges(_, let observer)): observer.onCompleted()
        }
    }
}

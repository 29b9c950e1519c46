import Streams

/// The state machine behind one subscription of `GroupCommentsListener.listen(_:)`.
///
/// It keeps one database observation per member group, keyed by group ID. A membership change
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
    }

    private struct State {
        var groups: [String: Group] = [:]
        var nextToken: UInt64 = 0
        var hasMembership = false
        var lastEmitted: [String: [String]]?
        var isStopped = false
    }

    private enum Output {
        case snapshot([String: [String]])
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
    private let observer: AnyObserver<[String: [String]]>
    private let serialized = SerializedState<State, Output>(State())
    private let membershipSubscription = SingleAssignmentDisposable()

    init(database: RealtimeDatabase, groupsPath: String, report: @escaping (GroupCommentsDiagnostic) -> Void, observer: AnyObserver<[String: [String]]>) {
        self.database = database
        self.groupsPath = groupsPath
        self.report = report
        self.observer = observer
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
            let plan = update { state, outbox in Self.apply(groupIDs, to: &state, outbox: &outbox) }
            plan.detach.forEach { $0.dispose() }
            for (groupID, token, subscription) in plan.attach {
                let path = GroupCommentsDecoding.path(ofGroup: groupID, below: groupsPath)
                subscription.setDisposable(database.observeValue(at: path).subscribe { [self] event in
                    on(group: groupID, token: token, event)
                })
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
            update { state, outbox in
                guard !state.isStopped, state.groups[groupID]?.token == token else { return }
                state.groups[groupID]?.comments = comments
                if let diagnostic { outbox.send(.diagnostic(diagnostic)) }
                Self.emitIfReady(&state, outbox: &outbox)
            }
        case .error(let error):
            let reason = String(describing: error)
            update { state, outbox in
                guard !state.isStopped, state.groups[groupID]?.token == token else { return }
                state.groups[groupID]?.comments = []
                state.groups[groupID]?.subscription = nil
                outbox.send(.diagnostic(.groupObservationFailed(groupID: groupID, reason: reason)))
                Self.emitIfReady(&state, outbox: &outbox)
            }
        case .completed:
            // Database observations never complete; a backend that does keeps the last comments.
            update { state, outbox in
                guard !state.isStopped, state.groups[groupID]?.token == token else { return }
                state.groups[groupID]?.subscription = nil
                if state.groups[groupID]?.comments == nil { state.groups[groupID]?.comments = [] }
                Self.emitIfReady(&state, outbox: &outbox)
            }
        }
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

    private static func apply(_ groupIDs: [String], to state: inout State, outbox: inout SerializedOutbox<Output>) -> Plan {
        var plan = Plan()
        guard !state.isStopped else { return plan }
        state.hasMembership = true
        let wanted = Set(groupIDs)
        for (groupID, group) in state.groups where !wanted.contains(groupID) {
            state.groups[groupID] = nil
            if let subscription = group.subscription { plan.detach.append(subscription) }
        }
        for groupID in groupIDs where state.groups[groupID] == nil {  // also skips duplicates
            let token = state.nextToken
            state.nextToken += 1
            if let problem = GroupCommentsDecoding.problem(withGroupID: groupID) {
                state.groups[groupID] = Group(token: token, subscription: nil, comments: [])
                outbox.send(.diagnostic(.invalidGroupID(groupID, reason: problem)))
            } else {
                let subscription = SingleAssignmentDisposable()
                state.groups[groupID] = Group(token: token, subscription: subscription, comments: nil)
                plan.attach.append((groupID, token, subscription))
            }
        }
        emitIfReady(&state, outbox: &outbox)
        return plan
    }

    /// Queues the snapshot when every member group has comments and it differs from the last one.
    private static func emitIfReady(_ state: inout State, outbox: inout SerializedOutbox<Output>) {
        guard state.hasMembership else { return }
        var snapshot: [String: [String]] = [:]
        snapshot.reserveCapacity(state.groups.count)
        for (groupID, group) in state.groups {
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
        switch output {
        case .snapshot(let snapshot): observer.onNext(snapshot)
        case .diagnostic(let diagnostic): report(diagnostic)
        case .error(let error): observer.onError(error)
        case .completed: observer.onCompleted()
        }
    }
}

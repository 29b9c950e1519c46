import XCTest
import ConfigFeatures
import Streams
import StreamsTest

private let c0 = GroupSeed.comments0
private let c1 = GroupSeed.comments1

/// An `InMemoryRealtimeDatabase` whose security rules can refuse reading chosen paths: from the
/// start (the observation fails at once), or from a moment on (live observations fail, as the
/// server's `cancel` of a listen).
private final class RulesDatabase: RealtimeDatabase, @unchecked Sendable {
    // Safety: `denied` is guarded by its lock; `base` and `revocations` are thread-safe.
    let base: InMemoryRealtimeDatabase
    private let denied = LockedState<Set<String>>([])
    private let revocations = PublishSubject<String>()

    init(scheduler: TestScheduler) throws {
        base = try InMemoryRealtimeDatabase(scheduler: scheduler, value: GroupSeed.database)
    }

    var activeObserverCount: Int { base.activeObserverCount }

    /// Refuses reading `path` from now on; cancels its live observations.
    func deny(_ path: String) {
        denied.withLock { _ = $0.insert(path) }
        revocations.onNext(path)
    }

    /// Allows reading `path` again.
    func allow(_ path: String) {
        denied.withLock { _ = $0.remove(path) }
    }

    func observeValue(at path: String) -> Observable<JSONValue> {
        if denied.withLock({ $0.contains(path) }) { return Observable.error(RealtimeDatabaseError.permissionDenied(path: path)) }
        let cancelled = revocations.filter { $0 == path }.take(1).flatMap { _ in
            Observable<JSONValue>.error(RealtimeDatabaseError.permissionDenied(path: path))
        }
        return Observable.merge(base.observeValue(at: path), cancelled)
    }

    func getValue(at path: String) -> Observable<JSONValue> { base.getValue(at: path) }
    func perform(_ write: RealtimeDatabaseWrite) -> Observable<Void> { base.perform(write) }
    func childByAutoId() -> String { base.childByAutoId() }
}

private func recordDiagnostics(_ scheduler: TestScheduler, _ listener: GroupCommentsListener) -> (TestableObserver<GroupCommentsDiagnostic>, Disposable) {
    let observer = scheduler.createObserver(GroupCommentsDiagnostic.self)
    return (observer, listener.diagnostics.subscribe(observer))
}

/// `GroupCommentsListener` when the database refuses to read a group (`permissionDenied`): the
/// group leaves the merged stream quietly and the others keep flowing.
final class GroupCommentsAccessDeniedTests: XCTestCase {
    func testListen_aGroupTheRulesRefuseFromTheStartIsLeftOut() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try RulesDatabase(scheduler: scheduler)
            database.deny("Groups/group1")
            let listener = GroupCommentsListener(database: database)
            let (diagnostics, subscription) = recordDiagnostics(scheduler, listener)
            let res = scheduler.start { listener.listen(Observable.just(["group0", "group1"])) }

            XCTAssertEqual(res.events, [.next(201, ["group0": c0])])
            XCTAssertEqual(diagnostics.events, [.next(200, .groupAccessDenied(groupID: "group1"))])
            subscription.dispose()
        }
    }

    ///     membership:  210: [g0,g1]                                   600: [g0]   700: [g0,g1] (allowed again)
    ///     rules:                       300: g1 refused (listen cancelled)
    ///     output:      211: {g0,g1}    300: {g0}      401: {g0'}                  701: {g0',g1}
    func testListen_aCancelledGroupLeavesAndTheOthersKeepFlowing() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try RulesDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let (diagnostics, subscription) = recordDiagnostics(scheduler, listener)
            let membership = scheduler.createHotObservable([.next(210, ["group0", "group1"]), .next(600, ["group0"]), .next(700, ["group0", "group1"])])
            scheduler.scheduleAt(300) { database.deny("Groups/group1") }
            scheduleDatabaseWrite(scheduler, at: 400) { try database.base.setValue("comment0-3", at: "Groups/group0/3") }
            scheduler.scheduleAt(650) { database.allow("Groups/group1") }
            let counts = LockedState<[TestTime: Int]>([:])
            for time in [250, 350, 650] as [TestTime] { scheduler.scheduleAt(time) { counts.withLock { $0[time] = database.activeObserverCount } } }

            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(
                res.events,
                [
                    .next(211, ["group0": c0, "group1": c1]),
                    .next(300, ["group0": c0]),
                    .next(401, ["group0": c0 + ["comment0-3"]]),
                    .next(701, ["group0": c0 + ["comment0-3"], "group1": c1]),
                ])
            XCTAssertEqual(diagnostics.events, [.next(300, .groupAccessDenied(groupID: "group1"))])
            XCTAssertEqual(counts.withLock { $0 }, [250: 2, 350: 1, 650: 1], "the cancelled group is not observed")
            subscription.dispose()
        }
    }

    /// A membership list that still names a refused group observes it again (the rules may
    /// allow it now); refused again, it stays out without a failure.
    func testListen_aRefusedGroupStillNamedIsTriedAgainOnTheNextMembership() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try RulesDatabase(scheduler: scheduler)
            database.deny("Groups/group1")
            let listener = GroupCommentsListener(database: database)
            let (diagnostics, subscription) = recordDiagnostics(scheduler, listener)
            let membership = scheduler.createHotObservable([
                .next(210, ["group0", "group1"]), .next(300, ["group1", "group0"]), .next(400, ["group0", "group1"]),
            ])
            scheduler.scheduleAt(350) { database.allow("Groups/group1") }

            let res = scheduler.start { listener.listen(membership.asObservable()) }

            XCTAssertEqual(res.events, [.next(211, ["group0": c0]), .next(401, ["group0": c0, "group1": c1])])
            XCTAssertEqual(
                diagnostics.events, [.next(210, .groupAccessDenied(groupID: "group1")), .next(300, .groupAccessDenied(groupID: "group1"))])
            XCTAssertNil(res.events.first { $0.value.isStopEvent })
            subscription.dispose()
        }
    }

    func testListenChanges_aCancelledGroupIsLeft() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = try RulesDatabase(scheduler: scheduler)
            let listener = GroupCommentsListener(database: database)
            let membership = scheduler.createHotObservable([.next(210, ["group0", "group1"])])
            scheduler.scheduleAt(300) { database.deny("Groups/group1") }
            scheduleDatabaseWrite(scheduler, at: 400) { try database.base.setValue("comment0-3", at: "Groups/group0/3") }

            let res = scheduler.start {
                listener.listenChanges(membership.asObservable(), window: GroupCommentsWindow(last: 2)).map(\.description)
            }

            XCTAssertEqual(res.events.map(\.time), [211, 211, 300, 401, 401])
            let descriptions = res.events.compactMap(\.value.element)
            XCTAssertEqual(Set(descriptions.prefix(2)).count, 2, "group0 and group1 joined: \(descriptions)")
            XCTAssertTrue(descriptions[2].contains("group1") && descriptions[2].lowercased().contains("left"), descriptions[2])
            XCTAssertTrue(descriptions[3...].allSatisfy { $0.contains("group0") }, "\(descriptions)")
        }
    }

    func testDiagnostic_describesTheRefusal() {
        let diagnostic = GroupCommentsDiagnostic.groupAccessDenied(groupID: "g")
        XCTAssertEqual(diagnostic.description, "Reading group \"g\" is not allowed (permission denied); left out")
        XCTAssertEqual(diagnostic.groupID, "g")
        XCTAssertNil(diagnostic.userID)
    }
}

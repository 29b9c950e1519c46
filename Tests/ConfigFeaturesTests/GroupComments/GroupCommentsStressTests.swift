import XCTest
import ConfigFeatures
import Streams
import StreamsTest

/// Records snapshots from any thread and counts overlapping `onNext` calls.
private final class SnapshotRecorder: @unchecked Sendable {
    // Safety: every property is a `LockedState`.
    private let snapshots = LockedState<[[String: [String]]]>([])
    private let inside = LockedState(false)
    private let overlaps = LockedState(0)

    var all: [[String: [String]]] { snapshots.withLock { $0 } }
    var overlapCount: Int { overlaps.withLock { $0 } }

    func append(_ snapshot: [String: [String]]) {
        let entered = inside.withLock { inside -> Bool in
            defer { inside = true }
            return !inside
        }
        if !entered { overlaps.withLock { $0 += 1 } }
        snapshots.withLock { $0.append(snapshot) }
        if entered { inside.withLock { $0 = false } }
    }
}

private let groupCount = 6
private let groupIDs = (0..<groupCount).map { "g\($0)" }

private func comments(in value: JSONValue) -> [String] {
    value.arrayValue?.compactMap(\.stringValue) ?? []
}

final class GroupCommentsStressTests: XCTestCase {
    private var savedAnomalyHandler: (@Sendable (String) -> Void)?
    private let anomalies = LockedState(0)

    override func setUp() {
        super.setUp()
        savedAnomalyHandler = Hooks.synchronizationAnomaly
        let anomalies = anomalies
        Hooks.synchronizationAnomaly = { _ in anomalies.withLock { $0 += 1 } }
    }

    override func tearDown() {
        if let savedAnomalyHandler { Hooks.synchronizationAnomaly = savedAnomalyHandler }
        XCTAssertEqual(anomalies.withLock { $0 }, 0, "an observer was entered by two threads at once")
        super.tearDown()
    }

    /// Membership changes on one thread while two others write comments, deliveries on a real
    /// serial queue: snapshots never overlap, never show a comment list that is not a prefix of
    /// the final one, and the last snapshot is exactly the final membership's comments.
    func testListen_membershipChangesAndWritesFromSeveralThreads() throws {
        let rounds = 400, writesPerWriter = 600
        try XCTAssertNoLeaksEventually {
            let queue = DispatchQueue(label: "group-comments.stress")
            let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
            let database = try InMemoryRealtimeDatabase(
                scheduler: scheduler,
                value: [
                    "Groups": .object(Dictionary(uniqueKeysWithValues: groupIDs.map { ($0, JSONValue.array([.string("\($0)-init")])) }))
                ])
            let listener = GroupCommentsListener(database: database)
            let membership = PublishSubject<[String]>()
            let recorder = SnapshotRecorder()
            let sent = LockedState<[[String]]>([])
            let subscription = listener.listen(membership.asObservable()).subscribe(onNext: recorder.append)
            let finalMembership = ["g5", "g1", "g2", "g1"]

            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 0 {
                    var random = DeterministicRandom(seed: 42)
                    for _ in 0..<rounds {
                        let size = Int.random(in: 0...4, using: &random)
                        let ids = (0..<size).map { _ in groupIDs[Int.random(in: 0..<groupCount, using: &random)] }
                        sent.withLock { $0.append(ids) }
                        membership.onNext(ids)
                    }
                    sent.withLock { $0.append(finalMembership) }
                    membership.onNext(finalMembership)
                } else {
                    // Writer 1 appends to g0...g2, writer 2 to g3...g5.
                    let mine = Array(groupIDs[(index - 1) * 3..<index * 3])
                    var lengths = Dictionary(uniqueKeysWithValues: mine.map { ($0, 1) })
                    for write in 0..<writesPerWriter {
                        let id = mine[write % mine.count]
                        do {
                            try database.setValue(.string("\(id)-\(write)"), at: "Groups/\(id)/\(lengths[id]!)")
                        } catch {
                            XCTFail("\(error)")
                        }
                        lengths[id]! += 1
                    }
                }
            }
            // Every delivery was scheduled before its write or subscription returned: drain them.
            queue.sync {}
            queue.sync {}

            let final = try Dictionary(uniqueKeysWithValues: groupIDs.map { ($0, comments(in: try database.value(at: "Groups/\($0)"))) })
            XCTAssertEqual(final.values.map(\.count).reduce(0, +), groupCount + 2 * writesPerWriter)
            let snapshots = recorder.all
            XCTAssertEqual(recorder.overlapCount, 0)
            XCTAssertEqual(snapshots.last, Dictionary(uniqueKeysWithValues: Set(finalMembership).map { ($0, final[$0]!) }))
            let memberships = Set(sent.withLock { $0 }.map { Set($0) })
            for (previous, snapshot) in zip([[:]] + snapshots, snapshots) {
                XCTAssertTrue(memberships.contains(Set(snapshot.keys)), "keys are one of the membership lists sent")
                for (id, list) in snapshot {
                    XCTAssertEqual(Array(final[id]!.prefix(list.count)), list, "\(id): in write order, nothing skipped")
                    if let earlier = previous[id] {
                        XCTAssertGreaterThanOrEqual(list.count, earlier.count, "\(id): never goes back in time")
                    }
                }
            }
            XCTAssertEqual(database.activeObserverCount, Set(finalMembership).count)

            subscription.dispose()
            XCTAssertEqual(database.activeObserverCount, 0)
            queue.sync {}
        }
    }

    /// Disposal races with membership changes and writes: afterwards no observation is left
    /// and every resource is released.
    func testListen_disposeRacingWithMembershipChangesAndWrites() throws {
        try XCTAssertNoLeaksEventually {
            let queue = DispatchQueue(label: "group-comments.dispose-race")
            let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
            let database = try InMemoryRealtimeDatabase(
                scheduler: scheduler,
                value: [
                    "Groups": .object(Dictionary(uniqueKeysWithValues: groupIDs.map { ($0, JSONValue.array([.string("\($0)-init")])) }))
                ])
            let listener = GroupCommentsListener(database: database)
            // "bad.id" makes every round report diagnostics concurrently with the deliveries.
            let diagnosticsSubscription = listener.diagnostics.subscribe(onNext: { _ in })
            for round in 0..<60 {
                let membership = PublishSubject<[String]>()
                let recorder = SnapshotRecorder()
                // (A SingleAssignmentDisposable is Sendable, so the disposing thread can use it.)
                let subscription = SingleAssignmentDisposable()
                subscription.setDisposable(listener.listen(membership.asObservable()).subscribe(onNext: recorder.append))
                DispatchQueue.concurrentPerform(iterations: 3) { index in
                    switch index {
                    case 0:
                        for step in 0..<20 {
                            membership.onNext([groupIDs[(round + step) % groupCount], groupIDs[step % groupCount], "bad.id"])
                        }
                    case 1:
                        for _ in 0..<(round % 10) * 10 { _ = database.activeObserverCount }
                        subscription.dispose()
                    default:
                        for step in 0..<10 {
                            try? database.setValue(.string("r\(round)-\(step)"), at: "Groups/\(groupIDs[step % groupCount])/\(round * 10 + step + 1)")
                        }
                    }
                }
                XCTAssertEqual(database.activeObserverCount, 0, "round \(round)")
                XCTAssertEqual(recorder.overlapCount, 0)
            }
            queue.sync {}
            XCTAssertEqual(database.activeObserverCount, 0)
            diagnosticsSubscription.dispose()
        }
    }
}

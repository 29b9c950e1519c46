import ConfigFeatures
import Foundation
import Streams
import StreamsTest
import XCTest

final class LocalFirstRealtimeDatabaseTests: XCTestCase {
    /// A retry policy without jitter: 10, 20, 40, 40… ticks.
    private let backoff = BackoffPolicy(initialDelay: 10, multiplier: 2, maximumDelay: 40, jitter: 0)

    private func makeDatabase(_ scheduler: TestScheduler, remote: any RealtimeDatabase) -> LocalFirstRealtimeDatabase {
        LocalFirstRealtimeDatabase(remote: remote, scheduler: scheduler, reconnectBackoff: backoff, random: { 0.5 })
    }

    // MARK: - Latency compensation

    func testSetValue_isVisibleAtOnceAndCompletesWhenAcknowledged() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1])
            let database = makeDatabase(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, uplink: 50))
            let values = record(scheduler) { database.observeValue(at: "x") }
            let write = record(scheduler, at: 300) { database.setValue(2, at: "x").map { true } }
            scheduler.scheduleAt(320) { XCTAssertEqual(try? server.value(at: "x"), 1, "not on the server yet") }
            scheduler.start()
            // 201 server value, 202 loaded, 203 first value; 301 the local write, long before
            // the server stores it (350) and acknowledges it (351).
            XCTAssertEqual(values.events, [.next(203, 1), .next(301, 2)])
            XCTAssertEqual(write.events, [.next(352, true), .completed(352)])
            XCTAssertEqual(try server.value(at: "x"), 2)
            XCTAssertEqual(server.activeObserverCount, 0)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testChildEvents_localPushAndUpdateRaiseEventsWithPreviousKeysAtOnce() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["g": ["a": 1, "c": 3]])
            let database = makeDatabase(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, uplink: 50))
            let query = database.query(at: "g").orderedByKey().limited(toLast: 2)
            let events = record(scheduler) { database.observeChildEvents(of: query) }
            let selection = record(scheduler) { database.observeValue(of: query) }
            scheduler.scheduleAt(300) { _ = database.setValue(4, at: "g/d").subscribe() }
            scheduler.scheduleAt(400) { _ = database.updateChildValues(["b": 2, "c": 30], at: "g").subscribe() }
            scheduler.start()
            XCTAssertEqual(
                events.events,
                [
                    .next(203, .added(key: "a", value: 1, previousKey: nil)),
                    .next(203, .added(key: "c", value: 3, previousKey: "a")),
                    .next(301, .removed(key: "a", value: 1)),
                    .next(301, .added(key: "d", value: 4, previousKey: "c")),
                    .next(401, .changed(key: "c", value: 30, previousKey: nil)),
                ])
            XCTAssertEqual(selection.events, [.next(203, ["a": 1, "c": 3]), .next(301, ["c": 3, "d": 4]), .next(401, ["c": 30, "d": 4])])
            XCTAssertEqual(try server.value(at: "g"), ["a": 1, "b": 2, "c": 30, "d": 4])
        }
    }

    func testPush_isVisibleAtOnceAndServerTimestampResolvesLocally() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = InMemoryRealtimeDatabase(scheduler: scheduler)
            let database = makeDatabase(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, uplink: 50))
            let children = record(scheduler) { database.observeChildren(of: database.query(at: "g")) }
            var key = ""
            scheduler.scheduleAt(300) {
                _ = database.push(["at": RealtimeDatabaseServerValue.timestamp], at: "g").subscribe(onNext: { key = $0 })
            }
            scheduler.start()
            // 301: the estimated server time at once; 352: the server's own, when its data arrives.
            XCTAssertEqual(children.events.map(\.time), [203, 301, 352])
            XCTAssertEqual(children.events[1].value.element?.map(\.value), [["at": 300_000]])
            XCTAssertEqual(children.events.last?.value.element?.map(\.value), [["at": 350_000]])
            XCTAssertEqual(children.events.last?.value.element?.map(\.key), [key])
            XCTAssertEqual(try server.value(at: "g/\(key)/at"), 350_000, "the server's own time")
        }
    }

    func testWrites_applyAndAreSentInTheOrderIssued() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = InMemoryRealtimeDatabase(scheduler: scheduler)
            let database = makeDatabase(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, uplink: 10))
            let values = record(scheduler) { database.observeValue(at: "x") }
            let serverValues = record(scheduler) { server.observeValue(at: "x") }
            let first = record(scheduler, at: 300) { database.setValue(1, at: "x").map { true } }
            let second = record(scheduler, at: 300) { database.setValue(2, at: "x").map { true } }
            let third = record(scheduler, at: 300) { database.updateChildValues(["x": 3], at: "/").map { true } }
            scheduler.start()
            XCTAssertEqual(values.events, [.next(203, .null), .next(301, 1), .next(301, 2), .next(301, 3)])
            XCTAssertEqual(serverValues.events, [.next(201, .null), .next(311, 1), .next(322, 2), .next(333, 3)])
            XCTAssertEqual(first.events.map(\.time), [312, 312])
            XCTAssertEqual(second.events.map(\.time), [323, 323])
            XCTAssertEqual(third.events.map(\.time), [334, 334])
        }
    }

    func testRejectedWrite_revertsAndFailsWithTheTypedError() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["g": ["a": 1]])
            server.connectivity = .rejectingWrites()
            let database = makeDatabase(scheduler, remote: server)
            let events = record(scheduler) { database.observeChildEvents(of: database.query(at: "g")) }
            let count = record(scheduler) { database.pendingWriteCount }
            let write = record(scheduler, at: 300) { database.setValue(2, at: "g/b").map { true } }
            scheduler.start()
            XCTAssertEqual(
                events.events,
                [
                    .next(203, .added(key: "a", value: 1, previousKey: nil)),
                    .next(301, .added(key: "b", value: 2, previousKey: "a")),
                    .next(302, .removed(key: "b", value: 2)),
                ])
            XCTAssertEqual(write.events, [.error(302, RealtimeDatabaseError.permissionDenied(path: "g/b"))])
            XCTAssertEqual(count.events, [.next(201, 0), .next(301, 1), .next(302, 0)])
            XCTAssertEqual(try server.value(at: "g"), ["a": 1])
        }
    }

    func testServerEvents_doNotClobberAPendingWrite() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1, "y": 1])
            let database = makeDatabase(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, uplink: 50))
            let values = record(scheduler) { database.observeValue(at: "/") }
            scheduler.scheduleAt(300) { _ = database.setValue(2, at: "x").subscribe() }
            // Another client, while the write travels: x is hidden by the pending write, y shows.
            scheduler.scheduleAt(320) { try? server.updateChildValues(["x": 9, "y": 9], at: "/") }
            scheduler.start()
            XCTAssertEqual(values.events, [.next(203, ["x": 1, "y": 1]), .next(301, ["x": 2, "y": 1]), .next(322, ["x": 2, "y": 9])])
            XCTAssertEqual(try server.value(at: "/"), ["x": 2, "y": 9])
        }
    }

    // MARK: - Acknowledgements that overtake the server's data

    func testReconnect_snapshotOlderThanAnAcknowledgementDoesNotHideTheWrite() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1])
            let database = makeDatabase(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, reads: 30))
            let values = record(scheduler) { database.observeValue(at: "x") }
            let write = record(scheduler, at: 310) { database.setValue(2, at: "x").map { true } }
            scheduler.scheduleAt(300) { database.goOffline() }
            scheduler.scheduleAt(400) { database.goOnline() }
            scheduler.start()
            // 400: resubscribed (its snapshot, x=1, is taken at 401 and arrives at 431) and the
            // write sent (acknowledged at 401, before that snapshot). The snapshot is older than
            // the acknowledgement, so the write stays shown until the server's data has it
            // (the echo, at 431); before the fix the values were 1, 2, 1 (432), 2 (433).
            XCTAssertEqual(values.events, [.next(233, 1), .next(311, 2)])
            XCTAssertEqual(write.events.map(\.time), [402, 402])
            XCTAssertEqual(try server.value(at: "x"), 2)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testRetry_snapshotOlderThanAnAcknowledgementDoesNotHideTheWrite() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1])
            let database = makeDatabase(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, reads: 30))
            let values = record(scheduler) { database.observeValue(at: "x") }
            let count = record(scheduler) { database.pendingWriteCount }
            scheduler.scheduleAt(300) { server.connectivity = .offline }
            let write = record(scheduler, at: 310) { database.setValue(2, at: "x").map { true } }
            scheduler.scheduleAt(400) { server.connectivity = .online }
            scheduler.start()
            XCTAssertEqual(values.events.map(\.value.element), [1, 2], "no old value between the acknowledgement and the echo")
            XCTAssertEqual(count.events.map(\.value.element), [0, 1, 0])
            XCTAssertEqual(write.events.count, 2)
            XCTAssertEqual(try server.value(at: "x"), 2)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testAcknowledgement_overtakingAnotherClientsEarlierChangeKeepsTheWriteShown() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1, "y": 1])
            let database = makeDatabase(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, reads: 30))
            let values = record(scheduler) { database.observeValue(at: "/") }
            // Another client at 300; this client's write at 305 is acknowledged (306) long
            // before the other change reaches this client (331), then its own echo (336).
            scheduler.scheduleAt(300) { try? server.updateChildValues(["x": 5, "y": 5], at: "/") }
            scheduler.scheduleAt(305) { _ = database.setValue(2, at: "x").subscribe() }
            scheduler.scheduleAt(400) { try? server.setValue(7, at: "x") }  // a later change shows
            scheduler.start()
            XCTAssertEqual(
                values.events,
                [
                    .next(233, ["x": 1, "y": 1]), .next(306, ["x": 2, "y": 1]),
                    .next(332, ["x": 2, "y": 5]),  // the other client's y; its older x stays hidden
                    .next(432, ["x": 7, "y": 5]),
                ])
            XCTAssertEqual(try server.value(at: "/"), ["x": 7, "y": 5])
        }
    }

    func testAcknowledgement_afterTheEchoAndAnotherClientsLaterChangeShowsThatChange() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1])
            let database = makeDatabase(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, acknowledgements: 50))
            let values = record(scheduler) { database.observeValue(at: "x") }
            // Stored at 300 (echo 301), overwritten by another client at 320 (hidden under the
            // pending write), acknowledged 50 ticks after 301: the other client's value shows
            // then, instead of the write being stored again as written (which hid it until a
            // later event).
            scheduler.scheduleAt(300) { _ = database.setValue(2, at: "x").subscribe() }
            scheduler.scheduleAt(320) { try? server.setValue(9, at: "x") }
            scheduler.start()
            XCTAssertEqual(values.events, [.next(203, 1), .next(301, 2), .next(353, 9)])
        }
    }

    func testAcknowledgement_beforeTheServerValuesArriveKeepsThePushShown() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = InMemoryRealtimeDatabase(scheduler: scheduler)
            let database = makeDatabase(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, reads: 30))
            let children = record(scheduler) { database.observeChildren(of: database.query(at: "g")) }
            scheduler.scheduleAt(300) { _ = database.push(["at": RealtimeDatabaseServerValue.timestamp], at: "g").subscribe() }
            scheduler.start()
            // Acknowledged at 301, its data (with the server's time) here at 331: the comment
            // never disappears in between.
            XCTAssertEqual(children.events.map { $0.value.element?.count }, [0, 1])
            XCTAssertEqual(children.events.map(\.time), [233, 301])
        }
    }

    func testAcknowledgement_whoseEchoNeverArrivesStopsHidingTheServersDataAfterTheEchoTimeout() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1])
            let database = makeDatabase(scheduler, remote: CoalescingReadsDatabase(base: server, scheduler: scheduler, quiet: 5))
            let values = record(scheduler) { database.observeValue(at: "x") }
            // Stored and acknowledged at 300-301; another client's x=7 at 302 replaces it before
            // the coalescing stream emits, so x=2 never comes back as an echo. The write stays
            // shown for echoTimeout (60 ticks here), then the server's 7 shows.
            scheduler.scheduleAt(300) { _ = database.setValue(2, at: "x").subscribe() }
            scheduler.scheduleAt(302) { try? server.setValue(7, at: "x") }
            scheduler.start()
            XCTAssertEqual(values.events.map(\.value.element), [1, 2, 7])
            XCTAssertEqual(values.events.last?.time, 362)
            XCTAssertNoPendingWork(scheduler)
        }
    }

    // MARK: - Offline

    func testOffline_writesQueueAndDrainInOrderOnReconnect() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1])
            let database = makeDatabase(scheduler, remote: server)
            let values = record(scheduler) { database.observeValue(at: "/") }
            let connected = record(scheduler) { database.observeValue(at: ".info/connected") }
            let count = record(scheduler) { database.pendingWriteCount }
            scheduler.scheduleAt(250) { server.connectivity = .offline }
            let first = record(scheduler, at: 300) { database.setValue(2, at: "x").map { true } }
            let second = record(scheduler, at: 310) { database.setValue(3, at: "y").map { true } }
            scheduler.scheduleAt(320) { try? server.setValue(5, at: "z") }  // another client
            scheduler.scheduleAt(400) { server.connectivity = .online }
            scheduler.start()
            // Offline: the observation fails at 251 and is retried at 261, 282, 323, 364, 405; its
            // first value (406) marks the server reachable.
            XCTAssertEqual(connected.events, [.next(201, true), .next(252, false), .next(407, true)])
            XCTAssertEqual(count.events, [.next(201, 0), .next(301, 1), .next(311, 2), .next(407, 1), .next(408, 0)])
            XCTAssertEqual(
                values.events,
                [
                    .next(203, ["x": 1]), .next(301, ["x": 2]), .next(311, ["x": 2, "y": 3]),
                    .next(407, ["x": 2, "y": 3, "z": 5]),  // reconciled with the server on reconnect
                ])
            XCTAssertEqual(first.events.map(\.time), [407, 407])
            XCTAssertEqual(second.events.map(\.time), [408, 408])
            XCTAssertEqual(try server.value(at: "/"), ["x": 2, "y": 3, "z": 5])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testGoOfflineGoOnline_queuesWritesThenReconciles() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1])
            let database = makeDatabase(scheduler, remote: server)
            let values = record(scheduler) { database.observeValue(at: "/") }
            let connected = record(scheduler) { database.observeValue(at: ".info/connected") }
            let write = record(scheduler, at: 310) { database.setValue(2, at: "x").map { true } }
            scheduler.scheduleAt(300) { database.goOffline() }
            scheduler.scheduleAt(320) { try? server.setValue(7, at: "y") }
            scheduler.scheduleAt(330) { XCTAssertEqual(server.activeObserverCount, 0, "no server listener while offline") }
            scheduler.scheduleAt(500) { database.goOnline() }
            scheduler.start()
            XCTAssertEqual(connected.events, [.next(201, true), .next(301, false), .next(501, true)])
            XCTAssertEqual(values.events, [.next(203, ["x": 1]), .next(311, ["x": 2]), .next(502, ["x": 2, "y": 7])])
            XCTAssertEqual(write.events.map(\.time), [502, 502])
            XCTAssertEqual(try server.value(at: "/"), ["x": 2, "y": 7])
        }
    }

    func testKeepSynced_keepsTheServerListenerWithoutObservers() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1])
            let database = makeDatabase(scheduler, remote: server)
            database.keepSynced("x", true)
            database.keepSynced("x", true)
            XCTAssertEqual(server.activeObserverCount, 1)
            let later = record(scheduler, at: 300) { database.observeValue(at: "x") }
            scheduler.scheduleAt(400) { database.keepSynced("x", false) }
            scheduler.start()
            XCTAssertEqual(later.events, [.next(302, 1)], "from the cache, without waiting for the server")
            XCTAssertEqual(server.activeObserverCount, 0)
        }
    }

    // MARK: - Lifetime and errors

    func testDispose_midStreamRemovesTheServerListenerAndTheWriteGoesOn() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = InMemoryRealtimeDatabase(scheduler: scheduler)
            let database = makeDatabase(scheduler, remote: DelayedLinkDatabase(base: server, scheduler: scheduler, uplink: 50))
            let values = record(scheduler, until: 305) { database.observeValue(at: "x") }
            let write = record(scheduler, at: 300, until: 310) { database.setValue(2, at: "x").map { true } }
            scheduler.scheduleAt(306) { XCTAssertEqual(server.activeObserverCount, 0) }
            scheduler.start()
            XCTAssertEqual(values.events, [.next(203, .null), .next(301, 2)])
            XCTAssertEqual(write.events, [] as [Recorded<Event<Bool>>])
            XCTAssertEqual(try server.value(at: "x"), 2, "a disposed write is still sent")
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testInvalidInput_failsWithTypedErrors() throws {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let database = makeDatabase(scheduler, remote: InMemoryRealtimeDatabase(scheduler: scheduler))
            let path = record(scheduler) { database.observeValue(at: "a//b") }
            let value = record(scheduler) { database.setValue(.number(.nan), at: "a").map { true } }
            let query = record(scheduler) { database.observeValue(of: database.query(at: "a").limited(toFirst: 0)) }
            scheduler.start()
            XCTAssertEqual(path.events.count, 1)
            XCTAssertNotNil(path.events.first?.value.error as? RealtimeDatabaseError)
            XCTAssertNotNil(value.events.first?.value.error as? RealtimeDatabaseError)
            guard case .invalidQuery? = query.events.first?.value.error as? RealtimeDatabaseError else {
                return XCTFail("expected invalidQuery, got \(query.events)")
            }
        }
    }

    // MARK: - Simulated connectivity of the in-memory database

    func testInMemoryConnectivity_offlineFailsObservationsRejectingFailsWrites() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["x": 1])
            let live = record(scheduler) { server.observeValue(at: "x") }
            scheduler.scheduleAt(300) { server.connectivity = .offline }
            let refused = record(scheduler, at: 310) { server.getValue(at: "x") }
            scheduler.scheduleAt(320) { try? server.setValue(2, at: "x") }  // the server side still works
            scheduler.scheduleAt(400) { server.connectivity = .rejectingWrites() }
            let read = record(scheduler, at: 410) { server.getValue(at: "x") }
            let write = record(scheduler, at: 410) { server.perform(.removeValue(at: "x")).map { true } }
            scheduler.start()
            let offline = RealtimeDatabaseError.network(message: "the in-memory database is offline (simulated)")
            XCTAssertEqual(live.events, [.next(201, 1), .error(301, offline)])
            XCTAssertEqual(refused.events, [.error(311, offline)])
            XCTAssertEqual(read.events, [.next(411, 2), .completed(411)])
            XCTAssertEqual(write.events, [.error(411, RealtimeDatabaseError.permissionDenied(path: "x"))])
            XCTAssertEqual(server.activeObserverCount, 0)
        }
    }
}

extension Event {
    fileprivate var error: Error? {
        if case .error(let error) = self { return error }
        return nil
    }
}

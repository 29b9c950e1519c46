import XCTest
import Streams
@testable import StreamsTest

private struct ListError: Error, CustomStringConvertible {
    var code = 0
    var description: String { "ListError \(code)" }
}

/// Same description as `ListError`, another type.
private struct OtherListError: Error, CustomStringConvertible {
    var code = 0
    var description: String { "ListError \(code)" }
}

/// Equal descriptions, different debug descriptions (e.g. an identity that is not part of the error).
private struct TaggedError: Error, CustomStringConvertible, CustomDebugStringConvertible {
    var tag: Int
    var description: String { "TaggedError" }
    var debugDescription: String { "TaggedError #\(tag)" }
}

final class XCTAssertEventsTests: XCTestCase {
    // MARK: - The message

    func testListMismatch_equalListsHaveNone() {
        let events: [Recorded<Event<Int>>] = [.next(210, 1), .completed(300)]
        XCTAssertNil(listMismatch(events, events, by: ==))
        XCTAssertNil(listMismatch([Recorded<Event<Int>>](), [], by: ==))
    }

    func testListMismatch_listsEachDifferingIndex() {
        let lhs: [Recorded<Event<Int>>] = [.next(210, 10), .next(220, 30), .next(230, 40), .completed(300)]
        let rhs: [Recorded<Event<Int>>] = [.next(210, 10), .next(220, 31), .next(230, 40), .completed(301)]
        XCTAssertEqual(
            listMismatch(lhs, rhs, by: ==),
            """
            XCTAssertEqual failed: ("[next(10) @ 210, next(30) @ 220, next(40) @ 230, completed @ 300]") \
            is not equal to ("[next(10) @ 210, next(31) @ 220, next(40) @ 230, completed @ 301]")
            Differences:
              lhs[1]: next(30) @ 220
              rhs[1]: next(31) @ 220
              lhs[3]: completed @ 300
              rhs[3]: completed @ 301
            """)
    }

    func testListMismatch_elementsMissingFromLhs() {
        let lhs: [Recorded<Event<Int>>] = [.next(210, 10), .next(220, 30)]
        let rhs: [Recorded<Event<Int>>] = [.next(210, 10), .next(220, 31), .completed(300)]
        XCTAssertEqual(
            listMismatch(lhs, rhs, by: ==),
            """
            XCTAssertEqual failed: ("[next(10) @ 210, next(30) @ 220]") is not equal to ("[next(10) @ 210, next(31) @ 220, completed @ 300]")
            Differences (lhs has 2 elements, rhs has 3 elements):
              lhs[1]: next(30) @ 220
              rhs[1]: next(31) @ 220
              rhs[2]: completed @ 300 (only in rhs)
            """)
    }

    func testListMismatch_extraElementsInLhs() {
        let lhs: [Event<Int>] = [.next(1), .next(2), .completed]
        let rhs: [Event<Int>] = [.next(1)]
        XCTAssertEqual(
            listMismatch(lhs, rhs, by: ==, message: "after dispose"),
            """
            XCTAssertEqual failed: ("[next(1), next(2), completed]") is not equal to ("[next(1)]") - after dispose
            Differences (lhs has 3 elements, rhs has 1 element):
              lhs[1]: next(2) (only in lhs)
              lhs[2]: completed (only in lhs)
            """)
    }

    // Fails on ce3e235: the differences were paired by index, so one extra event made every
    // later pair differ (lhs[1]/rhs[1], lhs[2]/rhs[2], lhs[3]/rhs[3], lhs[4] only in lhs).
    func testListMismatch_oneInsertedEventIsOneDifference() {
        let lhs: [Recorded<Event<Int>>] = [.next(210, 1), .next(215, 9), .next(220, 2), .next(230, 3), .completed(300)]
        let rhs: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)]
        XCTAssertEqual(
            listMismatch(lhs, rhs, by: ==),
            """
            XCTAssertEqual failed: ("[next(1) @ 210, next(9) @ 215, next(2) @ 220, next(3) @ 230, completed @ 300]") \
            is not equal to ("[next(1) @ 210, next(2) @ 220, next(3) @ 230, completed @ 300]")
            Differences (lhs has 5 elements, rhs has 4 elements):
              lhs[1]: next(9) @ 215 (only in lhs)
            """)
    }

    // Fails on ce3e235 (every pair from index 1 on was listed).
    func testListMismatch_oneMissingEventIsOneDifference() {
        let lhs: [Event<String>] = [.next("a"), .next("c"), .next("d"), .completed]
        let rhs: [Event<String>] = [.next("a"), .next("b"), .next("c"), .next("d"), .completed]
        XCTAssertEqual(
            listMismatch(lhs, rhs, by: ==),
            """
            XCTAssertEqual failed: ("[next(a), next(c), next(d), completed]") is not equal to ("[next(a), next(b), next(c), next(d), completed]")
            Differences (lhs has 4 elements, rhs has 5 elements):
              rhs[1]: next(b) (only in rhs)
            """)
    }

    /// Between shared runs, differing events pair up and the surplus is marked; a changed
    /// value and a missing completion read as such.
    func testListMismatch_changedAndMissingBetweenSharedRuns() {
        let lhs: [Event<Int>] = [.next(1), .next(5), .next(6), .next(3)]
        let rhs: [Event<Int>] = [.next(1), .next(2), .next(3), .completed]
        XCTAssertEqual(
            alignedDifferences(lhs, rhs, by: ==),
            [.changed(1, 1), .onlyInLhs(2), .onlyInRhs(3)])
    }

    /// Lists too long to align (more than `alignmentLimit` cells) are compared index by index.
    func testListMismatch_longListsFallBackToIndexPairs() {
        let rhs = Array(0..<3_000)
        var lhs = rhs
        lhs.remove(at: 10)
        // Alone, the removal is found from the common prefix and suffix, however long the lists.
        XCTAssertEqual(alignedDifferences(lhs, rhs, by: ==), [.onlyInRhs(10)])
        // A second difference far away leaves a middle of 2,891 x 2,892 elements, over the limit.
        lhs[2_900] = -1
        XCTAssertGreaterThan(2_892 * 2_893, alignmentLimit)
        let differences = alignedDifferences(lhs, rhs, by: ==)
        XCTAssertEqual(differences.first, .changed(10, 10))
        XCTAssertEqual(differences.last, .onlyInRhs(2_901))
        XCTAssertEqual(differences.count, 2_892)
        XCTAssertEqual(alignedDifferences(Array(0..<2_000), Array(0..<2_000), by: ==), [])
    }

    func testListMismatch_subscriptionsPrintAsRxTest() {
        XCTAssertEqual(
            listMismatch([Subscription(200, 300)], [Subscription(200)], by: ==),
            """
            XCTAssertEqual failed: ("[(200: 300)]") is not equal to ("[(200: Infinity)]")
            Differences:
              lhs[0]: (200: 300)
              rhs[0]: (200: Infinity)
            """)
    }

    func testListMismatch_errorsByTypeAndDescription() {
        let same: [Event<Int>] = [.error(ListError(code: 1))]
        XCTAssertNil(listMismatch(same, [.error(ListError(code: 1))], by: ==))
        XCTAssertEqual(
            listMismatch(same, [.error(ListError(code: 2))], by: ==),
            """
            XCTAssertEqual failed: ("[error(ListError 1)]") is not equal to ("[error(ListError 2)]")
            Differences:
              lhs[0]: error(ListError 1)
              rhs[0]: error(ListError 2)
            """)
        XCTAssertNotNil(listMismatch(same, [.error(OtherListError(code: 1))], by: ==), "another type with the same description")
    }

    func testErrors_compareByDescriptionNotDebugDescription() {
        // As RxTest: `"\(error)"` is compared, so an identity only in `debugDescription` does not count.
        XCTAssertEqual(Event<Int>.error(TaggedError(tag: 1)), Event<Int>.error(TaggedError(tag: 2)))
        XCTAssertEqual(CompletableEvent.error(TaggedError(tag: 1)), CompletableEvent.error(TaggedError(tag: 2)))
        XCTAssertEqual(MaybeEvent<Int>.error(TaggedError(tag: 1)), MaybeEvent<Int>.error(TaggedError(tag: 2)))
        XCTAssertTrue(singleEventsEqual(SingleEvent<Int>.failure(TaggedError(tag: 1)), .failure(TaggedError(tag: 2))))
        XCTAssertFalse(singleEventsEqual(SingleEvent<Int>.failure(ListError()), .failure(OtherListError())))
        XCTAssertFalse(singleEventsEqual(SingleEvent<Int>.success(1), .success(2)))
    }

    // MARK: - One passing assertion per overload

    func testXCTAssertEqual_recordedEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(300, ListError(code: 3))])
        let res = scheduler.start { xs.map { $0 * 10 } }
        XCTAssertEqual(res.events, [.next(210, 10), .error(300, ListError(code: 3))])
    }

    func testXCTAssertEqual_recordedOptionalEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.map { $0 == 1 ? nil : $0 } }
        XCTAssertEqual(res.events, [.next(210, nil), .next(220, 2), .completed(300)])
    }

    func testXCTAssertEqual_events() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2) }
        XCTAssertEqual(res.events.map(\.value), [.next(1), .next(2), .completed])
    }

    func testXCTAssertEqual_singleMaybeCompletableEvents() {
        XCTAssertEqual([SingleEvent<Int>.success(1), .failure(ListError())], [.success(1), .failure(ListError())])
        XCTAssertEqual([MaybeEvent<Int>.success(1), .completed, .error(ListError())], [.success(1), .completed, .error(ListError())])
        XCTAssertEqual([CompletableEvent.completed, .error(ListError())], [.completed, .error(ListError())])
    }

    func testXCTAssertEqual_subscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(50)])
        _ = scheduler.start { xs }
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testXCTAssertEqual_throwingArgumentsNeedNoThrowingTest() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(230, "a"), .completed(260)])
        let res = scheduler.start { xs }
        XCTAssertEqual(res.events, try scheduler.parseEvents("---a--|"))
    }

    func testXCTAssertRecordedElements() {
        XCTAssertRecordedElements([.next(210, 1), .next(220, 2)], [1, 2])
    }

    // MARK: - Reporting at the caller (Linux: capture XCTest's failure record)

    #if !canImport(Darwin)
    private var captured: [(description: String, file: String, line: Int)]?

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if captured != nil {
            captured?.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    /// Runs `body`, returning the failures it recorded instead of failing the test.
    private func failures(_ body: () throws -> Void) rethrows -> [(description: String, file: String, line: Int)] {
        captured = []
        // (`throws` only because a closure containing `try` is inferred to throw, even when the
        // `try` sits in an autoclosure argument.)
        try body()
        defer { captured = nil }
        return captured ?? []
    }

    func testFailures_reportedAtTheCallersFileAndLine() throws {
        let line = #line + 2
        let recorded = try failures {
            XCTAssertEqual([Recorded<Event<Int>>.next(210, 30)], [.next(210, 31)])
            XCTAssertEqual([Subscription(200, 300)], [Subscription(200, 301)], "subscriptions")
            XCTAssertEqual([CompletableEvent.completed], [])
            XCTAssertRecordedElements([.next(210, 1)], [2])
            XCTAssertEqual([], try failingEvents())
        }
        XCTAssertEqual(recorded.map(\.line), [line, line + 1, line + 2, line + 3, line + 4])
        XCTAssertEqual(Set(recorded.map(\.file)), [#filePath])
        XCTAssertEqual(recorded.count, 5)
        guard recorded.count == 5 else { return }
        XCTAssertTrue(recorded[0].description.contains("lhs[0]: next(30) @ 210\n  rhs[0]: next(31) @ 210"), recorded[0].description)
        XCTAssertTrue(recorded[1].description.contains("- subscriptions"), recorded[1].description)
        XCTAssertTrue(recorded[2].description.contains("lhs[0]: completed (only in lhs)"), recorded[2].description)
        XCTAssertTrue(recorded[3].description.contains("lhs[0]: 1\n  rhs[0]: 2"), recorded[3].description)
        XCTAssertTrue(recorded[4].description.contains("XCTAssertEqual threw error \"ListError 9\""), recorded[4].description)
    }
    #endif
}

private func failingEvents() throws -> [Recorded<Event<Int>>] {
    throw ListError(code: 9)
}

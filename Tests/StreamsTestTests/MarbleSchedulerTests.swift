import XCTest
import Streams
import StreamsTest

/// Marbles through `TestScheduler`: hot / cold observables, expected events, drawings, assertions.
final class MarbleSchedulerTests: XCTestCase {
    struct TestError: Error {}

    func testHotMarbles_subscriptionMarkerMapsToSubscribedTime() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = try scheduler.createHotObservable("--a--^--b--c--|", values: ["a": 1, "b": 2, "c": 3])
            XCTAssertEqual(xs.recordedEvents, [.next(170, 1), .next(230, 2), .next(260, 3), .completed(290)])
            let res = scheduler.start { xs.map { $0 * 10 } }
            XCTAssertEqual(res.events, [.next(230, 20), .next(260, 30), .completed(290)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 290)])
            XCTAssertMarbles(res.events, "---B--C--|", values: ["B": 20, "C": 30])
            XCTAssertMarbles(res, "---B--C--|", values: ["B": 20, "C": 30])
        }
    }

    func testHotMarbles_withoutCaretStartAtSubscribedTime() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = try scheduler.createHotObservable("-a-(bc)-|")
            XCTAssertEqual(xs.recordedEvents, [.next(210, "a"), .next(230, "b"), .next(230, "c"), .completed(280)])
            let res = scheduler.start { xs.map { $0.uppercased() } }
            XCTAssertMarbles(res.events, "-A-(BC)-|")
        }
    }

    func testHotMarbles_error() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = try scheduler.createHotObservable("^-a-#", values: ["a": 1], error: TestError())
            let res = scheduler.start { xs.map { $0 } }
            XCTAssertEqual(res.events, [.next(220, 1), .error(240, TestError())])
            XCTAssertMarbles(res.events, "--a-#", values: ["a": 1], error: TestError())
        }
    }

    func testColdMarbles_relativeToEachSubscription() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = try scheduler.createColdObservable("--a--|")
            XCTAssertEqual(xs.recordedEvents, [.next(20, "a"), .completed(50)])
            let res = scheduler.start { xs.map { $0 } }
            XCTAssertEqual(res.events, [.next(220, "a"), .completed(250)])
            XCTAssertMarbles(res.events, "--a--|")
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    /// As in RxTest, a cold observable's events are placed at virtual times (no processing
    /// delay): frame zero arrives at the subscription's own time.
    func testColdMarbles_frameZeroArrivesAtSubscriptionTime() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createColdObservable("(a|)")
        let res = scheduler.start { xs.map { $0 } }
        XCTAssertEqual(res.events, [.next(200, "a"), .completed(200)])
        XCTAssertNil(Marbles.mismatch(res.events, "(a|)"))

        let immediate = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let ys = try immediate.createColdObservable("(a|)")
        XCTAssertMarbles(immediate.start { ys.map { $0 } }, "(a|)")
    }

    func testColdMarbles_subscriptionMarkerIsAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertThrowsError(try scheduler.createColdObservable("-^-a")) { error in
            XCTAssertEqual(error as? MarbleSyntaxError, MarbleSyntaxError(.subscriptionMarkerInColdObservable, marbles: "-^-a", position: 1))
        }
    }

    func testMarbles_badInputThrowsTypedErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertThrowsError(try scheduler.createHotObservable("^--^")) { error in
            XCTAssertEqual((error as? MarbleSyntaxError)?.kind, .duplicateSubscriptionMarker)
        }
        XCTAssertThrowsError(try scheduler.createColdObservable("-(a")) { error in
            XCTAssertEqual((error as? MarbleSyntaxError)?.kind, .unclosedGroup)
        }
        XCTAssertThrowsError(try scheduler.parseEvents("-|-a")) { error in
            XCTAssertEqual((error as? MarbleSyntaxError)?.kind, .eventAfterTermination)
        }
        XCTAssertThrowsError(try scheduler.createHotObservable("-a-b", values: ["a": 1])) { error in
            XCTAssertEqual((error as? MarbleSyntaxError)?.kind, .unknownValue("b"))
            XCTAssertEqual((error as? MarbleSyntaxError)?.position, 3)
        }
        // Nothing was scheduled by the failed calls.
        XCTAssertNoPendingWork(scheduler)
    }

    func testFrameSize_isConfigurable() throws {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.frameSize, 10)
        scheduler.frameSize = 5
        let xs = try scheduler.createColdObservable("-a|", values: ["a": 1])
        XCTAssertEqual(xs.recordedEvents, [.next(5, 1), .completed(10)])
        let res = scheduler.start { xs.map { $0 } }
        XCTAssertEqual(res.events, [.next(205, 1), .completed(210)])
        XCTAssertEqual(try scheduler.marbles(from: res.events, values: ["a": 1]), "-a|")
        XCTAssertMarbles(res, "-a|", values: ["a": 1])
        XCTAssertMarbles(res.events, "-a|", values: ["a": 1], frameSize: 5)
    }

    func testMarbleOrigin_followsACustomSubscriptionTime() throws {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.marbleOrigin, 200)
        scheduler.marbleOrigin = 300
        let xs = try scheduler.createHotObservable("-a^-b|")
        XCTAssertEqual(xs.recordedEvents, [.next(290, "a"), .next(320, "b"), .completed(330)])
        let res = scheduler.start(created: 100, subscribed: 300, disposed: 1000) { xs.map { $0 } }
        XCTAssertEqual(res.events, try scheduler.parseEvents("--b|"))
        XCTAssertMarbles(res, "--b|")
        XCTAssertMarbles(res.events, "--b|", origin: 300)
    }

    func testParseEvents_expectedResults() throws {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(try scheduler.parseEvents("--a-(b|)", values: ["a": 1, "b": 2]), [.next(220, 1), .next(240, 2), .completed(240)])
        XCTAssertEqual(try scheduler.parseEvents("-a-#"), [.next(210, "a"), .error(230, MarbleError())])
        XCTAssertEqual(try scheduler.parseEvents("a^b", values: ["a": 1, "b": 2]), [.next(190, 1), .next(210, 2)])
    }

    func testMarblesFrom_drawsRecordedEvents() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = try scheduler.createColdObservable("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
            let res = scheduler.start { xs.map { $0 } }
            XCTAssertEqual(try scheduler.marbles(from: res.events, values: ["a": 1, "b": 2, "c": 3]), "-a-b-(c|)")
            XCTAssertEqual(try scheduler.marbles(from: res.events), "-A-B-(C|)")
        }
    }

    func testGuideExamples() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = try scheduler.createHotObservable("-x-^-a--|", values: ["x": 1, "a": 2])
            let res = scheduler.start { xs.map { $0 * 10 } }
            XCTAssertMarbles(res, "--A--|", values: ["A": 20])

            let hot = try scheduler.createHotObservable("--a--^--b--c--|")
            XCTAssertEqual(hot.recordedEvents, [.next(170, "a"), .next(230, "b"), .next(260, "c"), .completed(290)])
            XCTAssertEqual(try scheduler.parseEvents("---b--c--|"), [.next(230, "b"), .next(260, "c"), .completed(290)])
            XCTAssertEqual(try scheduler.parseEvents("---b--|", values: ["b": 2]), [.next(230, 2), .completed(260)])
        }
    }

    func testMarbles_merge() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = try scheduler.createHotObservable("-^-a---c-|")
            let b = try scheduler.createColdObservable("---b-|")
            let res = scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }
            // a: 2 frames after `^`; b: 3 frames after the subscription; c: 6 frames after `^`.
            XCTAssertMarbles(res, "--ab--c-|")
        }
    }
}

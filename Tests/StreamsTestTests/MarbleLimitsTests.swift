import XCTest
import Streams
import StreamsTest

/// Hostile input to the marble helpers: times and frame sizes whose arithmetic overflows `Int`,
/// and events too far apart to draw. Each throws a typed error instead of trapping or building a
/// gigantic string.
final class MarbleLimitsTests: XCTestCase {
    // MARK: Drawing

    func testString_originIntMinThrowsTimeOutOfRange() {
        let events: [Recorded<Event<String>>] = [.next(200, "a")]
        XCTAssertThrowsError(try Marbles.string(from: events, origin: Int.min)) { error in
            XCTAssertEqual(error as? MarbleDrawingError, MarbleDrawingError(.timeOutOfRange(index: 0, time: 200, origin: Int.min)))
        }
        // The other direction: a negative time far below an origin at Int.max.
        XCTAssertThrowsError(try Marbles.string(from: [Recorded<Event<String>>.next(-10, "a")], origin: Int.max)) { error in
            XCTAssertEqual(error as? MarbleDrawingError, MarbleDrawingError(.timeOutOfRange(index: 0, time: -10, origin: Int.max)))
        }
    }

    func testString_eventAtTenToTheTwelveThrowsTooWide() {
        let events: [Recorded<Event<String>>] = [.next(210, "a"), .next(1_000_000_000_000, "b")]
        XCTAssertThrowsError(try Marbles.string(from: events)) { error in
            XCTAssertEqual(
                error as? MarbleDrawingError,
                MarbleDrawingError(
                    .tooWide(
                        frames: 99_999_999_981, firstFrame: 0, lastFrame: 99_999_999_980, limit: Marbles.maximumDrawnFrames)))
            XCTAssertTrue("\(error)".contains("more than the 10000 a drawing may have"), "\(error)")
        }
    }

    func testString_widthLimitIsTenThousandFramesIncludingFrameZero() throws {
        XCTAssertEqual(Marbles.maximumDrawnFrames, 10_000)
        // Frames 0 ... 9 999: exactly the limit.
        let widest = try Marbles.string(from: [Recorded<Event<String>>.next(9_999, "a")], frameSize: 1, origin: 0)
        XCTAssertEqual(widest.count, 10_000)
        XCTAssertThrowsError(try Marbles.string(from: [Recorded<Event<String>>.next(10_000, "a")], frameSize: 1, origin: 0)) { error in
            XCTAssertEqual(error as? MarbleDrawingError, MarbleDrawingError(.tooWide(frames: 10_001, firstFrame: 0, lastFrame: 10_000, limit: 10_000)))
        }
        // Frames before frame 0 count too.
        XCTAssertThrowsError(try Marbles.string(from: [Recorded<Event<String>>.next(-10_000, "a")], frameSize: 1, origin: 0)) { error in
            XCTAssertEqual(error as? MarbleDrawingError, MarbleDrawingError(.tooWide(frames: 10_001, firstFrame: -10_000, lastFrame: 0, limit: 10_000)))
        }
    }

    func testString_framesSpanningAllOfIntAreTooWideNotAnOverflow() {
        let events: [Recorded<Event<String>>] = [.next(Int.min, "a"), .next(Int.max, "b")]
        XCTAssertThrowsError(try Marbles.string(from: events, frameSize: 1, origin: 0)) { error in
            XCTAssertEqual(error as? MarbleDrawingError, MarbleDrawingError(.tooWide(frames: Int.max, firstFrame: Int.min, lastFrame: Int.max, limit: 10_000)))
        }
    }

    func testMarblesFrom_schedulerDrawingThrowsForFarEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertThrowsError(try scheduler.marbles(from: [Recorded<Event<String>>.next(1_000_000_000_000, "a")])) { error in
            guard case .tooWide? = (error as? MarbleDrawingError)?.kind else { return XCTFail("unexpected \(error)") }
        }
    }

    func testMismatch_reportsUndrawableEventsInsteadOfDrawingThem() throws {
        let actual: [Recorded<Event<Int>>] = [.next(1_000_000_000_000, 1)]
        let message = try XCTUnwrap(Marbles.mismatch(actual, "--a", values: ["a": 1]))
        XCTAssertTrue(message.contains("expected: --a\n"), message)
        XCTAssertTrue(message.contains("actual:   (not drawn: marble drawing error: the events span 99999999981 frames"), message)
        XCTAssertTrue(message.contains("first difference at event 0"), message)
        XCTAssertTrue(message.contains("actual events: [\"next(1) @ 1000000000000\"]"), message)
        XCTAssertLessThan(message.count, 1_000)

        let overflowing = try XCTUnwrap(Marbles.mismatch(actual, "a", values: ["a": 1], origin: Int.min))
        XCTAssertTrue(overflowing.contains("actual:   (not drawn: marble drawing error: event 0 at time 1000000000000 is too far from frame 0"), overflowing)
    }

    // MARK: Parsing

    func testRecordedEvents_frameSizeIntMaxOverTwoThrowsTimeOutOfRange() throws {
        let frameSize = Int.max / 2
        // Frame 1 fits ...
        let fits: [Recorded<Event<String>>] = try MarbleDiagram("-a").recordedEvents(frameSize: frameSize, origin: 200)
        XCTAssertEqual(fits, [.next(frameSize + 200, "a")])
        // ... frame 2 is Int.max - 1, and adding the origin overflows.
        XCTAssertThrowsError(try MarbleDiagram("--a").recordedEvents(frameSize: frameSize, origin: 200) as [Recorded<Event<String>>]) { error in
            XCTAssertEqual(
                error as? MarbleSyntaxError, MarbleSyntaxError(.timeOutOfRange(frame: 2, frameSize: frameSize, origin: 200), marbles: "--a", position: 2))
        }
    }

    func testRecordedEvents_frameCountTimesFrameSizeOverflowingIntThrows() {
        // 9 frames of Int.max / 5 ticks: the product itself overflows.
        XCTAssertThrowsError(try MarbleDiagram("---------a|").recordedEvents(frameSize: Int.max / 5) as [Recorded<Event<String>>]) { error in
            XCTAssertEqual(
                error as? MarbleSyntaxError,
                MarbleSyntaxError(.timeOutOfRange(frame: 9, frameSize: Int.max / 5, origin: 0), marbles: "---------a|", position: 9))
            XCTAssertTrue("\(error)".contains("the time of frame 9 (0 + 9 * 1844674407370955161 ticks) overflows TestTime (Int)"), "\(error)")
        }
        // Before `^`: negative frames overflow downwards.
        XCTAssertThrowsError(try MarbleDiagram("a-^").recordedEvents(frameSize: Int.max) as [Recorded<Event<String>>]) { error in
            XCTAssertEqual((error as? MarbleSyntaxError)?.kind, .timeOutOfRange(frame: -2, frameSize: Int.max, origin: 0))
        }
    }

    func testRecordedEvents_nonPositiveFrameSizeThrows() {
        XCTAssertThrowsError(try MarbleDiagram("-a").recordedEvents(frameSize: 0) as [Recorded<Event<String>>]) { error in
            XCTAssertEqual((error as? MarbleSyntaxError)?.kind, .invalidFrameSize(0))
        }
        XCTAssertThrowsError(try MarbleDiagram("-a").recordedEvents(frameSize: -10) as [Recorded<Event<String>>]) { error in
            XCTAssertEqual((error as? MarbleSyntaxError)?.kind, .invalidFrameSize(-10))
        }
    }

    func testScheduler_marblesWithOverflowingTimesThrowAndScheduleNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        scheduler.frameSize = Int.max / 2
        // Cold marbles start at relative time 0: frame 2 still fits, frame 3 does not.
        XCTAssertNoThrow(try scheduler.createColdObservable("--a"))
        XCTAssertThrowsError(try scheduler.createColdObservable("---a")) { error in
            XCTAssertEqual((error as? MarbleSyntaxError)?.kind, .timeOutOfRange(frame: 3, frameSize: Int.max / 2, origin: 0))
        }
        scheduler.frameSize = 10
        scheduler.marbleOrigin = Int.max
        XCTAssertThrowsError(try scheduler.createHotObservable("-a")) { error in
            XCTAssertEqual((error as? MarbleSyntaxError)?.kind, .timeOutOfRange(frame: 1, frameSize: 10, origin: Int.max))
        }
        XCTAssertThrowsError(try scheduler.parseEvents("-a")) { error in
            XCTAssertEqual((error as? MarbleSyntaxError)?.kind, .timeOutOfRange(frame: 1, frameSize: 10, origin: Int.max))
        }
        // The cold observable that fit schedules nothing until it is subscribed.
        XCTAssertNoPendingWork(scheduler)
    }
}

import XCTest
@testable import StreamsTest

/// The marble parser on its own: a pure function from a string to tokens and frames.
final class MarbleDiagramTests: XCTestCase {
    typealias Entry = MarbleDiagram.Entry

    private func parse(_ marbles: String, file: StaticString = #filePath, line: UInt = #line) -> [Entry] {
        do {
            return try MarbleDiagram(marbles).entries
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return []
        }
    }

    private func assertSyntaxError(
        _ marbles: String, _ kind: MarbleSyntaxError.Kind, at position: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            let diagram = try MarbleDiagram(marbles)
            XCTFail("expected \(kind) but parsed \(diagram.entries)", file: file, line: line)
        } catch {
            XCTAssertEqual(error, MarbleSyntaxError(kind, marbles: marbles, position: position), file: file, line: line)
        }
    }

    func testParse_framesAndTerminal() {
        XCTAssertEqual(
            parse("--a--|"),
            [
                Entry(frame: 2, token: .value("a"), position: 2),
                Entry(frame: 5, token: .completed, position: 5),
            ])
        XCTAssertEqual(parse("#"), [Entry(frame: 0, token: .error, position: 0)])
        XCTAssertEqual(parse(""), [])
        XCTAssertEqual(parse("-----"), [])
    }

    func testParse_groupSharesFrameAndTakesItsWidth() {
        // ( a b ) each take one frame: the next token after `)` is at frame 4.
        XCTAssertEqual(
            parse("(ab)c"),
            [
                Entry(frame: 0, token: .value("a"), position: 1),
                Entry(frame: 0, token: .value("b"), position: 2),
                Entry(frame: 4, token: .value("c"), position: 4),
            ])
        XCTAssertEqual(
            parse("a(b|)"),
            [
                Entry(frame: 0, token: .value("a"), position: 0),
                Entry(frame: 1, token: .value("b"), position: 2),
                Entry(frame: 1, token: .completed, position: 3),
            ])
        XCTAssertEqual(parse("-()-a"), [Entry(frame: 4, token: .value("a"), position: 4)])
    }

    func testParse_subscriptionMarkerIsFrameZero() throws {
        XCTAssertEqual(
            parse("--a--^--b--|"),
            [
                Entry(frame: -3, token: .value("a"), position: 2),
                Entry(frame: 3, token: .value("b"), position: 8),
                Entry(frame: 6, token: .completed, position: 11),
            ])
        XCTAssertEqual(try MarbleDiagram("--a--^--b--|").subscriptionPosition, 5)
        XCTAssertNil(try MarbleDiagram("--a--|").subscriptionPosition)
        XCTAssertEqual(parse("^a"), [Entry(frame: 1, token: .value("a"), position: 1)])
        // `^` may follow the end of a hot observable (the subscriber then sees nothing).
        XCTAssertEqual(
            parse("a|-^"),
            [
                Entry(frame: -3, token: .value("a"), position: 0),
                Entry(frame: -2, token: .completed, position: 1),
            ])
    }

    func testParse_spacesAreIgnored() {
        XCTAssertEqual(
            parse("  --a  --|"),
            [
                Entry(frame: 2, token: .value("a"), position: 4),
                Entry(frame: 5, token: .completed, position: 9),
            ])
        XCTAssertEqual(parse("( a b )"), parse("(ab)").map { Entry(frame: $0.frame, token: $0.token, position: $0.position * 2) })
    }

    func testParse_dashesAndGroupsAfterTerminalAreAllowed() {
        XCTAssertEqual(parse("-|--()"), [Entry(frame: 1, token: .completed, position: 1)])
    }

    func testParse_anyOtherCharacterIsAValue() {
        XCTAssertEqual(parse("1x☃").map(\.token), [.value("1"), .value("x"), .value("☃")])
    }

    func testParse_errors() {
        assertSyntaxError("--(a", .unclosedGroup, at: 2)
        assertSyntaxError("--a)", .unopenedGroup, at: 3)
        assertSyntaxError("((a))", .nestedGroup, at: 1)
        assertSyntaxError("^-^", .duplicateSubscriptionMarker, at: 2)
        assertSyntaxError("(^a)", .misplacedInGroup("^"), at: 1)
        assertSyntaxError("(a-b)", .misplacedInGroup("-"), at: 2)
        assertSyntaxError("--|a", .eventAfterTermination, at: 3)
        assertSyntaxError("--#-|", .eventAfterTermination, at: 4)
        assertSyntaxError("(a|b)", .eventAfterTermination, at: 3)
        assertSyntaxError("-#(a)", .eventAfterTermination, at: 3)
    }

    func testSyntaxError_descriptionPointsAtPosition() {
        let error = MarbleSyntaxError(.eventAfterTermination, marbles: "--a--|b", position: 6)
        XCTAssertEqual(
            error.description,
            """
            marble syntax error: event after the terminal event `|` or `#` at position 6
              --a--|b
                    ^
            """)
        XCTAssertTrue(MarbleSyntaxError(.unknownValue("x"), marbles: "x", position: 0).description.contains("no value for `x`"))
    }

    func testRecordedEvents_usesValuesFrameSizeAndOrigin() throws {
        struct Boom: Error {}
        let diagram = try Marbles.parse("-a-(b#)")
        let events: [Recorded<Event<Int>>] = try diagram.recordedEvents(values: ["a": 1, "b": 2], error: Boom(), frameSize: 5, origin: 100)
        XCTAssertEqual(events, [.next(105, 1), .next(115, 2), .error(115, Boom())])
    }

    func testRecordedEvents_defaultsAreTenTicksFromZeroAndMarbleError() throws {
        let events: [Recorded<Event<Int>>] = try MarbleDiagram("-a-#").recordedEvents(values: ["a": 7])
        XCTAssertEqual(events, [.next(10, 7), .error(30, MarbleError())])
    }

    func testRecordedEvents_stringAndCharacterValuesDefaultToTheCharacter() throws {
        let strings: [Recorded<Event<String>>] = try MarbleDiagram("ab").recordedEvents(values: ["b": "bee"])
        XCTAssertEqual(strings, [.next(0, "a"), .next(10, "bee")])
        let characters: [Recorded<Event<Character>>] = try MarbleDiagram("a").recordedEvents()
        XCTAssertEqual(characters, [.next(0, "a")])
    }

    func testRecordedEvents_unknownValueIsATypedError() throws {
        let diagram = try MarbleDiagram("-a-x|")
        XCTAssertThrowsError(try diagram.recordedEvents(values: ["a": 1]) as [Recorded<Event<Int>>]) { error in
            XCTAssertEqual(error as? MarbleSyntaxError, MarbleSyntaxError(.unknownValue("x"), marbles: "-a-x|", position: 3))
        }
    }
}

/// Drawing events as marbles: the inverse of parsing.
final class MarbleDrawingTests: XCTestCase {
    func testString_basic() throws {
        let events: [Recorded<Event<String>>] = [.next(220, "a"), .completed(250)]
        XCTAssertEqual(try Marbles.string(from: events), "--a--|")
        XCTAssertEqual(try Marbles.string(from: [Recorded<Event<String>>]()), "")
    }

    func testString_valuesThatWouldMergeGetInventedCharacters() throws {
        // "a" then a lone combining mark would draw as one character (the fuzz finding).
        let grouped: [Recorded<Event<String>>] = [.next(200, "â"), .next(200, "\u{035A}"), .next(200, "x")]
        XCTAssertEqual(try Marbles.string(from: grouped), "(ABx)")
        let apart: [Recorded<Event<String>>] = [.next(200, "â"), .next(210, "\u{035A}")]
        XCTAssertEqual(try Marbles.string(from: apart), "AB")
        let fine: [Recorded<Event<String>>] = [.next(200, "â"), .next(210, "é")]
        XCTAssertEqual(try Marbles.string(from: fine), "âé", "drawn as themselves when nothing merges")
    }

    func testString_sameFrameIsAGroup() throws {
        let events: [Recorded<Event<Int>>] = [.next(210, 1), .next(210, 2), .completed(210)]
        XCTAssertEqual(try Marbles.string(from: events, values: ["a": 1, "b": 2]), "-(ab|)")
    }

    func testString_eventsBeforeOriginGetACaret() throws {
        let events: [Recorded<Event<String>>] = [.next(170, "a"), .next(230, "b"), .completed(260)]
        // The drawing starts at the first event: leading frames before it are not drawn.
        XCTAssertEqual(try Marbles.string(from: events), "a--^--b--|")
        XCTAssertEqual(try Marbles.string(from: [Recorded<Event<String>>.next(190, "a")]), "a^")
    }

    func testString_errorAndFrameSizeAndOrigin() throws {
        let events: [Recorded<Event<Int>>] = [.next(5, 1), .error(15, MarbleError())]
        XCTAssertEqual(try Marbles.string(from: events, values: ["x": 1], frameSize: 5, origin: 0), "-x-#")
    }

    func testString_unknownValuesGetInventedCharacters() throws {
        let events: [Recorded<Event<Int>>] = [.next(200, 42), .next(210, 7), .next(220, 42)]
        XCTAssertEqual(try Marbles.string(from: events, values: ["a": 1]), "ABA")
        // Multi-character strings can't stand for themselves either.
        XCTAssertEqual(try Marbles.string(from: [Recorded.next(200, "hello")]), "A")
        // A single-character string that is a key for another value can't stand for itself.
        XCTAssertEqual(try Marbles.string(from: [Recorded.next(200, "a")], values: ["a": "x"]), "A")
    }

    func testString_roundTripsCanonicalMarbles() throws {
        for marbles in ["--a--|", "-(ab|)", "a-b-c", "--#", "(abc)-d-|", "a--^--b--|", "(ab)^", "|"] {
            let events: [Recorded<Event<String>>] = try MarbleDiagram(marbles).recordedEvents(origin: 200)
            XCTAssertEqual(try Marbles.string(from: events), marbles, "round trip of \(marbles)")
        }
    }

    func testString_drawsEquivalentMarblesForNonCanonicalInput() throws {
        for (marbles, canonical) in ["--a--^--b--|": "a--^--b--|", "^-a": "--a", " - a ": "-a", "-a-|---": "-a-|"] {
            let events: [Recorded<Event<String>>] = try MarbleDiagram(marbles).recordedEvents(origin: 200)
            let drawn = try Marbles.string(from: events)
            XCTAssertEqual(drawn, canonical, "drawing of \(marbles)")
            XCTAssertEqual(try MarbleDiagram(drawn).recordedEvents(origin: 200), events, "events of \(marbles)")
        }
    }

    func testDrawing_flagsApproximations() throws {
        let offGrid = try Marbles.drawing(of: [Recorded<Event<String>>.next(201, "a")], values: [:], frameSize: 10, origin: 200)
        XCTAssertEqual(offGrid.text, "a")
        XCTAssertFalse(offGrid.isExact)
        // A group of 3 takes 5 frames; an event in frame 2 can only be drawn after it.
        let overlap = try Marbles.drawing(
            of: [Recorded<Event<String>>.next(200, "a"), .next(200, "b"), .next(200, "c"), .next(220, "d")],
            values: [:], frameSize: 10, origin: 200)
        XCTAssertEqual(overlap.text, "(abc)d")
        XCTAssertFalse(overlap.isExact)
        let exact = try Marbles.drawing(of: [Recorded<Event<String>>.next(250, "a")], values: [:], frameSize: 10, origin: 200)
        XCTAssertTrue(exact.isExact)
    }

    func testMismatch_nilWhenEqual() {
        let events: [Recorded<Event<Int>>] = [.next(220, 1), .completed(250)]
        XCTAssertNil(Marbles.mismatch(events, "--a--|", values: ["a": 1]))
        XCTAssertNil(Marbles.mismatch(events, "  --a  --|", values: ["a": 1]))
    }

    func testMismatch_showsBothDrawingsAndACaret() throws {
        let events: [Recorded<Event<Int>>] = [.next(220, 1), .next(250, 3), .completed(280)]
        let message = try XCTUnwrap(Marbles.mismatch(events, "--a--b--|", values: ["a": 1, "b": 2, "c": 3]))
        XCTAssertEqual(
            message,
            """
            events do not match "--a--b--|" (frame = 10 ticks, frame 0 = time 200)
              expected: --a--b--|
              actual:   --a--c--|
                             ^
              first difference at event 1: expected next(2) @ 250, actual next(3) @ 250
            """)
    }

    func testMismatch_missingExtraLegendAndApproximation() throws {
        let short = try XCTUnwrap(Marbles.mismatch([Recorded.next(220, 1)], "--a--|", values: ["a": 1]))
        XCTAssertTrue(short.contains("missing events from index 1: [\"completed @ 250\"]"), short)

        let extra = try XCTUnwrap(Marbles.mismatch([Recorded.next(220, 1), .next(230, 9)], "--a", values: ["a": 1]))
        XCTAssertTrue(extra.contains("actual:   --aA"), extra)
        XCTAssertTrue(extra.contains("unexpected extra events from index 1"), extra)
        XCTAssertTrue(extra.contains("legend (values not in `values:`): A = 9"), extra)

        let late = try XCTUnwrap(Marbles.mismatch([Recorded.next(221, 1)], "--a", values: ["a": 1]))
        XCTAssertTrue(late.contains("note: some actual events are off the frame grid"), late)
        XCTAssertTrue(late.contains("next(1) @ 221"), late)
    }

    func testMismatch_sameDrawingDifferentError() throws {
        struct Boom: Error {}
        let message = try XCTUnwrap(Marbles.mismatch([Recorded<Event<Int>>.error(200, Boom())], "#"))
        XCTAssertTrue(message.contains("expected: #\n  actual:   #\n  first difference at event 0"), message)
    }

    func testMismatch_invalidFrameSizeIsReportedNotACrash() throws {
        XCTAssertEqual(Marbles.mismatch([Recorded<Event<Int>>](), "-", frameSize: 0), "invalid marble frame size 0: it must be positive")
        XCTAssertEqual(try Marbles.string(from: [Recorded.next(202, "a")], frameSize: 0), "--a")
    }

    func testMismatch_invalidExpectedMarbles() throws {
        let message = try XCTUnwrap(Marbles.mismatch([Recorded<Event<Int>>](), "--(a"))
        XCTAssertTrue(message.hasPrefix("invalid expected marbles: marble syntax error: group `(` is never closed at position 2"), message)
    }
}

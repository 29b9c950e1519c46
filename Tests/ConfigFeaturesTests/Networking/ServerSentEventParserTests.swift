import Foundation
import XCTest
import ConfigFeatures

final class ServerSentEventParserTests: XCTestCase {
    // MARK: - Helpers

    /// Parses `bytes` in one chunk, then ends the stream.
    private func parse(_ bytes: [UInt8]) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return parser.feed(bytes) + parser.finish()
    }

    private func parse(_ text: String) -> [ServerSentEvent] {
        parse(Array(text.utf8))
    }

    /// Parses `bytes` cut at `cuts` (sorted offsets), then ends the stream.
    private func parse(_ bytes: [UInt8], cuts: [Int]) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var start = 0
        for cut in cuts + [bytes.count] {
            events += parser.feed(bytes[start..<cut])
            start = cut
        }
        return events + parser.finish()
    }

    /// Asserts that every way of splitting `bytes` in two (and three, for short streams) and
    /// feeding it byte by byte gives `expected`.
    private func assertEverySplit(_ bytes: [UInt8], _ expected: [ServerSentEvent], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(parse(bytes), expected, "one chunk", file: file, line: line)
        for cut in 0...bytes.count {
            let events = parse(bytes, cuts: [cut])
            if events != expected {
                XCTFail("split at \(cut): \(events)", file: file, line: line)
                return
            }
        }
        if bytes.count <= 120 {
            for first in 0...bytes.count {
                for second in first...bytes.count where parse(bytes, cuts: [first, second]) != expected {
                    XCTFail("split at \(first), \(second)", file: file, line: line)
                    return
                }
            }
        }
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for byte in bytes { events += parser.feed(CollectionOfOne(byte)) }
        events += parser.finish()
        XCTAssertEqual(events, expected, "byte by byte", file: file, line: line)
    }

    private func assertEverySplit(_ text: String, _ expected: [ServerSentEvent], file: StaticString = #filePath, line: UInt = #line) {
        assertEverySplit(Array(text.utf8), expected, file: file, line: line)
    }

    // MARK: - The spec's examples

    func testServerSentEventParser_multipleDataLinesAreJoinedWithLineFeeds() {
        assertEverySplit("data: YHOO\ndata: +2\ndata: 10\n\n", [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    func testServerSentEventParser_commentsIDsAndTheLeadingSpace() {
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        assertEverySplit(
            stream,
            [
                ServerSentEvent(data: "first event", lastEventID: "1"),
                ServerSentEvent(data: "second event", lastEventID: ""),
                ServerSentEvent(data: " third event", lastEventID: ""),
            ])
    }

    func testServerSentEventParser_emptyDataFieldsAndAnUnterminatedLastBlock() {
        assertEverySplit(
            "data\n\ndata\ndata\n\ndata:",
            [
                ServerSentEvent(data: ""),
                ServerSentEvent(data: "\n"),
            ])
    }

    func testServerSentEventParser_onlyOneLeadingSpaceIsRemoved() {
        assertEverySplit("data:test\n\ndata: test\n\n", [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")])
    }

    // MARK: - Fields

    func testServerSentEventParser_eventTypeDefaultsToMessageAndResetsAfterDispatch() {
        assertEverySplit(
            "event: put\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n",
            [
                ServerSentEvent(type: "put", data: "1"),
                ServerSentEvent(type: "message", data: "2"),
                ServerSentEvent(type: "message", data: "3"),
            ])
    }

    func testServerSentEventParser_lastEventTypeFieldWins() {
        assertEverySplit("event: a\nevent: b\ndata: x\n\n", [ServerSentEvent(type: "b", data: "x")])
    }

    func testServerSentEventParser_eventWithoutDataIsNotDispatchedButResetsTheType() {
        assertEverySplit("event: put\n\ndata: x\n\n", [ServerSentEvent(type: "message", data: "x")])
    }

    func testServerSentEventParser_lastEventIDPersistsAcrossEvents() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.lastEventID, "")
        let events = parser.feed("id: 7\ndata: a\n\ndata: b\n\nid: 8\n\ndata: c\n\n".utf8)
        XCTAssertEqual(
            events,
            [
                ServerSentEvent(data: "a", lastEventID: "7"),
                ServerSentEvent(data: "b", lastEventID: "7"),
                ServerSentEvent(data: "c", lastEventID: "8"),
            ])
        XCTAssertEqual(parser.lastEventID, "8")
    }

    func testServerSentEventParser_lastEventIDIsSetWhenTheBlockEndsEvenWithoutData() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.feed("id: 5\n".utf8), [])
        XCTAssertEqual(parser.lastEventID, "", "the id is only buffered until the block ends")
        XCTAssertEqual(parser.feed("\n".utf8), [])
        XCTAssertEqual(parser.lastEventID, "5")
    }

    func testServerSentEventParser_idContainingNullIsIgnored() {
        assertEverySplit(
            Array("id: 1\ndata: a\n\nid: 2".utf8) + [0] + Array("x\ndata: b\n\n".utf8),
            [
                ServerSentEvent(data: "a", lastEventID: "1"),
                ServerSentEvent(data: "b", lastEventID: "1"),
            ])
    }

    func testServerSentEventParser_retryAcceptsOnlyASCIIDigits() {
        var parser = ServerSentEventParser()
        XCTAssertNil(parser.reconnectionTime)
        _ = parser.feed("retry: 1500\n".utf8)
        XCTAssertEqual(parser.reconnectionTime, 1500, "set at once, without a blank line")
        for ignored in ["retry: 15a\n", "retry: -1\n", "retry: 1.5\n", "retry:\n", "retry\n", "retry:  20\n", "retry: ２\n"] {
            _ = parser.feed(ignored.utf8)
            XCTAssertEqual(parser.reconnectionTime, 1500, ignored)
        }
        _ = parser.feed("retry:0\n".utf8)
        XCTAssertEqual(parser.reconnectionTime, 0)
        _ = parser.feed("retry: 99999999999999999999999999\n".utf8)
        XCTAssertEqual(parser.reconnectionTime, Int.max, "saturates")
    }

    func testServerSentEventParser_unknownFieldsAndFieldsWithoutColonAreIgnored() {
        assertEverySplit("foo: bar\nData: x\ndata\u{20}: y\nid2: 3\n:data: z\ndata: ok\n\n", [ServerSentEvent(data: "ok")])
    }

    func testServerSentEventParser_valueKeepsLaterColonsAndSpaces() {
        assertEverySplit("data: {\"path\":\"/\", \"data\": null}  \n\n", [ServerSentEvent(data: "{\"path\":\"/\", \"data\": null}  ")])
    }

    // MARK: - Line ends

    func testServerSentEventParser_acceptsCRLFAndLFAndCRLineEnds() {
        let expected = [ServerSentEvent(type: "put", data: "a\nb", lastEventID: "1"), ServerSentEvent(data: "c", lastEventID: "1")]
        assertEverySplit("event: put\r\ndata: a\r\ndata: b\r\nid: 1\r\n\r\ndata: c\r\n\r\n", expected)
        assertEverySplit("event: put\rdata: a\rdata: b\rid: 1\r\rdata: c\r\r", expected)
        assertEverySplit("event: put\ndata: a\rdata: b\r\nid: 1\n\r\ndata: c\r\n\n", expected)
    }

    func testServerSentEventParser_crlfIsOneLineEndButLFCRIsTwo() {
        // "\r\n" ends one line: no blank line, so no event until the final blank line.
        assertEverySplit("data: a\r\ndata: b\r\n\r\n", [ServerSentEvent(data: "a\nb")])
        // "\n\r" is two line ends: the second one is a blank line.
        assertEverySplit("data: a\n\rdata: b\n\r", [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")])
        // "\r\r\n" is two line ends too.
        assertEverySplit("data: a\r\r\ndata: b\r\r\n", [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")])
    }

    func testServerSentEventParser_crAtTheEndOfAChunkAndLFAtTheStartOfTheNext() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.feed("data: a\r".utf8), [])
        XCTAssertEqual(parser.feed("\ndata: b\r".utf8), [], "the LF completes the CR: no blank line")
        XCTAssertEqual(parser.feed("\n\r".utf8), [ServerSentEvent(data: "a\nb")])
        XCTAssertEqual(parser.feed("\n".utf8), [], "the LF after the blank line's CR is part of it")
        XCTAssertEqual(parser.feed("data: c\r".utf8), [])
        XCTAssertEqual(parser.feed([]), [], "an empty chunk keeps the pending CR")
        XCTAssertEqual(parser.feed("\n".utf8), [])
        XCTAssertEqual(parser.feed("\r".utf8), [ServerSentEvent(data: "c")])
    }

    func testServerSentEventParser_eventsAreReturnedAsSoonAsTheBlankLineArrives() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.feed("data: a\n".utf8), [])
        XCTAssertEqual(parser.feed("\n".utf8), [ServerSentEvent(data: "a")])
        XCTAssertEqual(parser.feed("data: b\r".utf8), [])
        XCTAssertEqual(parser.feed("\r".utf8), [ServerSentEvent(data: "b")], "a CR ends the line without waiting for an LF")
    }

    // MARK: - End of stream

    func testServerSentEventParser_finishDiscardsTheIncompleteEvent() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.feed("data: a\n\ndata: b\n".utf8), [ServerSentEvent(data: "a")])
        XCTAssertEqual(parser.finish(), [])
        XCTAssertEqual(parse("data: partial"), [])
        XCTAssertEqual(parse("id: 3\ndata: x\n"), [])
    }

    func testServerSentEventParser_finishStartsANewStreamKeepingTheEventSourceState() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.feed("retry: 10\nid: 4\ndata: a\n\nevent: put\ndata: half".utf8), [ServerSentEvent(data: "a", lastEventID: "4")])
        parser.finish()
        XCTAssertEqual(parser.lastEventID, "4")
        XCTAssertEqual(parser.reconnectionTime, 10)
        // A new stream: the buffers are empty again and a byte order mark is skipped again.
        XCTAssertEqual(parser.feed([0xEF, 0xBB, 0xBF] + Array("data: b\n\n".utf8)), [ServerSentEvent(data: "b", lastEventID: "")])
    }

    // MARK: - Encoding

    func testServerSentEventParser_leadingByteOrderMarkIsSkippedOnce() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        assertEverySplit(bom + Array("data: a\n\n".utf8), [ServerSentEvent(data: "a")])
        // A second one belongs to the field name, which is then unknown.
        assertEverySplit(bom + bom + Array("data: a\n\ndata: b\n\n".utf8), [ServerSentEvent(data: "b")])
        // Only at the very start of the stream.
        assertEverySplit(Array("data: a\n\n".utf8) + bom + Array("data: b\n\n".utf8), [ServerSentEvent(data: "a")])
        assertEverySplit(Array("\n".utf8) + bom + Array("data: b\n\n".utf8), [])
        assertEverySplit(Array("data: ".utf8) + bom + Array("b\n\n".utf8), [ServerSentEvent(data: "\u{FEFF}b")])
    }

    func testServerSentEventParser_multiByteCharactersSplitAcrossChunks() {
        let text = "event: ünïcødé\ndata: 日本語 😀 é\nid: ✓\n\n"
        assertEverySplit(text, [ServerSentEvent(type: "ünïcødé", data: "日本語 😀 é", lastEventID: "✓")])
    }

    func testServerSentEventParser_invalidUTF8BecomesReplacementCharacters() {
        // A lone continuation byte, a truncated 3-byte sequence before the line end, an
        // overlong encoding and a byte that never appears in UTF-8.
        let bytes: [UInt8] =
            Array("data: a".utf8) + [0x80] + Array("b".utf8) + [0xE6, 0x97] + Array("\ndata: ".utf8) + [0xC0, 0xAF, 0xFF] + Array("\n\n".utf8)
        assertEverySplit(bytes, [ServerSentEvent(data: "a\u{FFFD}b\u{FFFD}\n\u{FFFD}\u{FFFD}\u{FFFD}")])
    }

    func testServerSentEventParser_truncatedCharacterAtTheEndOfTheStreamIsDiscardedWithTheEvent() {
        XCTAssertEqual(parse(Array("data: a\n\ndata: ".utf8) + [0xF0, 0x9F]), [ServerSentEvent(data: "a")])
    }

    // MARK: - Sizes

    func testServerSentEventParser_hugeMultiLineData() {
        let lineText = String(repeating: "0123456789abcdef", count: 64)  // 1 KiB
        let lineCount = 2_000
        var text = "event: put\n"
        for index in 0..<lineCount { text += "data: \(index) \(lineText)\n" }
        text += "\n"
        let expected = (0..<lineCount).map { "\($0) \(lineText)" }.joined(separator: "\n")
        let bytes = Array(text.utf8)
        XCTAssertEqual(parse(bytes), [ServerSentEvent(type: "put", data: expected)])
        // In chunks of awkward sizes.
        for chunkSize in [1_000, 4_093, 65_536] {
            let cuts = Array(stride(from: chunkSize, to: bytes.count, by: chunkSize))
            XCTAssertEqual(parse(bytes, cuts: cuts), [ServerSentEvent(type: "put", data: expected)], "chunk size \(chunkSize)")
        }
    }

    func testServerSentEventParser_hugeSingleLine() {
        let value = String(repeating: "x", count: 1_000_000)
        let bytes = Array("data: \(value)\n\n".utf8)
        let cuts = Array(stride(from: 777, to: bytes.count, by: 777))
        XCTAssertEqual(parse(bytes, cuts: cuts), [ServerSentEvent(data: value)])
    }

    func testServerSentEventParser_manyEventsInOneChunk() {
        var text = ""
        for index in 0..<1_000 { text += "event: e\(index % 3)\ndata: \(index)\n\n" }
        let events = parse(text)
        XCTAssertEqual(events.count, 1_000)
        XCTAssertEqual(events.last, ServerSentEvent(type: "e0", data: "999"))
    }

    // MARK: - Inputs

    func testServerSentEventParser_acceptsDataAndNonContiguousSequences() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.feed(Data("data: a\n\n".utf8)), [ServerSentEvent(data: "a")])
        XCTAssertEqual(parser.feed("data: b\n\n".utf8.lazy.map { $0 }), [ServerSentEvent(data: "b")])
        XCTAssertEqual(parser.feed(AnySequence(Array("data: c\n\n".utf8))), [ServerSentEvent(data: "c")])
    }

    func testServerSentEventParser_firebaseRealtimeDatabaseStream() {
        let stream = """
            event: put
            data: {"path":"/","data":{"a":1,"b":{"c":true}}}

            event: keep-alive
            data: null

            event: patch
            data: {"path":"/b","data":{"c":false,"d/e":"x"}}


            """
        assertEverySplit(
            stream,
            [
                ServerSentEvent(type: "put", data: #"{"path":"/","data":{"a":1,"b":{"c":true}}}"#),
                ServerSentEvent(type: "keep-alive", data: "null"),
                ServerSentEvent(type: "patch", data: #"{"path":"/b","data":{"c":false,"d/e":"x"}}"#),
            ])
    }

    func testServerSentEvent_description() {
        XCTAssertEqual(ServerSentEvent(type: "put", data: "1").description, "put: 1")
        XCTAssertEqual(ServerSentEvent(data: "x", lastEventID: "9").description, "message(id: 9): x")
    }
}

import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// Issue 14, item 5: what the stream decoders buffer is capped, and a stream past the cap ends
/// with a typed error.
final class StreamBufferLimitTests: XCTestCase {
    private let chunk = Data(repeating: UInt8(ascii: "x"), count: 64 * 1024)

    func testParser_aLineWithoutALineEndStopsAtTheDefaultCap() {
        // Before: a 32 MiB line without a line end was buffered whole, with no error.
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.maximumEventSize, 16 * 1024 * 1024)
        XCTAssertEqual(parser.feed(Data("event: put\ndata: {\"path\":\"/\",\"data\":1}\n\ndata: ".utf8)).map(\.data), [#"{"path":"/","data":1}"#])
        var fed = 0
        while fed < 32 * 1024 * 1024, parser.failure == nil {
            XCTAssertEqual(parser.feed(chunk), [])
            fed += chunk.count
        }
        XCTAssertEqual(parser.failure, .eventTooLarge(limit: 16 * 1024 * 1024))
        XCTAssertLessThanOrEqual(fed, 16 * 1024 * 1024 + chunk.count, "stopped at the cap")
        XCTAssertEqual(parser.feed(Data("\n\ndata: late\n\n".utf8)), [], "nothing after the failure")
        XCTAssertEqual(ServerSentEventError.eventTooLarge(limit: 8).description, "server-sent event larger than 8 bytes")
    }

    func testParser_capCountsTheEventsDataLinesAndAllowsExactlyTheLimit() {
        var parser = ServerSentEventParser(maximumEventSize: 26)
        // While the second line is read: its 15 raw bytes plus the 11 of data so far
        // ("0123456789\n") are exactly 26.
        XCTAssertEqual(parser.feed(Data("data: 0123456789\ndata: 012345678\n\n".utf8)).map(\.data), ["0123456789\n012345678"])
        XCTAssertNil(parser.failure)
        XCTAssertEqual(parser.feed(Data("data: 0123456789\ndata: 0123456789\n\n".utf8)), [])
        XCTAssertEqual(parser.failure, .eventTooLarge(limit: 26))
    }

    func testFirebaseRESTDatabase_anEventPastTheCapFailsTheObservation() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let transport = FakeHTTPTransport(scheduler: scheduler)
            let db = FirebaseRESTDatabase(
                databaseURL: URL(string: "https://db.test")!, scheduler: scheduler, randomSource: { 0.5 }, maximumEventSize: 1024, transport: transport)
            scheduler.scheduleAt(300) {
                transport.streams[0].open()
                transport.streams[0].send(ssePut("/", ["a": 1]) + "event: put\ndata: " + String(repeating: "x", count: 600))
            }
            scheduler.scheduleAt(310) { transport.streams[0].send(String(repeating: "x", count: 600)) }
            let res = scheduler.start { db.observeValue(at: "x") }
            XCTAssertEqual(res.events.count, 2)
            XCTAssertEqual(res.events.first, .next(301, ["a": 1]))
            XCTAssertEqual(res.events.last?.time, 311)
            XCTAssertEqual(res.events.last?.value.error as? ServerSentEventError, .eventTooLarge(limit: 1024))
            XCTAssertEqual(transport.streams.count, 1, "not reconnected: the same event would come again")
            XCTAssertTrue(transport.streams[0].isDisposed)
        }
    }

    func testRemoteConfigRealtime_aMessagePastTheCapEndsTheStreamTyped() {
        var decoder = RemoteConfigInvalidationDecoder(maximumObjectSize: 1024)
        XCTAssertEqual(decoder.feed(Data(#"[{"latestTemplateVersionNumber": 2},"#.utf8)).count, 1)
        var results: [Result<RemoteConfigInvalidation, RemoteConfigBackendError>] = []
        var fed = 0
        while results.isEmpty, fed < 32 * 1024 * 1024 {
            results = decoder.feed(fed == 0 ? Data(#"{"x": ""#.utf8) + chunk : chunk)
            fed += chunk.count
        }
        XCTAssertEqual(fed, chunk.count, "stopped in the first chunk past the cap")
        XCTAssertEqual(results, [.failure(.messageTooLarge(limit: 1024))])
        XCTAssertEqual(decoder.feed(Data("}".utf8)), [])
        XCTAssertEqual(HTTPRemoteConfigBackend(project: "p", apiKey: "k", appID: "a").maximumRealtimeMessageSize, 1 << 20)
        XCTAssertEqual(HTTPRemoteConfigBackend(project: "p", apiKey: "k", appID: "a", maximumRealtimeMessageSize: 4096).maximumRealtimeMessageSize, 4096)
    }
}

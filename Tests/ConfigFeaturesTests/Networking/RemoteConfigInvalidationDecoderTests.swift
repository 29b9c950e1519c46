import Foundation
import XCTest
@testable import ConfigFeatures

final class RemoteConfigInvalidationDecoderTests: XCTestCase {
    private typealias Results = [Result<RemoteConfigInvalidation, RemoteConfigBackendError>]

    /// Feeds `text` cut at `cuts`, then ends the stream (a truncation error is appended).
    private func decode(_ bytes: [UInt8], cuts: [Int] = []) -> Results {
        var decoder = RemoteConfigInvalidationDecoder()
        var results: Results = []
        var start = 0
        for cut in cuts + [bytes.count] {
            results += decoder.feed(bytes[start..<cut])
            start = cut
        }
        if let error = decoder.finish() { results.append(.failure(error)) }
        return results
    }

    private func assertEverySplit(_ text: String, _ expected: Results, file: StaticString = #filePath, line: UInt = #line) {
        let bytes = Array(text.utf8)
        XCTAssertEqual(decode(bytes), expected, "one chunk", file: file, line: line)
        for cut in 0...bytes.count where decode(bytes, cuts: [cut]) != expected {
            return XCTFail("split at \(cut): \(decode(bytes, cuts: [cut]))", file: file, line: line)
        }
        if bytes.count <= 150 {
            for first in 0...bytes.count {
                for second in first...bytes.count where decode(bytes, cuts: [first, second]) != expected {
                    return XCTFail("split at \(first), \(second)", file: file, line: line)
                }
            }
        }
        XCTAssertEqual(decode(bytes, cuts: Array(0..<bytes.count)), expected, "byte by byte", file: file, line: line)
    }

    private func isInvalidResponse(_ result: Result<RemoteConfigInvalidation, RemoteConfigBackendError>?) -> Bool {
        if case .failure(.invalidResponse)? = result { return true }
        return false
    }

    func testRemoteConfigInvalidationDecoder_decodesAStreamedArray() {
        let stream = """
            [{
              "latestTemplateVersionNumber": "12"
            }
            ,{"latestTemplateVersionNumber": 13, "featureDisabled": false, "retryIntervalSeconds": "30"},
            {"latestTemplateVersionNumber":14,"featureDisabled":true,"retryIntervalSeconds":2.5}]
            """
        assertEverySplit(
            stream,
            [
                .success(RemoteConfigInvalidation(latestTemplateVersion: 12)),
                .success(RemoteConfigInvalidation(latestTemplateVersion: 13, featureDisabled: false, retryInterval: 30)),
                .success(RemoteConfigInvalidation(latestTemplateVersion: 14, featureDisabled: true, retryInterval: 2.5)),
            ])
    }

    func testRemoteConfigInvalidationDecoder_bracesAndQuotesInsideStringsDoNotEndAnObject() {
        let stream = #"[{"note":"a } b { \" } \\","nested":{"x":[{"y":"}"}]},"latestTemplateVersionNumber":"7","ü":"é😀"}]"#
        assertEverySplit(stream, [.success(RemoteConfigInvalidation(latestTemplateVersion: 7))])
    }

    func testRemoteConfigInvalidationDecoder_returnsEachObjectAsSoonAsItCloses() {
        var decoder = RemoteConfigInvalidationDecoder()
        XCTAssertEqual(decoder.feed("[".utf8), [])
        XCTAssertEqual(decoder.feed(#"{"latestTemplateVersionNumber": 1"#.utf8), [])
        XCTAssertEqual(decoder.feed("}".utf8), [.success(RemoteConfigInvalidation(latestTemplateVersion: 1))])
        XCTAssertEqual(decoder.feed(",\n".utf8), [])
        XCTAssertEqual(
            decoder.feed(#"{"latestTemplateVersionNumber": 2}, {"latestTemplateVersionNumber": 3}"#.utf8),
            [
                .success(RemoteConfigInvalidation(latestTemplateVersion: 2)),
                .success(RemoteConfigInvalidation(latestTemplateVersion: 3)),
            ])
        XCTAssertNil(decoder.finish(), "ending between objects is fine (the connection dropped)")
    }

    func testRemoteConfigInvalidationDecoder_featureDisabledWithoutVersion() {
        assertEverySplit(#"[{"featureDisabled":true}]"#, [.success(RemoteConfigInvalidation(latestTemplateVersion: 0, featureDisabled: true))])
    }

    func testRemoteConfigInvalidationDecoder_malformedObjectsFailAndStopTheDecoder() {
        for object in [
            #"{}"#,
            #"{"featureDisabled":false}"#,
            #"{"latestTemplateVersionNumber":"x"}"#,
            #"{"latestTemplateVersionNumber":1.5}"#,
            #"{"latestTemplateVersionNumber":1,"featureDisabled":"yes"}"#,
            #"{"latestTemplateVersionNumber":1,"retryIntervalSeconds":-1}"#,
            #"{"latestTemplateVersionNumber":1,"retryIntervalSeconds":"soon"}"#,
            #"{"latestTemplateVersionNumber":1,"retryIntervalSeconds":[]}"#,
            #"{"latestTemplateVersionNumber" 1}"#,
        ] {
            var decoder = RemoteConfigInvalidationDecoder()
            let results = decoder.feed(
                Array(#"[{"latestTemplateVersionNumber":1},"#.utf8) + Array(object.utf8) + Array(#",{"latestTemplateVersionNumber":2}"#.utf8))
            XCTAssertEqual(results.count, 2, object)
            XCTAssertEqual(results.first, .success(RemoteConfigInvalidation(latestTemplateVersion: 1)), object)
            XCTAssertTrue(isInvalidResponse(results.last), "\(object): \(results)")
            XCTAssertTrue(decoder.hasFailed)
            XCTAssertEqual(decoder.feed(#"{"latestTemplateVersionNumber":3}"#.utf8), [], "stopped")
            XCTAssertNil(decoder.finish())
        }
    }

    func testRemoteConfigInvalidationDecoder_strayBytesBetweenObjectsFail() {
        for stream in [#"[{"latestTemplateVersionNumber":1} x"#, #"{"latestTemplateVersionNumber":1}"oops""#, "null", "[1]"] {
            let results = decode(Array(stream.utf8))
            XCTAssertTrue(isInvalidResponse(results.last), "\(stream): \(results)")
            XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, stream.hasPrefix("[{") || stream.hasPrefix("{") ? 1 : 0, stream)
        }
    }

    func testRemoteConfigInvalidationDecoder_streamEndingInsideAnObjectFails() {
        let results = decode(Array(#"[{"latestTemplateVersionNumber":1},{"latestTemplate"#.utf8))
        XCTAssertEqual(
            results,
            [
                .success(RemoteConfigInvalidation(latestTemplateVersion: 1)),
                .failure(.invalidResponse(message: "realtime stream ended inside a message")),
            ])
    }

    func testRemoteConfigInvalidationDecoder_rejectsOversizedObjects() {
        var decoder = RemoteConfigInvalidationDecoder(maximumObjectSize: 64)
        let big = #"{"latestTemplateVersionNumber":1,"padding":""# + String(repeating: "x", count: 100) + #""}"#
        let results = decoder.feed(big.utf8)
        XCTAssertEqual(results, [.failure(.messageTooLarge(limit: 64))])
    }

    func testRemoteConfigInvalidationDecoder_decodesOneMessage() throws {
        XCTAssertEqual(
            try RemoteConfigInvalidationDecoder.decode(Array(#"{"latestTemplateVersionNumber":"9","other":{}}"#.utf8)),
            RemoteConfigInvalidation(latestTemplateVersion: 9))
        XCTAssertThrowsError(try RemoteConfigInvalidationDecoder.decode(Array("[]".utf8)))
    }

    func testJSONObjectStreamSplitter_returnsTheObjectsText() {
        var splitter = JSONObjectStreamSplitter()
        let objects = splitter.feed(#" [ {"a":"}"} , {"b":{"c":1}} ] "#.utf8)
        XCTAssertEqual(objects.map { String(decoding: $0, as: UTF8.self) }, [#"{"a":"}"}"#, #"{"b":{"c":1}}"#])
        XCTAssertNil(splitter.failure)
        XCTAssertFalse(splitter.isInsideObject)
    }
}

import Foundation
import XCTest
@testable import ConfigFeatures

/// Issue 18: deeply nested JSON from the Remote Config server (fetch bodies, realtime
/// messages) and in config values (the item list) is read in linear time with a constant
/// stack, and refused past the nesting limit with a typed error.
final class RemoteConfigDeepJSONTests: XCTestCase {
    private static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    private static func wire(maximumJSONDepth: Int = JSONValue.defaultMaximumDepth) -> RemoteConfigWire {
        RemoteConfigWire(
            project: "p", apiKey: "k", appID: "1:1:ios:a", appInstanceID: "i", sdkVersion: "11.0.0", languageCode: "en", maximumJSONDepth: maximumJSONDepth)
    }

    private static func fetchError(_ body: String, maximumJSONDepth: Int = JSONValue.defaultMaximumDepth) -> RemoteConfigBackendError? {
        do {
            _ = try wire(maximumJSONDepth: maximumJSONDepth).decodeFetchResponse(
                WireResponse(statusCode: 200, headers: [:], body: Data(body.utf8)), for: RemoteConfigFetchRequest())
            return nil
        } catch {
            return error
        }
    }

    func testFetch_deeplyNestedBodyFailsTypedOnASmallStack() {
        // Before: the 1 KB body `[[[…]]]` (512 levels) took 0.64 s (debug build) to fail, and
        // 230 levels overflowed a 512 KiB stack (SIGSEGV); now it fails in 0.5 ms.
        let errors = onSmallStack { () -> [RemoteConfigBackendError?] in
            [
                Self.fetchError(Self.nested(512)),
                Self.fetchError(Self.nested(513)),
                Self.fetchError(Self.nested(100_000)),
                Self.fetchError(#"{"state":"UPDATE","entries":{"k":"v"},"x":[[[1]]]}"#, maximumJSONDepth: 3),
            ]
        }
        XCTAssertEqual(
            errors,
            [
                .invalidResponse("fetch response is not a JSON object"),
                .jsonTooDeep(limit: 512),
                .jsonTooDeep(limit: 512),
                .jsonTooDeep(limit: 3),
            ])
        XCTAssertFalse(RemoteConfigBackendError.jsonTooDeep(limit: 3).isThrottlingSignal)
        XCTAssertEqual(RemoteConfigBackendError.jsonTooDeep(limit: 3).description, "invalid response: JSON nested deeper than 3 levels")
    }

    func testBackend_maximumJSONDepthIsConfigurable() {
        XCTAssertEqual(HTTPRemoteConfigBackend(project: "p", apiKey: "k", appID: "a").maximumJSONDepth, 512)
        XCTAssertEqual(HTTPRemoteConfigBackend(project: "p", apiKey: "k", appID: "a", maximumJSONDepth: 64).maximumJSONDepth, 64)
    }

    func testRealtime_deeplyNestedMessageFailsTyped() {
        let results = onSmallStack { () -> [String] in
            var decoder = RemoteConfigInvalidationDecoder(maximumJSONDepth: 8)
            let message = #"[{"latestTemplateVersionNumber": 3, "x": "# + Self.nested(8) + "}"
            return decoder.feed(Data(message.utf8)).map { result in
                switch result {
                case .success(let invalidation): return "version \(invalidation.latestTemplateVersion)"
                case .failure(let error): return "\(error)"
                }
            }
        }
        XCTAssertEqual(results, ["\(RemoteConfigBackendError.jsonTooDeep(limit: 8))"])
        var decoder = RemoteConfigInvalidationDecoder()
        XCTAssertEqual(decoder.feed(Data(#"[{"latestTemplateVersionNumber": 3, "x": [[1]]}"#.utf8)).count, 1)
    }

    func testItemList_deeplyNestedValueFailsTypedOnASmallStack() {
        struct Item: Decodable {}
        let errors = onSmallStack { () -> [ItemListError?] in
            [Self.nested(100_000), "[" + Self.nested(8) + "]"].map { text in
                do {
                    _ = try ItemListParsing.items(Item.self, from: RemoteConfigValue(string: text, source: .remote), key: "k", maximumJSONDepth: 8)
                    return nil
                } catch {
                    return error as? ItemListError
                }
            }
        }
        XCTAssertEqual(errors, [.jsonTooDeep(key: "k", limit: 8), .jsonTooDeep(key: "k", limit: 8)])
        XCTAssertEqual(ItemListError.jsonTooDeep(key: "k", limit: 8).description, #"ItemListError.jsonTooDeep("k": deeper than 8 levels)"#)
    }
}

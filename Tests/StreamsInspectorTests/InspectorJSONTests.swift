#if Inspector
import Foundation
import Streams
import StreamsInspector
import XCTest

/// The inspector's values encode by hand (one key type for all); the JSON stays what synthesized
/// `Codable` wrote: the properties' names as keys, `nil` properties left out.
final class InspectorJSONTests: XCTestCase {
    /// Decodes `text` as `Value` and encodes it again with sorted keys.
    private func roundTrip<Value: Codable & Equatable>(_ text: String, as type: Value.Type) throws -> String {
        let value = try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        XCTAssertEqual(try JSONDecoder().decode(Value.self, from: data), value)
        return String(decoding: data, as: UTF8.self)
    }

    func testJSON_keysAreThePropertyNamesAndNilIsLeftOut() throws {
        let snapshot =
            #"{"chains":[{"callSites":[{"address":"0x10","function":"main()","line":3,"missing":"no file"}],"callStack":["main()"],"#
            + #""droppedEvents":0,"id":1,"isLive":true,"operators":[{"id":2,"label":"m","liveSubscriptions":1,"name":"map","totalSubscriptions":2}],"#
            + #""recordedEvents":4,"subscribedAt":0.5,"thread":"main"}]}"#
        XCTAssertEqual(try roundTrip(snapshot, as: InspectorSnapshot.self), snapshot)
        let named =
            #"{"droppedEvents":1,"id":7,"isLive":false,"name":"clicks","operators":[],"#
            + #""recordedEvents":0,"subscribedAt":2,"thread":"t","callStack":[],"callSites":[]}"#
        XCTAssertEqual(try JSONDecoder().decode(InspectorSnapshot.Chain.self, from: Data(named.utf8)).name, "clicks")
        let site = #"{"file":"\/a\/b.swift","image":"bench"}"#
        XCTAssertEqual(try roundTrip(site, as: InspectorSnapshot.CallSite.self), site)
        let event = #"{"chain":1,"kind":"completed","operatorID":2,"operatorName":"map","thread":"main","time":1.25}"#
        XCTAssertEqual(try roundTrip(event, as: InspectorEvent.self), event)
        let next = #"{"chain":1,"kind":"next","label":"l","operatorID":2,"operatorName":"map","thread":"main","time":1.25,"value":"v"}"#
        XCTAssertEqual(try roundTrip(next, as: InspectorEvent.self), next)
    }

    func testJSON_aMissingRequiredKeyIsADecodingError() {
        XCTAssertThrowsError(try JSONDecoder().decode(InspectorSnapshot.Operator.self, from: Data(#"{"id":1}"#.utf8))) { error in
            XCTAssertTrue(error is DecodingError)
        }
        XCTAssertThrowsError(try JSONDecoder().decode(InspectorEvent.self, from: Data(#"{"chain":1,"kind":"later"}"#.utf8))) { error in
            XCTAssertTrue(error is DecodingError)
        }
    }
}
#endif

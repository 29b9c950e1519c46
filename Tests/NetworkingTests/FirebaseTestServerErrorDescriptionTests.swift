import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import XCTest

/// The test server's public errors: `localizedDescription` is their own `description`.
final class FirebaseTestServerErrorDescriptionTests: XCTestCase {
    func testLocalizedDescriptionIsTheDescription() {
        let errors: [any Error & CustomStringConvertible] = [
            FirebaseTestServerError.portInUse(9000),
            FirebaseTestServerRulesError(line: 3, column: 7, message: "expected ':'"),
        ]
        for error in errors {
            XCTAssertEqual(error.localizedDescription, error.description)
        }
        XCTAssertEqual(
            (FirebaseTestServerRulesError(line: 3, column: 7, message: "expected ':'") as any Error).localizedDescription,
            "Security Rules error at line 3, column 7: expected ':'")
    }
}

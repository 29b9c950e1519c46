import ConfigFeatures
import Foundation
import XCTest

/// The public errors' `localizedDescription` is their own `description`, not Foundation's
/// generic "The operation couldn't be completed" text.
final class DescribedErrorTests: XCTestCase {
    func testLocalizedDescriptionIsTheDescription() throws {
        let errors: [any Error & CustomStringConvertible] = [
            FirebaseRESTDatabaseError.permissionDenied(message: "rules say no"),
            FirebaseRESTDatabaseError.unavailable(statusCode: 503, message: "busy"),
            RemoteConfigError.timeout,
            FirebaseAuthError.emailAlreadyInUse,
            RemoteConfigServerTemplateError.invalidTemplate(path: "parameters", expected: "a non-null object"),
            try XCTUnwrap(parseError("{")),
        ]
        for error in errors {
            XCTAssertEqual(error.localizedDescription, error.description)
            XCTAssertEqual((error as? LocalizedError)?.errorDescription, error.description)
            XCTAssertFalse(error.localizedDescription.contains("couldn’t be completed"), error.localizedDescription)
        }
        XCTAssertEqual(
            (FirebaseRESTDatabaseError.unavailable(statusCode: 503, message: "busy") as any Error).localizedDescription,
            "service unavailable (HTTP 503): busy")
    }

    private func parseError(_ text: String) -> JSONParseError? {
        do {
            _ = try JSONValue(parsing: Data(text.utf8))
            return nil
        } catch {
            return error as? JSONParseError
        }
    }
}

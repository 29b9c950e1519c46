@testable import ConfigFeatures
import XCTest

/// The `matches` operator's regular expressions: RE2's common syntax, partial matching, and
/// time linear in the input (patterns that make backtracking engines hang finish at once).
final class ConditionRegexTests: XCTestCase {
    private func matches(_ pattern: String, _ text: String) throws -> Bool { try ConditionRegex(pattern).matches(text) }

    func testSyntax() throws {
        let cases: [(String, String, Bool)] = [
            ("abc", "xxabcxx", true), ("^abc$", "xxabcxx", false), ("^abc$", "abc", true), ("a.c", "abc", true),
            ("a.c", "a\nc", false), ("[a-c]+x", "zzbcax", true), ("[^0-9]", "123", false), ("\\d{3}", "12a345", true),
            ("\\d{4}", "12a345", false), ("^\\w+@\\w+\\.com$", "ann@example.com", true), ("\\s", "ab", false),
            ("colou?r", "color", true), ("ab*c", "ac", true), ("ab+c", "ac", false), ("(ios|android)$", "app-android", true),
            ("(?:ab){2,3}", "abab", true), ("^(?:ab){2,3}$", "abababab", false), ("a{2,}", "aa", true), ("x{,2}", "x{,2}", true),
            ("^1\\.2\\.", "1.2.3", true), ("^1\\.2\\.", "1x2x3", false), ("", "anything", true), ("a|", "b", true),
            ("[\\d.]+", "v", false), ("[a\\-z]", "-", true), ("^$", "", true), ("é+", "café", true), ("a*?b", "aab", true),
        ]
        for (pattern, text, expected) in cases {
            XCTAssertEqual(try matches(pattern, text), expected, "\(pattern) on \(text)")
        }
    }

    func testRefusedSyntax() {
        for pattern in ["(", ")", "*a", "a**b", "[a", "\\1", "(?i)a", "(?=a)", "[[:alpha:]]", "a{3,2}", "\\", "[z-a]", "^*"] {
            XCTAssertThrowsError(try ConditionRegex(pattern), pattern)
        }
    }

    func testPathologicalPatternsRunInLinearTime() throws {
        // Each would take longer than the universe's age on a backtracking engine.
        let text = String(repeating: "a", count: 20_000)
        XCTAssertFalse(try matches("^(a+)+$x", text))
        XCTAssertFalse(try matches("(a|a)*b", text))
        XCTAssertFalse(try matches("(a*)*b", text))
        XCTAssertTrue(try matches("(a|aa)*$", text))
    }
}

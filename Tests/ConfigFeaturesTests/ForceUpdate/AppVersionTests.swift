import XCTest
import ConfigFeatures

private func version(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> AppVersion {
    guard let version = AppVersion(text) else {
        XCTFail("\"\(text)\" should parse", file: file, line: line)
        return AppVersion("0")!
    }
    return version
}

private func parseError(_ text: String) -> AppVersionError? {
    do {
        _ = try AppVersion(parsing: text)
        return nil
    } catch {
        return error
    }
}

final class AppVersionTests: XCTestCase {
    // MARK: - Parsing

    func testAppVersion_parsesThreeTwoAndOneComponents() {
        XCTAssertEqual(version("3.2.1").components, [3, 2, 1])
        XCTAssertEqual(version("3.2").components, [3, 2])
        XCTAssertEqual(version("3").components, [3])
        XCTAssertEqual(version("3.2.1").major, 3)
        XCTAssertEqual(version("3.2.1").minor, 2)
        XCTAssertEqual(version("3.2.1").patch, 1)
        XCTAssertEqual(version("3.2").patch, 0)
        XCTAssertEqual(version("3").minor, 0)
        XCTAssertEqual(version("0.0.0").components, [0, 0, 0])
    }

    func testAppVersion_parsesVPrefixInBothCases() {
        XCTAssertEqual(version("v3").components, [3])
        XCTAssertEqual(version("V3").components, [3])
        XCTAssertEqual(version("v3.2.1-rc.1").description, "3.2.1-rc.1")
        XCTAssertNil(AppVersion("v"))
        XCTAssertNil(AppVersion("vv3"))
        XCTAssertNil(AppVersion("v 3"))
        XCTAssertNil(AppVersion("x3"))
    }

    func testAppVersion_parsesMoreThanThreeComponents() {
        XCTAssertEqual(version("1.2.3.4").components, [1, 2, 3, 4])
        XCTAssertEqual(version("1.2.3.4.5.6").components, [1, 2, 3, 4, 5, 6])
        XCTAssertLessThan(version("1.2.3"), version("1.2.3.1"))
        XCTAssertLessThan(version("1.2.3.4"), version("1.2.3.5"))
        XCTAssertLessThan(version("1.2.3.9"), version("1.2.4"))
        XCTAssertEqual(version("1.2.3.0"), version("1.2.3"))
    }

    func testAppVersion_trimsSurroundingWhitespaceAndNewlines() {
        XCTAssertEqual(version("  3.2.1 ").components, [3, 2, 1])
        XCTAssertEqual(version("\t3.2\n").components, [3, 2])
        XCTAssertEqual(version(" v3 ").components, [3])
        XCTAssertNil(AppVersion("3. 2"))
        XCTAssertNil(AppVersion("3 .2"))
    }

    func testAppVersion_leadingZerosInComponentsAreIgnored() {
        XCTAssertEqual(version("3.02").components, [3, 2])
        XCTAssertEqual(version("3.02"), version("3.2"))
        XCTAssertEqual(version("03.2.001").description, "3.2.1")
    }

    func testAppVersion_parsesPreReleaseAndBuildMetadata() {
        let beta = version("3.2.1-beta.2")
        XCTAssertEqual(beta.components, [3, 2, 1])
        XCTAssertEqual(beta.preRelease, [.alphanumeric("beta"), .numeric(2)])
        XCTAssertTrue(beta.isPreRelease)
        XCTAssertEqual(beta.buildMetadata, [])

        let built = version("3.2.1+build.5")
        XCTAssertEqual(built.preRelease, [])
        XCTAssertFalse(built.isPreRelease)
        XCTAssertEqual(built.buildMetadata, ["build", "5"])

        let both = version("1.0.0-x-y.7.z--+exp.sha.5114f85-01")
        XCTAssertEqual(both.preRelease, [.alphanumeric("x-y"), .numeric(7), .alphanumeric("z--")])
        XCTAssertEqual(both.buildMetadata, ["exp", "sha", "5114f85-01"])

        XCTAssertEqual(version("1-0").preRelease, [.numeric(0)])
        XCTAssertEqual(version("1-0a").preRelease, [.alphanumeric("0a")])
        XCTAssertEqual(version("1.0-rc1").preRelease, [.alphanumeric("rc1")])
        XCTAssertEqual(version("1.0+001").buildMetadata, ["001"], "leading zeros are fine in build metadata")
    }

    func testAppVersion_descriptionIsNormalized() {
        XCTAssertEqual(version("3.2.1").description, "3.2.1")
        XCTAssertEqual(version("v3").description, "3")
        XCTAssertEqual(version(" V3.2.1-beta.2+build.5 ").description, "3.2.1-beta.2+build.5")
        XCTAssertEqual("\(version("1.2.3.4"))", "1.2.3.4")
    }

    // MARK: - Invalid input

    func testAppVersion_unparsableInputIsNil() {
        let invalid = [
            "", " ", "\n", "abc", "1..2", ".1", "1.", "-1", "1.2.x", "1.2.3.", "1,2", "+1", "1.-2",
            "１.２", "٣", "1.2.3-", "1.2.3+", "1.2.3-beta..1", "1.2.3-beta.", "1.2.3-01", "1.2.3-beta.02",
            "1.2.3-be_ta", "1.2.3+bu!ld", "1.2.3+build..5", "1.2.3-é", "99999999999999999999",
            "1.99999999999999999999", "1.0-99999999999999999999", "1.2.3 beta", "v", "-", "+", "-+",
        ]
        for text in invalid {
            XCTAssertNil(AppVersion(text), "\"\(text)\" should not parse")
        }
    }

    func testAppVersion_parsingThrowsATypedReason() {
        XCTAssertEqual(parseError(""), .empty)
        XCTAssertEqual(parseError("   "), .empty)
        XCTAssertEqual(parseError("v"), .empty)
        XCTAssertEqual(parseError("-1"), .empty)
        XCTAssertEqual(parseError("+5"), .empty)
        XCTAssertEqual(parseError("abc"), .invalidComponent("abc"))
        XCTAssertEqual(parseError("1..2"), .invalidComponent(""))
        XCTAssertEqual(parseError("1.2.x"), .invalidComponent("x"))
        XCTAssertEqual(parseError("1.+2"), .invalidComponent(""))
        XCTAssertEqual(parseError("99999999999999999999"), .numberTooLarge("99999999999999999999"))
        XCTAssertEqual(parseError("1-99999999999999999999"), .numberTooLarge("99999999999999999999"))
        XCTAssertEqual(parseError("1.2.3-"), .invalidPreRelease(""))
        XCTAssertEqual(parseError("1.2.3-beta..1"), .invalidPreRelease("beta..1"))
        XCTAssertEqual(parseError("1.2.3-01"), .invalidPreRelease("01"))
        XCTAssertEqual(parseError("1.2.3+"), .invalidBuildMetadata(""))
        XCTAssertEqual(parseError("1.2.3+a b"), .invalidBuildMetadata("a b"))
        XCTAssertNil(parseError("1.2.3"))
        XCTAssertEqual(AppVersionError.invalidComponent("x").description, "Invalid version component \"x\": expected digits")
    }

    func testAppVersion_throwingInitializerReturnsTheSameValue() throws {
        XCTAssertEqual(try AppVersion(parsing: "3.2.1-beta.2"), AppVersion("3.2.1-beta.2"))
    }

    // MARK: - Ordering and equality

    func testAppVersion_missingComponentsCompareAsZero() {
        XCTAssertEqual(version("3.2"), version("3.2.0"))
        XCTAssertEqual(version("3"), version("3.0.0.0"))
        XCTAssertEqual(version("v3"), version("3.0"))
        XCTAssertFalse(version("3.2") < version("3.2.0"))
        XCTAssertFalse(version("3.2.0") < version("3.2"))
        XCTAssertLessThan(version("3.2"), version("3.2.1"))
        XCTAssertGreaterThan(version("3.2.1"), version("3.2"))
        XCTAssertEqual(version("3.2-beta"), version("3.2.0-beta"))
    }

    func testAppVersion_componentsCompareNumericallyNotAsText() {
        XCTAssertLessThan(version("3.9"), version("3.10"))
        XCTAssertLessThan(version("2.99.99"), version("10.0"))
        XCTAssertLessThan(version("1.2.3"), version("1.3"))
        XCTAssertGreaterThan(version("4"), version("3.99.99.99"))
    }

    func testAppVersion_semVerPrecedenceChain() {
        let chain = [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
            "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1-0", "1.0.1", "1.1", "2.0.0-rc.1", "2",
        ].map { version($0) }
        for (i, lhs) in chain.enumerated() {
            for (j, rhs) in chain.enumerated() {
                XCTAssertEqual(lhs < rhs, i < j, "\(lhs) < \(rhs)")
                XCTAssertEqual(lhs == rhs, i == j, "\(lhs) == \(rhs)")
            }
        }
        XCTAssertEqual(chain.shuffled().sorted(), chain)
    }

    func testAppVersion_preReleaseIdentifierRules() {
        // Numeric identifiers numerically, not as text.
        XCTAssertLessThan(version("1.0.0-beta.2"), version("1.0.0-beta.11"))
        // Numeric lower than alphanumeric.
        XCTAssertLessThan(version("1.0.0-1"), version("1.0.0-a"))
        XCTAssertLessThan(version("1.0.0-999"), version("1.0.0-0a"))
        // Alphanumerics in ASCII order: uppercase before lowercase, "-" before digits.
        XCTAssertLessThan(version("1.0.0-Beta"), version("1.0.0-alpha"))
        XCTAssertLessThan(version("1.0.0--"), version("1.0.0-0a"))
        XCTAssertLessThan(version("1.0.0-alpha"), version("1.0.0-alphb"))
        XCTAssertLessThan(version("1.0.0-alph"), version("1.0.0-alpha"))
        // Shorter list lower when it is a prefix.
        XCTAssertLessThan(version("1.0.0-a.b"), version("1.0.0-a.b.c"))
        XCTAssertLessThan(version("1.0.0-a.1"), version("1.0.0-a.b"))
        // A release is greater than its pre-releases, but lower than the next version's.
        XCTAssertLessThan(version("1.0.0-zzz.999"), version("1.0.0"))
        XCTAssertLessThan(version("1.0.0"), version("1.0.1-alpha"))
        XCTAssertTrue(AppVersion.PreReleaseIdentifier.numeric(9) < .alphanumeric("1a"))
        XCTAssertFalse(AppVersion.PreReleaseIdentifier.alphanumeric("a") < .numeric(1))
    }

    func testAppVersion_buildMetadataIsIgnoredForOrderingEqualityAndHashing() {
        let plain = version("1.0.0")
        let built = version("1.0.0+build.5")
        let other = version("1.0+build.7")
        XCTAssertEqual(plain, built)
        XCTAssertEqual(built, other)
        XCTAssertFalse(built < plain)
        XCTAssertFalse(plain < built)
        XCTAssertEqual(Set([plain, built, other]).count, 1)
        XCTAssertEqual(version("1.0.0-rc.1+a"), version("1.0.0-rc.1+b"))
        XCTAssertLessThan(version("1.0.0-rc.1+zzz"), version("1.0.0+aaa"))
    }

    func testAppVersion_hashIsConsistentWithEquality() {
        let equal = ["3.2", "3.2.0", "v3.2.0.0", "3.02+x", " 3.2.0 "].map { version($0) }
        XCTAssertEqual(Set(equal).count, 1)
        var seen: [AppVersion: String] = [:]
        for text in ["3.2", "3.2.1", "3.2.1-beta", "3.2.1-beta.1", "3.2.0.1"] {
            seen[version(text)] = text
        }
        XCTAssertEqual(seen.count, 5)
        XCTAssertEqual(seen[version("3.2.0")], "3.2")
    }

    func testAppVersion_comparableOperatorsAndSorting() {
        let versions = ["10.0", "3.2.1", "3.2", "3.2.1-beta.2", "v3", "3.10", "1.2.3.4", "3.2.1-beta.11"].map { version($0) }
        XCTAssertEqual(versions.sorted().map(\.description), ["1.2.3.4", "3", "3.2", "3.2.1-beta.2", "3.2.1-beta.11", "3.2.1", "3.10", "10.0"])
        XCTAssertEqual(versions.max()?.description, "10.0")
        XCTAssertTrue(version("3.2.1") >= version("3.2.1+meta"))
        XCTAssertTrue(version("3.2.1") <= version("3.2.1.0"))
    }

    func testAppVersion_seedsComparisonCases() {
        // The seed's forced-update check: current < required means an update is needed.
        XCTAssertLessThan(version("3.2.0"), version("3.2.1"))
        XCTAssertFalse(version("3.3") < version("3.2.9"))
        // The seed gave up on more than three components; we compare them.
        XCTAssertLessThan(version("3.2.1.1"), version("3.2.1.2"))
    }
}

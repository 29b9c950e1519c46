import XCTest
import ConfigFeatures

/// The hash checked against FIPS 180-4's examples and NIST's CAVS/FIPS 180-2 test vectors.
final class SHA256Tests: XCTestCase {
    func testSHA256_abc() {
        XCTAssertEqual(SHA256.hexDigest("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testSHA256_emptyMessage() {
        XCTAssertEqual(SHA256.hexDigest(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.digest([UInt8]()).count, 32)
    }

    func testSHA256_448BitMessage() {
        XCTAssertEqual(
            SHA256.hexDigest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testSHA256_896BitMessage() {
        let message =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        XCTAssertEqual(SHA256.hexDigest(message), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    func testSHA256_oneMillionAs() {
        XCTAssertEqual(
            SHA256.hexDigest(repeatElement(UInt8(ascii: "a"), count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testSHA256_paddingBoundaries() {
        // 55 bytes fit the length in one block; 56 and 64 need a second padding block.
        XCTAssertEqual(
            SHA256.hexDigest(String(repeating: "a", count: 55)),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        XCTAssertEqual(
            SHA256.hexDigest(String(repeating: "a", count: 56)),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        XCTAssertEqual(
            SHA256.hexDigest(String(repeating: "a", count: 64)),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    func testSHA256_hexIsLowercaseTwoDigitsPerByte() {
        XCTAssertEqual(SHA256.hex([0x00, 0x0f, 0xa0, 0xff]), "000fa0ff")
    }
}

import XCTest
import ConfigFeatures

/// Always returns the same number (to force the random part to its maximum).
private struct ConstantGenerator: RandomNumberGenerator, Sendable {
    let value: UInt64
    mutating func next() -> UInt64 { value }
}

final class PushIDGeneratorTests: XCTestCase {
    private let alphabet = Set(PushIDGenerator.alphabet)

    func testPushIDGenerator_alphabetIsInAscendingOrder() {
        let scalars = PushIDGenerator.alphabet.unicodeScalars.map(\.value)
        XCTAssertEqual(scalars.count, 64)
        XCTAssertEqual(scalars, scalars.sorted())
        XCTAssertEqual(Set(scalars).count, 64)
    }

    func testPushIDGenerator_encodesTheTimeInTheFirstEightCharacters() {
        let generator = PushIDGenerator(randomNumberGenerator: DeterministicRandom(seed: 1))
        XCTAssertEqual(generator.next(at: Date(timeIntervalSince1970: 0)).prefix(8), "--------")
        XCTAssertEqual(generator.next(at: Date(timeIntervalSince1970: 0.001)).prefix(8), "-------0")
        XCTAssertEqual(generator.next(at: Date(timeIntervalSince1970: 0.064)).prefix(8), "------0-")
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        let key = generator.next(at: date)
        XCTAssertEqual(key.count, 20)
        XCTAssertTrue(key.allSatisfy(alphabet.contains))
        XCTAssertEqual(PushIDGenerator.timestamp(ofPushID: key), Date(timeIntervalSince1970: 1_700_000_000.123))
    }

    func testPushIDGenerator_strictlyIncreasingWithinTheSameMillisecond() {
        let generator = PushIDGenerator()
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let keys = (0..<10_000).map { _ in generator.next(at: date) }
        XCTAssertEqual(keys.sorted(), keys)
        XCTAssertEqual(Set(keys).count, keys.count)
        XCTAssertTrue(keys.allSatisfy { PushIDGenerator.timestamp(ofPushID: $0) == date })
    }

    func testPushIDGenerator_keepsOrderWhenTheClockGoesBackwards() {
        let generator = PushIDGenerator()
        let first = generator.next(at: Date(timeIntervalSince1970: 100))
        let second = generator.next(at: Date(timeIntervalSince1970: 50))
        let third = generator.next(at: Date(timeIntervalSince1970: 200))
        XCTAssertLessThan(first, second)
        XCTAssertLessThan(second, third)
        XCTAssertEqual(PushIDGenerator.timestamp(ofPushID: second), Date(timeIntervalSince1970: 100))
    }

    func testPushIDGenerator_randomPartOverflowMovesToTheNextMillisecond() {
        let generator = PushIDGenerator(randomNumberGenerator: ConstantGenerator(value: 63))
        let date = Date(timeIntervalSince1970: 1)
        let first = generator.next(at: date)
        XCTAssertEqual(first.suffix(12), "zzzzzzzzzzzz")
        let second = generator.next(at: date)
        XCTAssertLessThan(first, second)
        XCTAssertEqual(PushIDGenerator.timestamp(ofPushID: second), Date(timeIntervalSince1970: 1.001))
    }

    func testPushIDGenerator_isReproducibleWithADeterministicRandom() {
        let date = Date(timeIntervalSince1970: 5)
        let a = PushIDGenerator(randomNumberGenerator: DeterministicRandom(seed: 42))
        let b = PushIDGenerator(randomNumberGenerator: DeterministicRandom(seed: 42))
        XCTAssertEqual((0..<3).map { _ in a.next(at: date) }, (0..<3).map { _ in b.next(at: date) })
    }

    func testPushIDGenerator_isThreadSafeAndNeverRepeats() {
        let generator = PushIDGenerator()
        let date = Date(timeIntervalSince1970: 7)
        let perThread = 2_000
        let results = (0..<4).map { _ in UnsafeKeys() }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for _ in 0..<perThread { results[thread].keys.append(generator.next(at: date)) }
        }
        for result in results { XCTAssertEqual(result.keys.sorted(), result.keys, "each thread sees increasing keys") }
        XCTAssertEqual(Set(results.flatMap(\.keys)).count, 4 * perThread)
    }

    func testPushIDGenerator_timestampRejectsNonPushIDs() {
        XCTAssertNil(PushIDGenerator.timestamp(ofPushID: "short"))
        XCTAssertNil(PushIDGenerator.timestamp(ofPushID: "--------...........!"))
    }
}

/// Keys appended by exactly one thread (its own index of `concurrentPerform`).
private final class UnsafeKeys: @unchecked Sendable {
    // Safety: each instance is written by a single `concurrentPerform` iteration and read after
    // `concurrentPerform` returns.
    var keys: [String] = []
}

import XCTest
import Streams

/// The traits' `value` can be awaited from the main actor, though traits are not `Sendable`.
/// Did not compile on ce3e235: "non-Sendable type 'PrimitiveSequence<SingleTrait, Int>' cannot exit
/// main actor-isolated context in call to nonisolated property 'value'".
final class MainActorValueTests: XCTestCase {
    @MainActor
    func testSingleValue_fromTheMainActor() async throws {
        let single = Single.just(42)
        let value = try await single.value
        XCTAssertEqual(value, 42)
        let maybe: Int? = try await Maybe<Int>.empty().value
        XCTAssertNil(maybe)
        try await Completable.empty().value
        // An outcome reported on another thread resumes the awaiting main-actor code on the main actor.
        let background = ConcurrentDispatchQueueScheduler(qos: .default)
        let delayed = try await Single.just(7).delay(.milliseconds(1), scheduler: background).value
        XCTAssertEqual(delayed, 7)
        MainActor.assertIsolated()
    }
}

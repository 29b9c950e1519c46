import Dispatch
import Synchronization
import XCTest
@testable import Streams
import StreamsTest

/// `MetatypeCache`: the pair of types determines the entry, a full table falls back to `make()`
/// without caching, and concurrent lookups agree.
final class MetatypeCacheTests: XCTestCase {
    /// `count` distinct types: `Int`, `Int?`, `Int??`, …
    private func distinctTypes(_ count: Int) -> [Any.Type] {
        var types: [Any.Type] = []
        func add<T>(_ type: T.Type, remaining: Int) {
            types.append(type)
            if remaining > 1 { add(Optional<T>.self, remaining: remaining - 1) }
        }
        add(Int.self, remaining: count)
        return types
    }

    private func type(_ raw: UnsafeRawPointer) -> Any.Type {
        unsafeBitCast(raw, to: Any.Type.self)
    }

    /// A stage entry (owner, result type) never answers for the sink entry (owner, observer type)
    /// of the same two types, nor the other way round.
    func testStageType_isKeptApartFromTheSinkEntryOfTheSamePair() {
        enum Owner {}
        enum Other {}
        let sink = MetatypeCache.type(owner: Owner.self, observer: Other.self) { Int.self }
        let stage = MetatypeCache.stageType(owner: Owner.self, result: Other.self) { String.self }
        XCTAssertTrue(type(sink) == Int.self)
        XCTAssertTrue(type(stage) == String.self)
        XCTAssertTrue(type(MetatypeCache.stageType(owner: Owner.self, result: Other.self) { Bool.self }) == String.self, "cached")
        XCTAssertTrue(type(MetatypeCache.type(owner: Owner.self, observer: Other.self) { Bool.self }) == Int.self, "cached")
    }

    func testLookUp_cachesPerPairOfTypes() {
        let bits = 6
        let table = MetatypeCache.allocateTable(capacityBits: bits)
        defer { MetatypeCache.freeTable(table, capacityBits: bits) }
        let types = distinctTypes(8)
        var makes = 0
        func lookUp(_ owner: Int, _ observer: Int, builds built: Int) -> Any.Type {
            type(
                MetatypeCache.lookUp(owner: types[owner], observer: types[observer], in: table, capacityBits: bits) {
                    makes += 1
                    return types[built]
                })
        }
        XCTAssertTrue(lookUp(0, 1, builds: 5) == types[5])
        XCTAssertTrue(lookUp(0, 1, builds: 6) == types[5], "a cached pair answers without make()")
        XCTAssertEqual(makes, 1)
        XCTAssertTrue(lookUp(1, 0, builds: 6) == types[6], "the pair is ordered: (owner, observer)")
        XCTAssertTrue(lookUp(0, 2, builds: 7) == types[7], "another observer is another entry")
        XCTAssertEqual(makes, 3)
        XCTAssertTrue(lookUp(1, 0, builds: 0) == types[6])
        XCTAssertTrue(lookUp(0, 2, builds: 0) == types[7])
        XCTAssertEqual(makes, 3)
    }

    func testLookUp_fullTableFallsBackToMake() {
        let bits = 2  // four slots
        let table = MetatypeCache.allocateTable(capacityBits: bits)
        defer { MetatypeCache.freeTable(table, capacityBits: bits) }
        let types = distinctTypes(10)
        var makes = 0
        for round in 0..<3 {
            for index in 0..<10 {
                let found = type(
                    MetatypeCache.lookUp(owner: types[index], observer: Int.self, in: table, capacityBits: bits) {
                        makes += 1
                        return types[index]
                    })
                XCTAssertTrue(found == types[index], "round \(round), pair \(index): the type make() builds, cached or not")
            }
        }
        // Four pairs fill the table and are cached; the other six call make() every round.
        XCTAssertEqual(makes, 10 + 2 * 6)
    }

    func testLookUp_concurrentThreadsAgree() {
        let bits = 6
        let table = UncheckedSendable(MetatypeCache.allocateTable(capacityBits: bits))
        defer { MetatypeCache.freeTable(table.value, capacityBits: bits) }
        let types = UncheckedSendable(distinctTypes(40))
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for step in 0..<2_000 {
                let index = (step &* 7 &+ thread) % 40
                let found = unsafeBitCast(
                    MetatypeCache.lookUp(owner: types.value[index], observer: String.self, in: table.value, capacityBits: bits) {
                        types.value[index]
                    }, to: Any.Type.self)
                if found != types.value[index] { mismatches.wrappingAdd(1, ordering: .relaxed) }
            }
        }
        XCTAssertEqual(mismatches.load(ordering: .relaxed), 0)
    }

    /// The shared table serves the operators: subscribing the same chain shape twice gives the
    /// same results (the second time from the cache).
    func testSharedTable_operatorsBuildTheirSinks() {
        XCTAssertNoLeaks {
            for _ in 0..<2 {
                let subject = PublishSubject<Int>()
                var received: [String] = []
                let subscription = subject.map { $0 * 2 }.filter { $0 > 2 }.map { "\($0)" }.subscribe(onNext: { received.append($0) })
                for value in 1...3 { subject.onNext(value) }
                subscription.dispose()
                XCTAssertEqual(received, ["4", "6"])
            }
        }
    }
}

import XCTest
@testable import Streams
import StreamsTest

/// The observer list behind every subject: removal in any order keeps subscription order, is
/// O(log n) + O(1) amortized (holes, squeezed out past half), and delivery skips holes.
final class ObserverListTests: XCTestCase {
    private final class Marker: AnySubjectObserver {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    /// 0..<count in a fixed scrambled order (7,919 is a prime not dividing the counts used).
    private func scrambled(_ count: Int) -> [Int] {
        (0..<count).map { $0 * 7_919 % count }
    }

    private func values(_ list: ObserverList) -> [Int] {
        list.handlers.compactMap { ($0 as? Marker)?.value }
    }

    func testRemove_inAnyOrderKeepsSubscriptionOrder() {
        var list = ObserverList()
        let keys = (0..<100).map { list.insert(Marker($0)) }
        var removed = Set<Int>()
        for index in scrambled(100).prefix(70) {
            XCTAssertEqual((list.remove(keys[index]) as? Marker)?.value, index)
            removed.insert(index)
            XCTAssertEqual(values(list), (0..<100).filter { !removed.contains($0) })
            XCTAssertEqual(list.count, 100 - removed.count)
        }
    }

    func testRemove_absentOrTwiceReturnsNil() {
        var list = ObserverList()
        let key = list.insert(Marker(1))
        _ = list.insert(Marker(2))
        XCTAssertNotNil(list.remove(key))
        XCTAssertNil(list.remove(key))
        XCTAssertNil(list.remove(99))
        XCTAssertEqual(values(list), [2])
    }

    func testRemove_holesAreSqueezedSoSlotsStayBounded() {
        var list = ObserverList()
        _ = list.insert(Marker(-1))  // one long-lived observer
        for value in 0..<10_000 {
            let key = list.insert(Marker(value))
            list.remove(key)
            XCTAssertLessThanOrEqual(list.handlers.count, 2 * list.count + 34, "after \(value)")
        }
        XCTAssertEqual(values(list), [-1])
        let key = list.insert(Marker(5))
        XCTAssertEqual(values(list), [-1, 5])
        list.remove(key)
    }

    func testRemove_firstToLastLeavesAnEmptyList() {
        var list = ObserverList()
        let keys = (0..<1_000).map { list.insert(Marker($0)) }
        for (index, key) in keys.enumerated() {
            list.remove(key)
            XCTAssertEqual(values(list).first, index + 1 < keys.count ? index + 1 : nil)
        }
        XCTAssertTrue(list.isEmpty)
        XCTAssertEqual(list.handlers.count, 0)
    }

    func testEmptied_smallListKeepsItsBufferAndHandsOutFreshKeys() {
        var list = KeyedList<Marker>()
        var oldKeys: [UInt64] = []
        for round in 0..<3 {
            let keys = (0..<4).map { list.insert(Marker(round * 10 + $0)) }
            oldKeys += keys
            XCTAssertEqual(Set(keys).count, 4)
            XCTAssertTrue(keys.allSatisfy { key in oldKeys.filter { $0 == key }.count == 1 }, "keys are never reused")
            for key in keys.reversed() { XCTAssertEqual(list.remove(key)?.value, round * 10 + Int(key % 4)) }
            XCTAssertTrue(list.isEmpty)
            XCTAssertEqual(list.slots.count, 0)
            XCTAssertGreaterThanOrEqual(list.bufferCapacity, 4, "kept for the next subscriber")
        }
        for key in oldKeys { XCTAssertNil(list.remove(key), "a key of an earlier round stays removed") }
    }

    func testEmptied_largeListFreesItsBuffer() {
        var list = KeyedList<Marker>()
        let keys = (0..<1_000).map { list.insert(Marker($0)) }
        for key in keys { list.remove(key) }
        XCTAssertTrue(list.isEmpty)
        XCTAssertEqual(list.bufferCapacity, 0)
        let key = list.insert(Marker(7))
        XCTAssertEqual(list.remove(key)?.value, 7)
    }

    func testPublishSubject_disposingManySubscribersInRandomOrder() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            let received = LockedState<[Int]>([])
            let all = (0..<2_000).map { index in
                (index, subject.subscribe(onNext: { value in received.withLock { $0.append(index * 1_000 + value) } }))
            }
            let subscriptions = scrambled(all.count).map { all[$0] }
            for (_, subscription) in subscriptions.prefix(1_500) { subscription.dispose() }
            let remaining = subscriptions.suffix(500).map(\.0).sorted()
            subject.onNext(7)
            XCTAssertEqual(received.withLock { $0 }, remaining.map { $0 * 1_000 + 7 })
            for (_, subscription) in subscriptions.suffix(500) { subscription.dispose() }
            XCTAssertFalse(subject.hasObservers)
            subject.onNext(8)
            XCTAssertEqual(received.withLock { $0 }.count, 500)
        }
    }

    func testBehaviorSubject_observerDisposingItselfDuringDeliveryStillLetsLaterOnesReceive() {
        let subject = BehaviorSubject(value: 0)
        var log: [String] = []
        var first: Disposable?
        first = subject.skip(1).subscribe(onNext: { value in
            log.append("a\(value)")
            first?.dispose()
        })
        let second = subject.skip(1).subscribe(onNext: { log.append("b\($0)") })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(log, ["a1", "b1", "b2"])
        second.dispose()
    }
}

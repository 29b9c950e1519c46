import Foundation
import XCTest
@testable import Streams
import StreamsTest

/// An element type no other test uses, so the counts of the types built on it start at zero.
private struct ResourceProbe {}

/// Resource types of a custom operator (counted through the public entry points).
private final class CustomResource {}
private final class OtherCustomResource {}

final class ResourcesTests: XCTestCase {
    // MARK: - Resources (the process's table)

    func testLiveCounts_nameALiveSubjectByType() {
        XCTAssertNil(Resources.liveCounts["PublishSubject<ResourceProbe>"])
        var subject: PublishSubject<ResourceProbe>? = PublishSubject()
        XCTAssertEqual(Resources.liveCounts["PublishSubject<ResourceProbe>"], 1)
        let second = BehaviorSubject(value: ResourceProbe())
        XCTAssertEqual(Resources.liveCounts["BehaviorSubject<ResourceProbe>"], 1)
        subject = nil
        XCTAssertNil(Resources.liveCounts["PublishSubject<ResourceProbe>"], "only non-zero counts are listed")
        _ = (subject, second)
    }

    func testLiveCounts_nameTheSinksOfASubscription() {
        let subject = PublishSubject<ResourceProbe>()
        let before = Resources.liveCounts
        // `filter` then `map`: two sinks (a `map` directly followed by `filter` is one fused
        // `MapFilterSink`; see MapFilterFusionTests).
        let subscription = subject.filter { _ in true }.map { $0 }.subscribe(onNext: { _ in })
        let during = Resources.liveCounts
        subscription.dispose()
        let grown = during.filter { $0.value != before[$0.key, default: 0] }
        XCTAssertEqual(grown.count, 2, "\(grown)")
        XCTAssertEqual(grown.keys.filter { $0.hasPrefix("MapSink<") && $0.contains("ResourceProbe") }.count, 1, "\(grown)")
        XCTAssertEqual(grown.keys.filter { $0.hasPrefix("FilterSink<") && $0.contains("ResourceProbe") }.count, 1, "\(grown)")
        XCTAssertEqual(Resources.liveCounts, before)
    }

    func testLiveCounts_addUpToTotal() {
        let subject = PublishSubject<ResourceProbe>()
        let subscription = subject.map { $0 }.subscribe(onNext: { _ in })
        XCTAssertEqual(Resources.liveCounts.values.reduce(0, +), Resources.total)
        subscription.dispose()
        XCTAssertEqual(Resources.liveCounts.values.reduce(0, +), Resources.total)
    }

    func testIncrementTotalFor_countsACustomType() {
        let total = Resources.total
        Resources.incrementTotal(for: CustomResource.self)
        Resources.incrementTotal(for: CustomResource.self)
        Resources.incrementTotal(for: OtherCustomResource.self)
        XCTAssertEqual(Resources.total, total + 3)
        XCTAssertEqual(Resources.liveCounts["CustomResource"], 2)
        XCTAssertEqual(Resources.liveCounts["OtherCustomResource"], 1)
        Resources.decrementTotal(for: CustomResource.self)
        Resources.decrementTotal(for: CustomResource.self)
        Resources.decrementTotal(for: OtherCustomResource.self)
        XCTAssertEqual(Resources.total, total)
        XCTAssertNil(Resources.liveCounts["CustomResource"])
    }

    func testIncrementTotal_withoutATypeIsListedAsUntyped() {
        let before = Resources.liveCounts[Resources.untypedName, default: 0]
        Resources.incrementTotal()
        XCTAssertEqual(Resources.liveCounts[Resources.untypedName, default: 0], before + 1)
        Resources.decrementTotal()
        XCTAssertEqual(Resources.liveCounts[Resources.untypedName, default: 0], before)
    }

    func testCounts_concurrentChurnBalances() {
        let total = Resources.total
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 {
                let subject = PublishSubject<ResourceProbe>()
                let subscription = subject.map { $0 }.subscribe(onNext: { _ in })
                subscription.dispose()
            }
        }
        XCTAssertEqual(Resources.total, total)
        XCTAssertNil(Resources.liveCounts["PublishSubject<ResourceProbe>"])
    }

    // MARK: - ResourceSlots (the table's algorithm, on small tables)

    /// Runs `body` with a fresh table of `1 << capacityBits` slots, freed afterwards.
    private func withSlots(capacityBits: Int, _ body: (ResourceSlots) -> Void) {
        let slots = ResourceSlots.allocate(capacityBits: capacityBits)
        defer { slots.deallocate() }
        body(slots)
    }

    private func counts(_ slots: ResourceSlots) -> [UInt: Int] {
        var counts: [UInt: Int] = [:]
        slots.forEachCount { key, count in
            XCTAssertNil(counts[key], "key \(key) holds two slots")
            counts[key] = count
        }
        return counts
    }

    /// Keys whose first probe is the same slot.
    private func collidingKeys(_ slots: ResourceSlots, count: Int) -> [UInt] {
        let home = slots.home(of: 1)
        return Array((1..<UInt(10_000)).lazy.filter { slots.home(of: $0) == home }.prefix(count))
    }

    func testSlots_countPerKey() {
        withSlots(capacityBits: 4) { slots in
            XCTAssertTrue(slots.add(1, key: 0x1000, maxProbes: 16))
            XCTAssertTrue(slots.add(1, key: 0x1000, maxProbes: 16))
            XCTAssertTrue(slots.add(1, key: 0x2000, maxProbes: 16))
            XCTAssertEqual(counts(slots), [0x1000: 2, 0x2000: 1])
            XCTAssertTrue(slots.add(-2, key: 0x1000, maxProbes: 16))
            XCTAssertEqual(counts(slots), [0x2000: 1], "a zero count is not listed")
        }
    }

    func testSlots_collidingKeysProbeToTheNextSlots() {
        withSlots(capacityBits: 4) { slots in
            let keys = collidingKeys(slots, count: 3)
            XCTAssertEqual(keys.count, 3)
            for (offset, key) in keys.enumerated() {
                for _ in 0...offset { XCTAssertTrue(slots.add(1, key: key, maxProbes: 16)) }
            }
            XCTAssertEqual(counts(slots), [keys[0]: 1, keys[1]: 2, keys[2]: 3])
            for key in keys.reversed() { XCTAssertTrue(slots.add(-1, key: key, maxProbes: 16)) }
            XCTAssertEqual(counts(slots), [keys[1]: 1, keys[2]: 2])
        }
    }

    func testSlots_fullTableRefusesNewKeysConsistently() {
        withSlots(capacityBits: 2) { slots in
            for key in 1...4 as ClosedRange<UInt> { XCTAssertTrue(slots.add(1, key: key << 8, maxProbes: 4)) }
            XCTAssertFalse(slots.add(1, key: 5 << 8, maxProbes: 4), "no free slot: counted elsewhere by the caller")
            XCTAssertFalse(slots.add(-1, key: 5 << 8, maxProbes: 4), "released the same way")
            XCTAssertTrue(slots.add(1, key: 3 << 8, maxProbes: 4), "known keys still count")
            XCTAssertEqual(counts(slots).values.reduce(0, +), 5)
        }
    }

    func testSlots_probingStopsAtMaxProbes() {
        withSlots(capacityBits: 4) { slots in
            let keys = collidingKeys(slots, count: 3)
            XCTAssertTrue(slots.add(1, key: keys[0], maxProbes: 2))
            XCTAssertTrue(slots.add(1, key: keys[1], maxProbes: 2))
            XCTAssertFalse(slots.add(1, key: keys[2], maxProbes: 2), "its third probe would be free, but it may only look at two")
            XCTAssertTrue(slots.add(1, key: keys[2], maxProbes: 3))
        }
    }

    func testSlots_concurrentFirstCountsOfTheSameKeysClaimOneSlotEach() {
        withSlots(capacityBits: 8) { slots in
            let keys = (1...100).map { UInt($0) << 4 }
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for round in 0..<200 {
                    for key in keys.shuffled() { _ = slots.add(round % 2 == 0 ? 1 : -1, key: key, maxProbes: 256) }
                    if round == 100 + thread { for key in keys { _ = slots.add(1, key: key, maxProbes: 256) } }
                }
            }
            let counted = counts(slots)
            XCTAssertEqual(counted.count, keys.count)
            XCTAssertEqual(Set(counted.values), [8], "each thread left one count per key")
        }
    }
}

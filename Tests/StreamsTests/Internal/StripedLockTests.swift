import Dispatch
import XCTest

@testable import Streams

/// `StripedLock`: the table of mutexes ``PublishSubject``, ``BehaviorSubject`` and replay gates
/// lock by their address. Objects spread over the stripes, and objects that share one never
/// wait for each other's lock while they deliver (no lock is held while calling out).
final class StripedLockTests: XCTestCase {
    /// Objects allocated one after another (the usual case: a subject per element) land on many
    /// stripes, not a few. A hash that kept the alignment bits would put 1,024 of them on at
    /// most 8 stripes.
    func testObjectsAllocatedTogetherSpreadOverTheStripes() {
        let subjects = (0..<1_024).map { _ in PublishSubject<Int>() }
        let stripes = Set(subjects.map { LockStripes.index(for: UInt(bitPattern: ObjectIdentifier($0))) })
        XCTAssertGreaterThanOrEqual(stripes.count, LockStripes.count * 3 / 4, "1,024 subjects on \(stripes.count) of \(LockStripes.count) stripes")
        XCTAssertTrue(stripes.allSatisfy { (0..<LockStripes.count).contains($0) })
    }

    /// Every stripe is a working mutex: locking each in turn, and a stripe twice in a row,
    /// returns.
    func testEveryStripeLocksAndUnlocks() {
        var locked = 0
        for index in 0..<LockStripes.count {
            let lock = StripedLock(for: Self.identifier(onStripe: index))
            lock.withLock { locked += 1 }
            lock.withLock { locked += 1 }
        }
        XCTAssertEqual(locked, 2 * LockStripes.count)
    }

    /// Two subjects on one stripe feed each other from inside their deliveries: each
    /// `onNext`, `subscribe` and `dispose` locks the stripe while the other subject's delivery
    /// is under way, which would deadlock if a subject held its lock while calling out.
    func testSubjectsOnOneStripeSendSubscribeAndDisposeFromInsideEachOthersDeliveries() throws {
        let (first, second) = try Self.twoOnOneStripe { PublishSubject<Int>() }
        let (current, other) = try Self.twoOnOneStripe { BehaviorSubject(value: 0) }
        var received: [String] = []
        let done = runGuarded {
            let bag = DisposeBag()
            second.subscribe(onNext: { received.append("second \($0)") }).disposed(by: bag)
            other.subscribe(onNext: { received.append("other \($0)") }).disposed(by: bag)
            first.subscribe(onNext: { value in
                second.onNext(value * 10)
                // Subscribing replays the current value (through the gate sharing the stripe).
                let inner = current.subscribe(onNext: { received.append("current \($0) during \(value)") })
                other.onNext(value * 100)
                inner.dispose()
            }).disposed(by: bag)
            current.subscribe(onNext: { value in
                if value > 0 { first.onNext(value + 1) }
            }).disposed(by: bag)
            current.onNext(1)
        }
        XCTAssertTrue(done, "a subject deadlocked on a stripe it shares")
        XCTAssertEqual(received, ["other 0", "second 20", "current 1 during 2", "other 200"])
    }

    // MARK: - Support

    /// An object identifier whose stripe is `index` (an address made up for the hash; never
    /// dereferenced).
    private static func identifier(onStripe index: Int) -> ObjectIdentifier {
        var address: UInt = 0x1000
        while LockStripes.index(for: address) != index { address &+= 16 }
        return unsafeBitCast(address, to: ObjectIdentifier.self)
    }

    /// Two objects made by `make` whose addresses share a stripe (the others made on the way
    /// are released).
    private static func twoOnOneStripe<Object: AnyObject>(_ make: () -> Object) throws -> (Object, Object) {
        var byStripe: [Int: Object] = [:]
        for _ in 0..<10_000 {
            let object = make()
            let stripe = LockStripes.index(for: UInt(bitPattern: ObjectIdentifier(object)))
            if let earlier = byStripe[stripe] { return (earlier, object) }
            byStripe[stripe] = object
        }
        throw XCTSkip("no two of 10,000 objects shared a stripe")
    }

    /// Runs `body` on another thread; `false` if it has not returned after a minute (a
    /// deadlock: the body takes microseconds), so that the test fails instead of hanging.
    private func runGuarded(_ body: @escaping () -> Void) -> Bool {
        let finished = DispatchSemaphore(value: 0)
        // The box is written here, before the thread starts, and read only by that thread.
        let box = UncheckedBox(body)
        Thread.detachNewThread {
            box.value()
            finished.signal()
        }
        return finished.wait(timeout: .now() + 60) == .success
    }
}

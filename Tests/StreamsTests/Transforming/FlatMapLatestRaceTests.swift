import XCTest
import Foundation
@testable import Streams
import StreamsTest

/// `flatMapLatest` under concurrency: once an inner sequence has replaced another, nothing of the
/// replaced one is delivered after the replacement's first element (issue 17, finding 1).
final class FlatMapLatestRaceTests: XCTestCase {
    override func tearDown() {
        SerializingSinkTestHooks.beforeConditionalDelivery = nil
        super.tearDown()
    }

    /// Drives the race deterministically: the old inner's element has passed its "is it the
    /// latest?" check when the switch happens. It is delivered before the replacement's first
    /// element (it was decided first), never after.
    func testFlatMapLatest_switchBetweenCheckAndDeliveryKeepsOrder() {
        // Eventually: the sending thread releases its closure (and the subject) as it exits.
        XCTAssertNoLeaksEventually {
            let outer = PublishSubject<Int>()
            let first = PublishSubject<Int>()
            let second = BehaviorSubject(value: 100)
            let received = LockedState([Int]())
            let subscription =
                outer
                .flatMapLatest { $0 == 1 ? first.asObservable() : second.asObservable() }
                .subscribe(onNext: { value in received.withLock { $0.append(value) } })
            outer.onNext(1)

            let pause = PauseOnce()
            SerializingSinkTestHooks.beforeConditionalDelivery = pause.hook
            let sent = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                first.onNext(1)
                sent.signal()
            }
            pause.waitUntilPaused()
            outer.onNext(2)
            pause.resume()
            sent.wait()
            SerializingSinkTestHooks.beforeConditionalDelivery = nil

            XCTAssertEqual(received.withLock { $0 }, [1, 100])
            subscription.dispose()
        }
    }

    /// An element of a replaced inner that had not passed its check when the switch happened is
    /// dropped.
    func testFlatMapLatest_elementOfReplacedInnerAfterSwitchIsDropped() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            let first = PublishSubject<Int>()
            let second = BehaviorSubject(value: 100)
            var received: [Int] = []
            let subscription =
                outer
                .flatMapLatest { $0 == 1 ? first.asObservable() : second.asObservable() }
                .subscribe(onNext: { received.append($0) })
            outer.onNext(1)
            first.onNext(1)
            outer.onNext(2)
            first.onNext(2)
            second.onNext(101)
            XCTAssertEqual(received, [1, 100, 101])
            subscription.dispose()
        }
    }

    /// Bounded stress: one thread switches 5,000 times while another sends into whichever inner
    /// is current; the inners' tags must never go back.
    func testFlatMapLatest_stressSwitchingWhileInnerSends() {
        XCTAssertNoLeaksEventually {
            let switches = 5_000
            let inners = (0..<switches).map { BehaviorSubject(value: $0) }
            let outer = PublishSubject<Int>()
            let current = LockedState(0)
            let received = LockedState([Int]())
            let subscription =
                outer
                .flatMapLatest { inners[$0].asObservable() }
                .subscribe(onNext: { tag in received.withLock { $0.append(tag) } })
            outer.onNext(0)
            let done = LockedState(false)
            let senderFinished = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                // Bounded: at most 50,000 sends, however slowly the switching thread runs.
                for _ in 0..<50_000 where !done.withLock({ $0 }) {
                    let index = current.withLock { $0 }
                    inners[index].onNext(index)
                }
                senderFinished.signal()
            }
            for index in 1..<switches {
                current.withLock { $0 = index }
                outer.onNext(index)
            }
            done.withLock { $0 = true }
            senderFinished.wait()
            let tags = received.withLock { $0 }
            let regressions = zip(tags, tags.dropFirst()).filter { $0 > $1 }.count
            XCTAssertEqual(regressions, 0, "an element of a replaced inner arrived after its replacement's")
            XCTAssertEqual(tags.last, switches - 1)
            subscription.dispose()
        }
    }
}

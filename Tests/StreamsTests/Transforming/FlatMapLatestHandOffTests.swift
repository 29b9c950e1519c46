import XCTest
import Foundation
@testable import Streams
import StreamsTest

/// `flatMapLatest`'s inner-subscription hand-off: the subscribing thread stores the latest inner
/// subscription without the lock, everyone else takes it under the lock. Whatever interleaves
/// with a subscription (a re-entrant switch, a synchronous completion or error, disposal, a
/// completion while it is being stored), every inner subscription ends up disposed exactly when
/// it should be, and nothing leaks.
final class FlatMapLatestHandOffTests: XCTestCase {
    override func tearDown() {
        SwitchSinkTestHooks.whileWriting = nil
        super.tearDown()
    }

    /// An element sent back into the source from inside an inner sequence's replay switches while
    /// that inner sequence is still being subscribed: its subscription is disposed as soon as
    /// `subscribe` returns, the new one is kept.
    func testReentrantSwitchDuringInnerSubscribeDisposesTheReplacedInner() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            let inners = [BehaviorSubject(value: 10), BehaviorSubject(value: 20)]
            var received: [Int] = []
            let subscription =
                outer
                .flatMapLatest { inners[$0].asObservable() }
                .subscribe(onNext: { value in
                    received.append(value)
                    if value == 10 { outer.onNext(1) }
                })
            outer.onNext(0)
            XCTAssertEqual(received, [10, 20])
            XCTAssertFalse(inners[0].hasObservers)
            XCTAssertTrue(inners[1].hasObservers)
            inners[0].onNext(11)
            inners[1].onNext(21)
            XCTAssertEqual(received, [10, 20, 21])
            subscription.dispose()
            XCTAssertFalse(inners[1].hasObservers)
        }
    }

    /// Inner sequences that complete while being subscribed (`just`): every element arrives,
    /// and the output completes with the source.
    func testInnerCompletingDuringSubscribe() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            var events: [Event<Int>] = []
            let subscription = outer.flatMapLatest { Observable.just($0) }.subscribe { events.append($0) }
            for value in 1...3 { outer.onNext(value) }
            XCTAssertEqual(events, [.next(1), .next(2), .next(3)])
            outer.onCompleted()
            XCTAssertEqual(events, [.next(1), .next(2), .next(3), .completed])
            subscription.dispose()
        }
    }

    /// An inner sequence that fails while being subscribed fails the output and unsubscribes the
    /// source; later elements do nothing.
    func testInnerErrorDuringSubscribe() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            var events: [Event<Int>] = []
            let subscription =
                outer
                .flatMapLatest { $0 == 2 ? Observable<Int>.error(HandOffError.boom) : Observable.just($0) }
                .subscribe { events.append($0) }
            outer.onNext(1)
            outer.onNext(2)
            outer.onNext(3)
            XCTAssertEqual(events, [.next(1), .error(HandOffError.boom)])
            XCTAssertFalse(outer.hasObservers)
            subscription.dispose()
        }
    }

    /// Disposing the output from inside an inner sequence's replay (while it is being
    /// subscribed) disposes that inner subscription when `subscribe` returns.
    func testDisposeDuringInnerSubscribe() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            let inner = BehaviorSubject(value: 1)
            var received: [Int] = []
            let disposable = SingleAssignmentDisposable()
            disposable.setDisposable(
                outer.flatMapLatest { _ in inner.asObservable() }
                    .subscribe(onNext: { value in
                        received.append(value)
                        disposable.dispose()
                    }))
            outer.onNext(0)
            XCTAssertEqual(received, [1])
            XCTAssertFalse(inner.hasObservers)
            XCTAssertFalse(outer.hasObservers)
        }
    }

    /// Disposal that finds the subscription being stored (driven deterministically through the
    /// DEBUG hook) leaves it to the storing thread, which disposes it.
    func testDisposeWhileTheSubscriptionIsBeingStored() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            let inner = BehaviorSubject(value: 1)
            var received: [Int] = []
            let subscription = outer.flatMapLatest { _ in inner.asObservable() }.subscribe(onNext: { received.append($0) })
            var hookRan = false
            SwitchSinkTestHooks.whileWriting = {
                SwitchSinkTestHooks.whileWriting = nil
                hookRan = true
                subscription.dispose()
            }
            outer.onNext(0)
            XCTAssertTrue(hookRan)
            XCTAssertEqual(received, [1])
            XCTAssertFalse(inner.hasObservers, "the subscription stored during disposal was not disposed")
            inner.onNext(2)
            XCTAssertEqual(received, [1])
        }
    }

    /// The latest inner sequence completing while its subscription is being stored: the
    /// subscription is disposed, and the output completes once the source does.
    func testInnerCompletionWhileTheSubscriptionIsBeingStored() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            let inner = BehaviorSubject(value: 1)
            var events: [Event<Int>] = []
            let subscription = outer.flatMapLatest { _ in inner.asObservable() }.subscribe { events.append($0) }
            SwitchSinkTestHooks.whileWriting = {
                SwitchSinkTestHooks.whileWriting = nil
                inner.onCompleted()
            }
            outer.onNext(0)
            XCTAssertFalse(inner.hasObservers)
            XCTAssertEqual(events, [.next(1)])
            outer.onCompleted()
            XCTAssertEqual(events, [.next(1), .completed])
            subscription.dispose()
        }
    }

    /// A switch after an inner sequence completed (its slot empty) and after one that is still
    /// running (its subscription stored) disposes exactly the running one.
    func testSwitchDisposesOnlyTheStoredSubscription() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            let inners = [BehaviorSubject(value: 10), BehaviorSubject(value: 20), BehaviorSubject(value: 30)]
            var received: [Int] = []
            let subscription = outer.flatMapLatest { inners[$0].asObservable() }.subscribe(onNext: { received.append($0) })
            outer.onNext(0)
            inners[0].onCompleted()
            outer.onNext(1)
            XCTAssertTrue(inners[1].hasObservers)
            outer.onNext(2)
            XCTAssertFalse(inners[1].hasObservers)
            XCTAssertTrue(inners[2].hasObservers)
            XCTAssertEqual(received, [10, 20, 30])
            subscription.dispose()
            XCTAssertFalse(inners[2].hasObservers)
        }
    }

    /// Disposal and inner completions on other threads racing with the switches: whatever the
    /// interleaving, once everything has stopped no inner subject has an observer left, the
    /// elements arrive in switch order, and nothing leaks. (Assertions on the end state only.)
    func testDisposeAndCompletionsRacingWithSwitches() {
        XCTAssertNoLeaksEventually {
            for round in 0..<20 {
                let count = 300
                let inners = (0..<count).map { BehaviorSubject(value: $0) }
                let outer = PublishSubject<Int>()
                let received = LockedState([Int]())
                let subscription =
                    outer
                    .flatMapLatest { inners[$0].asObservable() }
                    .subscribe(onNext: { value in received.withLock { $0.append(value) } })
                let group = DispatchGroup()
                let halfway = DispatchSemaphore(value: 0)
                group.enter()
                Thread.detachNewThread {
                    for index in 0..<count {
                        outer.onNext(index)
                        if index == count / 2 { halfway.signal() }
                    }
                    group.leave()
                }
                group.enter()
                Thread.detachNewThread {
                    // Completes inners while they may be being subscribed or stored.
                    for index in stride(from: round % 3, to: count, by: 3) { inners[index].onCompleted() }
                    group.leave()
                }
                halfway.wait()
                subscription.dispose()
                group.wait()
                let values = received.withLock { $0 }
                XCTAssertEqual(values, values.sorted(), "round \(round): elements out of switch order")
                for (index, inner) in inners.enumerated() {
                    XCTAssertFalse(inner.hasObservers, "round \(round): inner \(index) still subscribed")
                }
            }
        }
    }
}

private enum HandOffError: Error, Equatable {
    case boom
}

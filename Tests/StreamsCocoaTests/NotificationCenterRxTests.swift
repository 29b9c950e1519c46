import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XCTest
import StreamsCocoa
import StreamsTest

extension Notification.Name {
    fileprivate static let test = Notification.Name("NotificationCenterRxTests.test")
    fileprivate static let other = Notification.Name("NotificationCenterRxTests.other")
    fileprivate static let sessionExpired = Notification.Name("NotificationCenterRxTests.sessionExpired")
}

/// `NotificationCenter.rx.notification(_:object:)`, after RxSwift's `NotificationCenterTests`
/// (subscribe, post, dispose, post again), plus threads, disposal races and leaks. Each test uses
/// a center of its own, kept alive past the leak check so that an observer left registered on it
/// would count as a leak.
final class NotificationCenterRxTests: XCTestCase {
    /// Posts from this test file: a name, an object, and the thread they arrived on.
    private final class Received: @unchecked Sendable {
        // Safety: every field is behind `state`'s lock; notifications are only stored and read back.
        private let state = LockedState<[(notification: Notification, thread: Thread)]>([])

        var names: [Notification.Name] { state.withLock { $0.map(\.notification.name) } }
        var objects: [AnyObject?] { state.withLock { $0.map { $0.notification.object as AnyObject? } } }
        var threads: [Thread] { state.withLock { $0.map(\.thread) } }
        var userInfos: [[AnyHashable: Any]?] { state.withLock { $0.map(\.notification.userInfo) } }
        var count: Int { state.withLock { $0.count } }

        func record(_ notification: Notification) {
            let thread = Thread.current
            state.withLock { $0.append((notification, thread)) }
        }
    }

    private var deliveries: Int { Resources.liveCounts["NotificationDelivery", default: 0] }

    // MARK: RxSwift's NotificationCenterTests

    func testNotification_withoutObject() {
        let center = NotificationCenter()
        XCTAssertNoLeaks {
            let received = Received()
            center.post(name: .test, object: nil)
            let subscription = center.rx.notification(.test, object: nil).subscribe(onNext: received.record)
            XCTAssertEqual(received.count, 0, "nothing posted before the subscription is delivered")

            center.post(name: .test, object: nil)
            XCTAssertEqual(received.count, 1)
            let sender = NSObject()
            center.post(name: .test, object: sender)
            XCTAssertEqual(received.count, 2)
            XCTAssertTrue(received.objects.last! === sender)
            center.post(name: .other, object: nil)
            XCTAssertEqual(received.names, [.test, .test])

            subscription.dispose()
            center.post(name: .test, object: nil)
            XCTAssertEqual(received.count, 2, "nothing after dispose")
        }
    }

    func testNotification_withObject() {
        let center = NotificationCenter()
        let target = NSObject()
        XCTAssertNoLeaks {
            let received = Received()
            center.post(name: .test, object: target)
            center.post(name: .test, object: nil)
            let subscription = center.rx.notification(.test, object: target).subscribe(onNext: received.record)
            XCTAssertEqual(received.count, 0)

            center.post(name: .test, object: target)
            XCTAssertEqual(received.count, 1)
            center.post(name: .test, object: nil)
            center.post(name: .test, object: NSObject())
            center.post(name: .other, object: target)
            XCTAssertEqual(received.count, 1, "other senders and other names are filtered out")
            center.post(name: .test, object: target)
            XCTAssertEqual(received.count, 2)
            XCTAssertTrue(received.objects.allSatisfy { $0 === target })

            subscription.dispose()
            center.post(name: .test, object: target)
            XCTAssertEqual(received.count, 2, "nothing after dispose")
        }
    }

    // MARK: name and object filters

    func testNotification_nilNameReceivesEveryName() {
        let center = NotificationCenter()
        XCTAssertNoLeaks {
            let received = Received()
            let subscription = center.rx.notification(nil).subscribe(onNext: received.record)
            center.post(name: .test, object: nil)
            center.post(name: .other, object: NSObject())
            XCTAssertEqual(received.names, [.test, .other])
            subscription.dispose()
            center.post(name: .test, object: nil)
            XCTAssertEqual(received.count, 2)
        }
    }

    func testNotification_nilNameWithObjectReceivesThatSendersNotifications() {
        let center = NotificationCenter()
        let target = NSObject()
        XCTAssertNoLeaks {
            let received = Received()
            let subscription = center.rx.notification(nil, object: target).subscribe(onNext: received.record)
            center.post(name: .test, object: target)
            center.post(name: .other, object: NSObject())
            center.post(name: .other, object: nil)
            center.post(name: .other, object: target)
            XCTAssertEqual(received.names, [.test, .other])
            subscription.dispose()
        }
    }

    func testNotification_userInfoArrivesUnchanged() {
        let center = NotificationCenter()
        XCTAssertNoLeaks {
            let received = Received()
            let subscription = center.rx.notification(.test).subscribe(onNext: received.record)
            center.post(name: .test, object: nil, userInfo: ["reason": "expired", "code": 401])
            subscription.dispose()
            XCTAssertEqual(received.userInfos.count, 1)
            XCTAssertEqual(received.userInfos.first??["reason"] as? String, "expired")
            XCTAssertEqual(received.userInfos.first??["code"] as? Int, 401)
        }
    }

    func testNotification_objectGoneBeforeSubscribingReceivesNothing() {
        let center = NotificationCenter()
        var target: NSObject? = NSObject()
        weak let weakTarget = target
        let notifications = center.rx.notification(.test, object: target)
        target = nil
        XCTAssertNil(weakTarget, "the observable does not keep its object alive")
        XCTAssertNoLeaks {
            let received = Received()
            let subscription = notifications.subscribe(onNext: received.record)
            center.post(name: .test, object: nil)
            center.post(name: .test, object: NSObject())
            XCTAssertEqual(received.count, 0, "a sender that no longer exists posts nothing (RxCocoa would observe every sender)")
            XCTAssertEqual(deliveries, 0, "no observer was added")
            subscription.dispose()
        }
    }

    // MARK: subscriptions

    func testNotification_observesOnlyWhileSubscribed() {
        let center = NotificationCenter()
        XCTAssertNoLeaks {
            let notifications = center.rx.notification(.test)
            XCTAssertEqual(deliveries, 0, "creating the observable adds no observer")
            let received = Received()
            let subscription = notifications.subscribe(onNext: received.record)
            XCTAssertEqual(deliveries, 1, "subscribing adds one")
            center.post(name: .test, object: nil)
            subscription.dispose()
            XCTAssertEqual(deliveries, 0, "disposing removes it from the center")
            XCTAssertEqual(received.count, 1)
        }
    }

    func testNotification_twoSubscriptionsEachReceiveAndDisposeApart() {
        let center = NotificationCenter()
        XCTAssertNoLeaks {
            let notifications = center.rx.notification(.test)
            let first = Received()
            let second = Received()
            let firstSubscription = notifications.subscribe(onNext: first.record)
            let secondSubscription = notifications.subscribe(onNext: second.record)
            center.post(name: .test, object: nil)
            XCTAssertEqual([first.count, second.count], [1, 1])

            firstSubscription.dispose()
            center.post(name: .test, object: nil)
            XCTAssertEqual([first.count, second.count], [1, 2], "disposing one leaves the other observing")
            secondSubscription.dispose()
            center.post(name: .test, object: nil)
            XCTAssertEqual([first.count, second.count], [1, 2])
        }
    }

    func testNotification_neverCompletesOrFails() {
        let center = NotificationCenter()
        XCTAssertNoLeaks {
            var events: [String] = []
            let subscription = center.rx.notification(.test).subscribe(
                onNext: { events.append($0.name.rawValue) },
                onError: { events.append("error \($0)") },
                onCompleted: { events.append("completed") },
                onDisposed: { events.append("disposed") })
            center.post(name: .test, object: nil)
            subscription.dispose()
            XCTAssertEqual(events, [Notification.Name.test.rawValue, "disposed"])
        }
    }

    func testNotification_disposeFromInsideTheObserver() {
        let center = NotificationCenter()
        XCTAssertNoLeaks {
            let received = Received()
            let bag = SerialDisposable()
            bag.disposable = center.rx.notification(.test).subscribe(onNext: { notification in
                received.record(notification)
                bag.dispose()  // returns at once: the delivery in progress is this one
            })
            center.post(name: .test, object: nil)
            center.post(name: .test, object: nil)
            XCTAssertEqual(received.count, 1)
        }
    }

    func testNotification_takeOneEndsTheSubscription() {
        let center = NotificationCenter()
        XCTAssertNoLeaks {
            var events: [String] = []
            _ = center.rx.notification(.test).take(1).subscribe(
                onNext: { events.append($0.name.rawValue) },
                onCompleted: { events.append("completed") })
            center.post(name: .test, object: nil)
            center.post(name: .test, object: nil)
            XCTAssertEqual(events, [Notification.Name.test.rawValue, "completed"])
            XCTAssertEqual(deliveries, 0, "completion removed the observer")
        }
    }

    func testNotification_postFromInsideTheObserverIsDeliveredReentrantly() {
        let center = NotificationCenter()
        XCTAssertNoLeaks {
            var names: [Notification.Name] = []
            let subscription = center.rx.notification(nil).subscribe(onNext: { notification in
                names.append(notification.name)
                if notification.name == .test { center.post(name: .other, object: nil) }
            })
            center.post(name: .test, object: nil)
            subscription.dispose()
            XCTAssertEqual(names, [.test, .other])
        }
    }

    // MARK: threads

    func testNotification_deliveredOnThePostingThread() {
        let center = NotificationCenter()
        XCTAssertNoLeaks {
            let received = Received()
            let subscription = center.rx.notification(.test).subscribe(onNext: received.record)
            center.post(name: .test, object: nil)

            let posted = expectation(description: "posted from a background thread")
            let poster = Thread {
                center.post(name: .test, object: nil)
                posted.fulfill()
            }
            poster.start()
            wait(for: [posted], timeout: 30)
            subscription.dispose()

            XCTAssertEqual(received.count, 2)
            XCTAssertTrue(received.threads.first === Thread.current, "a post from this thread arrives here")
            XCTAssertTrue(received.threads.last === poster, "a post from the background thread arrives on it, inside post")
        }
    }

    /// Disposal racing posts on another thread: once `dispose()` returns, no delivery is under way
    /// and none starts. Each round disposes while a thread posts in a loop and the observer spends
    /// a while in each delivery (yielding the processor), so that disposal usually lands in the
    /// middle of one; the poster then posts ten more times before it stops.
    func testNotification_nothingIsDeliveredAfterDisposeReturns() {
        final class Round: Sendable {
            let disposeReturned = Atomic<Bool>(false)
            let stop = Atomic<Bool>(false)
            let delivered = Atomic<Int>(0)
            /// Deliveries under way, or started, after `dispose()` returned.
            let late = Atomic<Int>(0)
            let firstDelivery = DispatchSemaphore(value: 0)
            let postedAfterDispose = DispatchSemaphore(value: 0)
            let posterDone = DispatchSemaphore(value: 0)

            func checkNotDisposed() {
                if disposeReturned.load(ordering: .sequentiallyConsistent) { late.add(1, ordering: .sequentiallyConsistent) }
            }
        }

        let rounds = 200
        var lateRounds = 0
        let center = NotificationCenter()
        XCTAssertNoLeaksEventually {
            for _ in 0..<rounds {
                let round = Round()
                let subscription = center.rx.notification(.test).subscribe(onNext: { _ in
                    round.checkNotDisposed()
                    if round.delivered.add(1, ordering: .sequentiallyConsistent).newValue == 1 { round.firstDelivery.signal() }
                    for _ in 0..<20 { sched_yield() }  // stay in the delivery a while
                    round.checkNotDisposed()
                })
                Thread {
                    var postsAfterDispose = 0
                    while !round.stop.load(ordering: .sequentiallyConsistent) {
                        let disposed = round.disposeReturned.load(ordering: .sequentiallyConsistent)
                        center.post(name: .test, object: nil)
                        if disposed {
                            postsAfterDispose += 1
                            if postsAfterDispose == 10 { round.postedAfterDispose.signal() }
                        }
                    }
                    round.posterDone.signal()
                }.start()
                XCTAssertEqual(round.firstDelivery.wait(timeout: .now() + 30), .success, "the poster delivered")
                subscription.dispose()
                round.disposeReturned.store(true, ordering: .sequentiallyConsistent)
                let deliveredAtDispose = round.delivered.load(ordering: .sequentiallyConsistent)
                XCTAssertEqual(round.postedAfterDispose.wait(timeout: .now() + 30), .success, "the poster went on posting")
                round.stop.store(true, ordering: .sequentiallyConsistent)
                XCTAssertEqual(round.posterDone.wait(timeout: .now() + 30), .success, "the poster stopped")
                XCTAssertEqual(round.delivered.load(ordering: .sequentiallyConsistent), deliveredAtDispose, "deliveries after dispose returned")
                if round.late.load(ordering: .sequentiallyConsistent) != 0 { lateRounds += 1 }
            }
        }
        XCTAssertEqual(lateRounds, 0, "rounds (of \(rounds)) where the observer ran after dispose returned")
    }

    func testNotification_disposeOnAnotherThreadWhileTheObserverDisposesToo() {
        // The observer disposes its own subscription while the test thread disposes it too: the
        // first `dispose()` to arrive closes it; neither deadlocks.
        let center = NotificationCenter()
        XCTAssertNoLeaksEventually {
            let inside = DispatchSemaphore(value: 0)
            let received = Received()
            let subscription = SerialDisposable()
            subscription.disposable = center.rx.notification(.test).subscribe(onNext: { notification in
                received.record(notification)
                inside.signal()
                subscription.dispose()
            })
            let posted = expectation(description: "posted")
            Thread {
                center.post(name: .test, object: nil)
                posted.fulfill()
            }.start()
            XCTAssertEqual(inside.wait(timeout: .now() + 30), .success)
            subscription.dispose()
            wait(for: [posted], timeout: 30)
            center.post(name: .test, object: nil)
            XCTAssertEqual(received.count, 1)
        }
    }

    // MARK: Swift 6 and the main actor

    /// `Notification` is not `Sendable`, so `values` needs it mapped to what the async code uses.
    func testNotification_awaitedAsValuesOnceMappedToASendableValue() async throws {
        let center = NotificationCenter()
        let subscribed = expectation(description: "the iteration subscribed")
        let collected = Task {
            var names: [Notification.Name] = []
            let sequence = center.rx.notification(nil).map(\.name).take(2).do(onSubscribed: { subscribed.fulfill() })
            for try await name in sequence.values { names.append(name) }
            return names
        }
        await fulfillment(of: [subscribed], timeout: 30)
        center.post(name: .test, object: nil)
        center.post(name: .other, object: nil)
        let names = try await collected.value
        XCTAssertEqual(names, [.test, .other])
        XCTAssertEqual(deliveries, 0, "take(2) ended the subscription and removed the observer")
    }

    /// What an app writes: a main-actor model updated from a notification posted on any thread.
    @MainActor
    private final class SessionModel {
        private(set) var expirations = 0
        private let disposeBag = DisposeBag()

        init(center: NotificationCenter, onChange: @escaping @MainActor () -> Void) {
            center.rx.notification(.sessionExpired)
                .observe(on: MainScheduler.instance)
                .subscribe(onNext: { [weak self] _ in
                    self?.expirations += 1
                    onChange()
                })
                .disposed(by: disposeBag)
        }
    }

    @MainActor
    func testNotification_fromMainActorCode() async {
        let center = NotificationCenter()
        let changed = expectation(description: "the model saw the notification")
        let model = SessionModel(center: center) { changed.fulfill() }
        Task.detached {
            center.post(name: .sessionExpired, object: nil)
        }
        await fulfillment(of: [changed], timeout: 30)
        XCTAssertEqual(model.expirations, 1)
        MainActor.assertIsolated()
    }
}

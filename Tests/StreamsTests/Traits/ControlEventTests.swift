import Foundation
import XCTest
import Streams
import StreamsTest

private struct TestError: Error {}

/// `ControlEvent`: its events and its conversions to `Signal`, `Driver`, `Infallible`.
final class ControlEventTests: XCTestCase {
    func testControlEvent_forwardsEventsWhileSubscribed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let taps = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(300)])
            let event = ControlEvent(events: taps)
            let res = scheduler.start { event }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
            XCTAssertEqual(taps.subscriptions, [Subscription(200, 300)])
        }
    }

    func testControlEvent_emptyNeverAndDisposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            XCTAssertEqual(scheduler.start { ControlEvent(events: Observable<Int>.empty()) }.events, [.completed(200)])
            let scheduler2 = TestScheduler(initialClock: 0)
            XCTAssertEqual(scheduler2.start { ControlEvent(events: Observable<Int>.never()) }.events, [])
            let scheduler3 = TestScheduler(initialClock: 0)
            let taps = scheduler3.createHotObservable([.next(210, 1), .next(230, 2)])
            let res = scheduler3.start(disposed: 220) { ControlEvent(events: taps) }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(taps.subscriptions, [Subscription(200, 220)])
        }
    }

    func testControlEvent_subscribesEventsOnTheMainThread() {
        XCTAssertNoLeaksEventually {
            let subscribed = expectation(description: "events subscribed")
            let onMain = ThreadSafeTestBox<Bool?>(nil)
            let events = Observable<Void>.create { _ in
                onMain.mutate { $0 = Thread.isMainThread }
                subscribed.fulfill()
                return Disposables.create()
            }
            let returned = expectation(description: "subscribe returned")
            let subscription = ThreadSafeTestBox<Disposable?>(nil)
            let box = UncheckedSendableTestBox(value: ControlEvent(events: events))
            DispatchQueue.global().async {
                let disposable = box.value.subscribe()
                subscription.mutate { $0 = disposable }
                returned.fulfill()
            }
            wait(for: [subscribed, returned], timeout: 10)
            XCTAssertEqual(onMain.value, true)
            subscription.value?.dispose()
        }
    }

    func testControlEvent_asSignalDeliversOnTheSharingSchedulerWithoutReplay() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let taps = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
            var signal: Signal<Int>!
            SharingScheduler.mock(scheduler: scheduler) {
                signal = ControlEvent(events: taps).asSignal()
            }
            let late = scheduler.createObserver(Int.self)
            var lateSubscription: Disposable?
            _ = scheduler.scheduleAt(230) { lateSubscription = signal.emit(to: late) }
            _ = scheduler.scheduleAt(400) { lateSubscription?.dispose() }
            let res = scheduler.start { signal.asObservable() }
            XCTAssertEqual(res.events, [.next(211, 1), .next(241, 2)])
            XCTAssertEqual(late.events, [.next(241, 2)])
            XCTAssertEqual(taps.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testControlEvent_asDriverReplaysTheLatestEvent() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let taps = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
            var driver: Driver<Int>!
            SharingScheduler.mock(scheduler: scheduler) {
                driver = ControlEvent(events: taps).asDriver()
            }
            let late = scheduler.createObserver(Int.self)
            var lateSubscription: Disposable?
            _ = scheduler.scheduleAt(230) { lateSubscription = driver.drive(late) }
            _ = scheduler.scheduleAt(400) { lateSubscription?.dispose() }
            let res = scheduler.start { driver.asObservable() }
            XCTAssertEqual(res.events, [.next(211, 1), .next(241, 2)])
            XCTAssertEqual(late.events, [.next(230, 1), .next(241, 2)])
        }
    }

    func testControlEvent_conversionsReportAnErrorAndComplete() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let taps = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
            var signal: Signal<Int>!
            var driver: Driver<Int>!
            SharingScheduler.mock(scheduler: scheduler) {
                signal = ControlEvent(events: taps).asSignal()
                driver = ControlEvent(events: taps).asDriver()
            }
            let signalled = scheduler.createObserver(Int.self)
            let driven = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            _ = scheduler.scheduleAt(200) { subscriptions = [signal.emit(to: signalled), driver.drive(driven)] }
            _ = scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            let reported = capturingUnhandledErrors { scheduler.start() }
            XCTAssertEqual(signalled.events, [.next(211, 1), .completed(221)])
            XCTAssertEqual(driven.events, [.next(211, 1), .completed(221)])
            XCTAssertEqual(reported.map { "\(type(of: $0))" }, ["TestError", "TestError"])
        }
    }

    func testControlEvent_asInfallibleCompletesInsteadOfFailing() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let taps = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
            let res = scheduler.start { ControlEvent(events: taps).asInfallible().asObservable() }
            XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        }
    }

    func testControlEvent_reentrantSubscriberSeesLaterEventsInOrder() {
        XCTAssertNoLeaks {
            let taps = PublishSubject<Int>()
            let event = ControlEvent(events: taps).asControlEvent()
            var seen: [Int] = []
            let subscription = event.subscribe(onNext: { value in
                seen.append(value)
                if value == 1 { taps.onNext(2) }
            })
            taps.onNext(1)
            taps.onNext(3)
            subscription.dispose()
            XCTAssertEqual(seen, [1, 2, 3])
        }
    }
}

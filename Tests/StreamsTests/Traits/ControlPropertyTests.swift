import Foundation
import XCTest
import Streams
import StreamsTest

private struct TestError: Error {}

/// `ControlProperty`: its values, `changed`, binding to its sink, `orEmpty`, `asDriver()`.
final class ControlPropertyTests: XCTestCase {
    func testControlProperty_forwardsValuesWhileSubscribed() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(300)])
            let property = ControlProperty(values: xs, valueSink: scheduler.createObserver(Int.self))
            // Subscribed on `ConcurrentMainScheduler`, which runs at once on the main thread (tests run there).
            let res = scheduler.start { property }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testControlProperty_emptyNeverAndDisposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let sink = scheduler.createObserver(Int.self)
            let empty = ControlProperty(values: Observable<Int>.empty(), valueSink: sink)
            let never = ControlProperty(values: Observable<Int>.never(), valueSink: sink)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let live = ControlProperty(values: xs, valueSink: sink)

            XCTAssertEqual(TestScheduler(initialClock: 0).start { empty }.events, [.completed(200)])
            XCTAssertEqual(TestScheduler(initialClock: 0).start { never }.events, [])
            let res = scheduler.start(disposed: 220) { live }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(sink.events, [])
        }
    }

    func testControlProperty_subscribesValuesOnTheMainThread() {
        XCTAssertNoLeaksEventually {
            let subscribed = expectation(description: "values subscribed")
            let onMain = ThreadSafeTestBox<Bool?>(nil)
            let values = Observable<Int>.create { observer in
                onMain.mutate { $0 = Thread.isMainThread }
                observer.onNext(1)
                subscribed.fulfill()
                return Disposables.create()
            }
            let property = ControlProperty(values: values, valueSink: AnyObserver<Int> { _ in })
            let returned = expectation(description: "subscribe returned")
            let subscription = ThreadSafeTestBox<Disposable?>(nil)
            let box = UncheckedSendableTestBox(value: property)
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

    func testControlProperty_changedSkipsTheCurrentValue() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let current = BehaviorSubject(value: "a")
            let property = ControlProperty(values: current, valueSink: current)
            _ = scheduler.scheduleAt(210) { current.onNext("b") }
            _ = scheduler.scheduleAt(220) { current.onNext("c") }
            let res = scheduler.start { property.changed }
            XCTAssertEqual(res.events, [.next(210, "b"), .next(220, "c")])
        }
    }

    func testControlProperty_bindingSendsElementsAndCompletionToTheSink() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let sink = scheduler.createObserver(Int.self)
            let property = ControlProperty(values: Observable<Int>.never(), valueSink: sink)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            var binding: Disposable?
            _ = scheduler.scheduleAt(200) { binding = xs.bind(to: property) }
            _ = scheduler.scheduleAt(300) { binding?.dispose() }
            scheduler.start()
            XCTAssertEqual(sink.events, [.next(210, 1), .next(220, 2), .completed(230)])
        }
    }

    func testControlProperty_errorIsReportedNotForwarded() {
        XCTAssertNoLeaks {
            var received: [Event<Int>] = []
            let property = ControlProperty(values: Observable<Int>.never(), valueSink: AnyObserver<Int> { received.append($0) })
            let reported = capturingUnhandledErrors {
                property.onNext(1)
                property.onError(TestError())
            }
            XCTAssertEqual(received, [.next(1)])
            XCTAssertEqual(reported.map { "\(type(of: $0))" }, ["TestError"])
        }
    }

    func testControlProperty_twoWayBindingReentersWithoutLoss() {
        XCTAssertNoLeaks {
            // The sink feeds the values (a text field that echoes what is set): an observer that
            // sets the property while receiving a value sees the new value next.
            let text = BehaviorSubject(value: 0)
            let property = ControlProperty(values: text, valueSink: text)
            var seen: [Int] = []
            let subscription = property.subscribe(onNext: { value in
                seen.append(value)
                if value == 1 { property.onNext(2) }
            })
            property.onNext(1)
            subscription.dispose()
            XCTAssertEqual(seen, [0, 1, 2])
        }
    }

    func testOrEmpty_readsNilAsEmptyAndSetsAnOptional() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, "a" as String?), .next(220, nil), .completed(230)])
            let sink = scheduler.createObserver(String?.self)
            let text = ControlProperty(values: xs, valueSink: sink).orEmpty
            let res = scheduler.start { text }
            XCTAssertEqual(res.events, [.next(210, "a"), .next(220, ""), .completed(230)])
            text.onNext("typed")
            XCTAssertEqual(sink.events, [.next(1000, "typed")])
        }
    }

    func testControlProperty_asDriverSharesOnTheSharingScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
            var driver: Driver<Int>!
            SharingScheduler.mock(scheduler: scheduler) {
                driver = ControlProperty(values: xs, valueSink: AnyObserver<Int> { _ in }).asDriver()
            }
            let late = scheduler.createObserver(Int.self)
            var lateSubscription: Disposable?
            _ = scheduler.scheduleAt(230) { lateSubscription = driver.drive(late) }
            _ = scheduler.scheduleAt(400) { lateSubscription?.dispose() }
            let res = scheduler.start { driver.asObservable() }
            XCTAssertEqual(res.events, [.next(211, 1), .next(221, 2)])
            XCTAssertEqual(late.events, [.next(230, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testControlProperty_asDriverReportsAnErrorAndCompletes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
            var driver: Driver<Int>!
            SharingScheduler.mock(scheduler: scheduler) {
                driver = ControlProperty(values: xs, valueSink: AnyObserver<Int> { _ in }).asDriver()
            }
            var res: TestableObserver<Int>!
            let reported = capturingUnhandledErrors {
                res = scheduler.start { driver.asObservable() }
            }
            XCTAssertEqual(res.events, [.next(211, 1), .completed(221)])
            XCTAssertEqual(reported.map { "\(type(of: $0))" }, ["TestError"])
        }
    }

    func testControlProperty_asControlPropertyIsItself() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1)])
            let sink = scheduler.createObserver(Int.self)
            let property = ControlProperty(values: xs, valueSink: sink).asControlProperty()
            let res = scheduler.start { property.asObservable() }
            property.onNext(5)
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(sink.events, [.next(1000, 5)])
        }
    }
}

import XCTest
import Foundation
import Streams
import StreamsTest

private struct TestError: Error {}
private struct OtherError: Error {}

final class CatchTests: XCTestCase {
    func testCatch_noErrorPassesThrough() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(250)])
            let ys = scheduler.createColdObservable([.next(10, 9), .completed(20)])
            let res = scheduler.start { xs.catch { _ in ys.asObservable() } }
            XCTAssertEqual(res.events, [.next(210, 2), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys.subscriptions, [])
        }
    }

    func testCatch_errorSwitchesToHandlerSequence() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError())])
            let ys = scheduler.createColdObservable([.next(10, 9), .completed(20)])
            var caught: [Error] = []
            let res = scheduler.start {
                xs.catch { error in
                    caught.append(error)
                    return ys.asObservable()
                }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .next(240, 9), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
            XCTAssertEqual(caught.count, 1)
            XCTAssertTrue(caught.first is TestError)
        }
    }

    func testCatch_handlerSequenceErrorIsForwarded() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError())])
            let ys = scheduler.createColdObservable([.next(10, 9), .error(20, OtherError())])
            let res = scheduler.start { xs.catch { _ in ys.asObservable() } }
            XCTAssertEqual(res.events, [.next(210, 1), .next(240, 9), .error(250, OtherError())])
            XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
        }
    }

    func testCatch_handlerThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError())])
            let res = scheduler.start { xs.catch { _ in throw OtherError() } }
            XCTAssertEqual(res.events, [.next(210, 1), .error(230, OtherError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testCatch_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
            let res = scheduler.start { xs.catch { _ in .just(0) } }
            XCTAssertEqual(res.events, [.completed(250)])
        }
    }

    func testCatch_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.catch { _ in .just(0) } }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testCatch_disposeMidStreamAfterSwitch() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError())])
            let ys = scheduler.createColdObservable([.next(10, 9), .next(30, 10), .completed(40)])
            let res = scheduler.start(disposed: 250) { xs.catch { _ in ys.asObservable() } }
            XCTAssertEqual(res.events, [.next(210, 1), .next(240, 9)])
            XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testCatch_disposeBeforeError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(300, TestError())])
            var handlerCalled = false
            let res = scheduler.start(disposed: 250) {
                xs.catch { _ in
                    handlerCalled = true
                    return .just(0)
                }
            }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertFalse(handlerCalled)
        }
    }

    func testCatch_nestedCatchesHandleInnerErrors() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            let subscription = Observable<Int>.error(TestError())
                .catch { _ in Observable<Int>.error(OtherError()) }
                .catch { error in .just(error is OtherError ? 2 : -1) }
                .subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(2), .completed])
            subscription.dispose()
        }
    }

    func testCatch_reentrantDisposeFromObserverInsideContinuation() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var values: [Int] = []
            let subscription = SingleAssignmentDisposable()
            subscription.setDisposable(
                Observable<Int>.error(TestError())
                    .catch { _ in subject.asObservable() }
                    .subscribe(onNext: { value in
                        values.append(value)
                        subscription.dispose()
                    }))
            XCTAssertTrue(subject.hasObservers)
            subject.onNext(1)
            subject.onNext(2)
            XCTAssertEqual(values, [1])
            XCTAssertFalse(subject.hasObservers)
        }
    }

    func testCatchAndReturn_replacesErrorWithElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError())])
            let res = scheduler.start { xs.catchAndReturn(42) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 42), .completed(230)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testCatchAndReturn_completedSourceUnchanged() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
            let res = scheduler.start { xs.catchAndReturn(42) }
            XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
        }
    }

    func testCatch_errorFromAnotherThread() {
        XCTAssertNoLeaksEventually {
            let observer = ConcurrencyCheckingObserver<Int>(expectation(description: "completed"))
            let subscription = Observable<Int>.create { observer in
                let box = UncheckedSendableTestBox(value: observer)
                DispatchQueue.global().async {
                    box.value.onNext(1)
                    box.value.onError(TestError())
                }
                return Disposables.create()
            }
            .catchAndReturn(2)
            .subscribe(observer)
            wait(for: [observer.terminated], timeout: 10)
            observer.assertGrammar()
            XCTAssertEqual(observer.events, [.next(1), .next(2), .completed])
            subscription.dispose()
        }
    }
}

import XCTest
import Foundation
import Streams
import StreamsTest

private struct TestError: Error {}

final class DebounceTests: XCTestCase {
    func testDebounce_emitsLastElementAfterQuietPeriod() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(215, 3), .next(240, 4),
                .next(300, 5), .next(305, 6), .completed(400),
            ])
            let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(235, 3), .next(260, 4), .next(325, 6), .completed(400)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
        }
    }

    /// On a virtual time scheduler each element moves the running timer (no new one); the moved
    /// timer must order among work due at the same time exactly as a timer scheduled anew (after
    /// what was scheduled before the element, before what was scheduled after it), and leave
    /// one pending item, not one per element.
    func testDebounce_restartedTimerOrdersAsNewlyScheduled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let log = ThreadSafeTestBox([String]())
            let subject = PublishSubject<String>()
            let subscription = subject.debounce(.seconds(10), scheduler: scheduler)
                .subscribe(onNext: { value in log.mutate { $0.append("\(value)@\(scheduler.clock)") } })
            scheduler.scheduleAt(200) { subject.onNext("a") }  // timer due at 210
            scheduler.scheduleAt(203) {
                scheduler.scheduleAt(213) { log.mutate { $0.append("before@213") } }
                subject.onNext("b")  // the timer now due at 213
                scheduler.scheduleAt(213) { log.mutate { $0.append("after@213") } }
            }
            scheduler.scheduleAt(205) { XCTAssertEqual(scheduler.pendingCount, 3) }  // the timer and the two
            scheduler.start()
            XCTAssertEqual(log.value, ["before@213", "b@213", "after@213"])
            subject.onNext("c")
            XCTAssertEqual(scheduler.pendingCount, 1)
            subscription.dispose()
            XCTAssertNoPendingWork(scheduler)
        }
    }

    /// An element that comes at the timer's due time but before it runs moves it; one sent by the
    /// observer while the timer delivers (the timer is no longer queued) starts a timer of its own.
    func testDebounce_elementAtDueTimeMovesTimer_reentrantElementStartsNewOne() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let observer = scheduler.createObserver(Int.self)
            let subscription = subject.debounce(.seconds(10), scheduler: scheduler)
                .subscribe(onNext: { value in
                    observer.onNext(value)
                    if value == 2 { subject.onNext(5) }
                })
            scheduler.scheduleAt(200) { subject.onNext(1) }  // due at 210
            // Scheduled before the timer, so it runs first at 210: the timer, still queued, moves.
            scheduler.scheduleAt(210) { subject.onNext(2) }  // due at 220
            scheduler.scheduleAt(240) { subject.onNext(3) }  // a new timer: the last one ran
            scheduler.scheduleAt(245) { subject.onNext(4) }  // moves it to 255
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(220, 2), .next(230, 5), .next(255, 4)])
            subscription.dispose()
            XCTAssertNoPendingWork(scheduler)
        }
    }

    /// Elements from another thread while this one drives a virtual clock: moving the timer races
    /// with the clock taking it to run (then the element starts a new timer and the taken one
    /// does nothing). The grammar holds, elements stay in order, and the last one is delivered.
    func testDebounce_virtualClockDrivenWhileAnotherThreadSends() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let observer = ConcurrencyCheckingObserver<Int>(expectation(description: "completed"))
            let subscription = subject.debounce(.seconds(2), scheduler: scheduler).subscribe(observer)
            let sent = DispatchSemaphore(value: 0)
            let count = 3_000
            // Handed over, and let go before `sent` is signalled: the block itself must not hold
            // the subject (it is released on its thread some time after it returns, which would
            // race with the leak check).
            let handOver = ThreadSafeTestBox<PublishSubject<Int>?>(subject)
            DispatchQueue.global().async {
                do {
                    guard let subject = handOver.mutate({ $0.take() }) else { return }
                    for i in 0..<count { subject.onNext(i) }
                    subject.onCompleted()
                }
                sent.signal()
            }
            var time = 0
            while sent.wait(timeout: .now()) == .timedOut {
                time += 1
                scheduler.advanceTo(time)
            }
            scheduler.advanceTo(time + 10)
            wait(for: [observer.terminated], timeout: 30)
            observer.assertGrammar()
            XCTAssertEqual(observer.elements.last, count - 1)
            XCTAssertEqual(observer.elements, observer.elements.sorted())
            XCTAssertEqual(Set(observer.elements).count, observer.elements.count)
            subscription.dispose()
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testDebounce_completionFlushesPendingElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(215, 3), .completed(220)])
            let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(220, 3), .completed(220)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testDebounce_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
            let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testDebounce_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testDebounce_errorDropsPendingElement() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(250, 3), .error(260, TestError())])
            let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(230, 2), .error(260, TestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 260)])
        }
    }

    func testDebounce_disposeMidStreamCancelsTimer() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 3), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.debounce(.seconds(20), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(230, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDebounce_disposeLeavesNoPendingWork() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            var values: [Int] = []
            let subscription = subject.debounce(.seconds(20), scheduler: scheduler).subscribe(onNext: { values.append($0) })
            subject.onNext(1)
            XCTAssertEqual(scheduler.pendingCount, 1)
            subscription.dispose()
            XCTAssertEqual(scheduler.pendingCount, 0)
            scheduler.start()
            XCTAssertEqual(values, [])
        }
    }

    func testDebounce_zeroDueTime() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(230)])
            let res = scheduler.start { xs.debounce(.seconds(0), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(211, 2), .next(221, 3), .completed(230)])
        }
    }

    func testDebounce_reentrantElementFromObserver() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let observer = scheduler.createObserver(Int.self)
            let subscription = subject.debounce(.seconds(20), scheduler: scheduler).subscribe { event in
                observer.on(event)
                if case .next(1) = event { subject.onNext(2) }
                if case .next(2) = event { subject.onCompleted() }
            }
            scheduler.scheduleAt(210) { subject.onNext(1) }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(230, 1), .next(250, 2), .completed(250)])
            subscription.dispose()
        }
    }

    func testDebounce_multiThreadedSourcesOnSerialScheduler() {
        XCTAssertNoLeaksEventually {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "DebounceTests.stress")
            let producers = 4
            let perProducer = 500
            let lastSeen = ThreadSafeTestBox<Int?>(nil)
            let sources = (0..<producers).map { producer in
                Observable<Int>.create { observer in
                    let box = UncheckedSendableTestBox(value: observer)
                    DispatchQueue.global().async {
                        for i in 0..<perProducer { box.value.onNext(producer * perProducer + i) }
                        box.value.onCompleted()
                    }
                    return Disposables.create()
                }
            }
            let observer = ConcurrencyCheckingObserver<Int>(expectation(description: "completed"))
            let subscription = Observable.merge(sources)
                .map { value -> Int in
                    lastSeen.mutate { $0 = value }
                    return value
                }
                .debounce(.microseconds(50), scheduler: scheduler)
                .subscribe(observer)
            wait(for: [observer.terminated], timeout: 30)
            observer.assertGrammar()
            XCTAssertEqual(observer.events.last, .completed)
            XCTAssertEqual(observer.elements.last, lastSeen.value)
            XCTAssertEqual(Set(observer.elements).count, observer.elements.count)
            subscription.dispose()
        }
    }
}

import XCTest
import Foundation
import Synchronization
import Streams
import StreamsTest

private struct TestError: Error {}

final class ObserveOnTests: XCTestCase {
    func testObserveOn_deliversEachEventOneTickLater() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
            let res = scheduler.start { xs.observe(on: scheduler) }
            XCTAssertEqual(res.events, [.next(211, 2), .next(221, 3), .completed(301)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    /// As in RxSwift, each queued event is one scheduled step (one tick apart on a TestScheduler).
    func testObserveOn_eventsQueuedTogetherArriveOneStepApart() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(210, 3), .completed(210)])
            let res = scheduler.start { xs.observe(on: scheduler) }
            XCTAssertEqual(res.events, [.next(211, 1), .next(212, 2), .next(213, 3), .completed(214)])
        }
    }

    /// On a serial dispatch queue, events queued before a work item runs are delivered by it.
    func testObserveOn_serialQueueDeliversQueuedEventsInOrder() {
        XCTAssertNoLeaksEventually {
            let queue = DispatchQueue(label: "observeOn.batch")
            let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "observeOn.batch.inner")
            let subject = PublishSubject<Int>()
            let delivered = expectation(description: "completed")
            let received = LockedState([Int]())
            let subscription = subject.observe(on: scheduler).subscribe(
                onNext: { value in
                    received.withLock { $0.append(value) }
                }, onCompleted: { delivered.fulfill() })
            queue.sync {
                for value in 0..<100 { subject.onNext(value) }
                subject.onCompleted()
            }
            wait(for: [delivered], timeout: 10)
            XCTAssertEqual(received.withLock { $0 }, Array(0..<100))
            subscription.dispose()
        }
    }

    /// The terminal event follows every element queued before it, as its own step; events that
    /// break the grammar after it are dropped.
    func testObserveOn_errorAfterQueuedElementsComesLastAndEndsTheStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .error(210, TestError()), .next(210, 3), .completed(215)])
            let res = scheduler.start { xs.observe(on: scheduler) }
            XCTAssertEqual(res.events, [.next(211, 1), .next(212, 2), .error(213, TestError())])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    /// On a dispatch queue an error after a batch arrives in the same work item, after it.
    func testObserveOn_serialQueueDeliversTheErrorAfterTheBatch() {
        XCTAssertNoLeaksEventually {
            let queue = DispatchQueue(label: "observeOn.batch.error")
            let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "observeOn.batch.error.inner")
            let subject = PublishSubject<Int>()
            let failed = expectation(description: "failed")
            let received = LockedState([Int]())
            let subscription = subject.observe(on: scheduler).subscribe(
                onNext: { value in
                    received.withLock { $0.append(value) }
                },
                onError: { _ in
                    received.withLock { $0.append(-1) }
                    failed.fulfill()
                })
            queue.sync {
                for value in 0..<50 { subject.onNext(value) }
                subject.onError(TestError())
            }
            wait(for: [failed], timeout: 10)
            XCTAssertEqual(received.withLock { $0 }, Array(0..<50) + [-1])
            subscription.dispose()
        }
    }

    func testObserveOn_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
            let res = scheduler.start { xs.observe(on: scheduler) }
            XCTAssertEqual(res.events, [.completed(301)])
        }
    }

    func testObserveOn_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.observe(on: scheduler) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testObserveOn_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .error(250, TestError())])
            let res = scheduler.start { xs.observe(on: scheduler) }
            XCTAssertEqual(res.events, [.next(211, 2), .error(251, TestError())])
        }
    }

    func testObserveOn_noEventAfterDispose() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 3), .completed(300)])
            // The delivery of 2 would run at 211, after the disposal scheduled for 211.
            let res = scheduler.start(disposed: 211) { xs.observe(on: scheduler) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 211)])
            XCTAssertEqual(scheduler.pendingCount, 0)
        }
    }

    func testObserveOn_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(240, 3), .completed(300)])
            let res = scheduler.start(disposed: 230) { xs.observe(on: scheduler) }
            XCTAssertEqual(res.events, [.next(211, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testObserveOn_disposeCancelsScheduledDelivery() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            var values: [Int] = []
            let subscription = subject.observe(on: scheduler).subscribe(onNext: { values.append($0) })
            subject.onNext(1)
            subject.onNext(2)
            XCTAssertEqual(scheduler.pendingCount, 1)
            subscription.dispose()
            XCTAssertEqual(scheduler.pendingCount, 0)
            scheduler.start()
            XCTAssertEqual(values, [])
        }
    }

    func testObserveOn_reentrantEventsGoToTheNextBatch() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let subject = PublishSubject<Int>()
            let observer = scheduler.createObserver(Int.self)
            let subscription = subject.observe(on: scheduler).subscribe { event in
                observer.on(event)
                if case .next(1) = event {
                    subject.onNext(2)
                    subject.onCompleted()
                }
            }
            scheduler.scheduleAt(210) { subject.onNext(1) }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(211, 1), .next(212, 2), .completed(213)])
            subscription.dispose()
        }
    }

    func testObserveOn_currentThreadSchedulerDeliversSynchronously() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            let subject = PublishSubject<Int>()
            let subscription = subject.observe(on: CurrentThreadScheduler.instance).subscribe { events.append($0) }
            subject.onNext(1)
            XCTAssertEqual(events, [.next(1)])
            subject.onCompleted()
            XCTAssertEqual(events, [.next(1), .completed])
            subscription.dispose()
        }
    }

    func testObserveOn_serialSchedulerDeliversOnItsQueue() {
        XCTAssertNoLeaksEventually {
            let key = DispatchSpecificKey<String>()
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "ObserveOnTests.queue") { queue in
                queue.setSpecific(key: key, value: "ObserveOnTests.queue")
            }
            let done = expectation(description: "completed")
            let onQueue = ThreadSafeTestBox([Bool]())
            let subscription = Observable.just(1).observe(on: scheduler).subscribe { event in
                onQueue.mutate { $0.append(DispatchQueue.getSpecific(key: key) == "ObserveOnTests.queue") }
                if event.isStopEvent { done.fulfill() }
            }
            wait(for: [done], timeout: 10)
            XCTAssertEqual(onQueue.value, [true, true])
            subscription.dispose()
        }
    }

    /// Several serial sources emit concurrently (each subscribed on a concurrent scheduler); the
    /// merged stream is observed on a concurrent scheduler.
    func testObserveOn_stressManyThreadsConcurrentScheduler() {
        XCTAssertNoLeaksEventually {
            let sourceScheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            let deliveryScheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
            let producers = 6
            let perProducer = 5_000
            let sources = (0..<producers).map { producer in
                Observable<(Int, Int)>.create { observer in
                    for i in 0..<perProducer { observer.onNext((producer, i)) }
                    observer.onCompleted()
                    return Disposables.create()
                }
                .subscribe(on: sourceScheduler)
            }
            let observer = ConcurrencyCheckingObserver<(Int, Int)>(expectation(description: "completed"))
            let subscription = Observable.merge(sources).observe(on: deliveryScheduler).subscribe(observer)
            wait(for: [observer.terminated], timeout: 60)
            observer.assertGrammar()
            XCTAssertTrue(observer.events.last?.isCompleted ?? false)
            let elements = observer.elements
            XCTAssertEqual(elements.count, producers * perProducer)
            var next = [Int](repeating: 0, count: producers)
            for (producer, index) in elements {
                XCTAssertEqual(index, next[producer], "out of order for producer \(producer)")
                next[producer] = index + 1
            }
            subscription.dispose()
        }
    }

    func testObserveOn_stressDisposeOnDeliveryQueueStopsDelivery() {
        XCTAssertNoLeaksEventually {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "ObserveOnTests.dispose")
            let producer = ConcurrentDispatchQueueScheduler(qos: .default)
            let afterDispose = Atomic<Int>(0)
            let disposed = Atomic<Bool>(false)
            let done = expectation(description: "disposed")
            let subscription = SingleAssignmentDisposable()
            let received = Atomic<Int>(0)
            // The producer starts only once the subscription is assigned, so that disposing it
            // from the delivery queue really disposes the chain.
            let assigned = DispatchSemaphore(value: 0)
            subscription.setDisposable(
                Observable<Int>.create { observer in
                    let stop = Atomic<Bool>(false)
                    let box = UncheckedSendableTestBox(value: observer)
                    DispatchQueue.global().async {
                        assigned.wait()
                        var i = 0
                        while !stop.load(ordering: .relaxed) && i < 1_000_000 {
                            box.value.onNext(i)
                            i += 1
                        }
                    }
                    return Disposables.create { stop.store(true, ordering: .relaxed) }
                }
                .subscribe(on: producer)
                .observe(on: scheduler)
                .subscribe(onNext: { _ in
                    if disposed.load(ordering: .acquiring) { afterDispose.add(1, ordering: .relaxed) }
                    if received.add(1, ordering: .relaxed).newValue == 1_000 {
                        // Disposing on the delivery queue: nothing may be delivered afterwards.
                        subscription.dispose()
                        disposed.store(true, ordering: .releasing)
                        done.fulfill()
                    }
                }))
            assigned.signal()
            wait(for: [done], timeout: 30)
            // A fence: any delivery work already queued runs before this.
            let fence = expectation(description: "fence")
            _ = scheduler.schedule(()) { _ in
                fence.fulfill()
                return Disposables.create()
            }
            wait(for: [fence], timeout: 10)
            XCTAssertEqual(afterDispose.load(ordering: .acquiring), 0)
        }
    }
}

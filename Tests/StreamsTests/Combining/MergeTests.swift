import Streams
import StreamsTest
import XCTest

final class MergeTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testMerge_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
            let ys = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
            let res = scheduler.start { Observable.merge(xs.asObservable(), ys.asObservable()) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .completed(260)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
        }
    }

    func testMerge_emptyAndNever() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let empty = scheduler.start { Observable<Int>.merge([Observable<Int>]()) }
            XCTAssertEqual(empty.events, [.completed(200)])

            let other = TestScheduler(initialClock: 0)
            let xs = other.createHotObservable([.completed(210, Int.self)])
            let ys = other.createHotObservable([.next(220, 1)])
            let never = other.start { Observable.merge([xs.asObservable(), ys.asObservable()]) }
            XCTAssertEqual(never.events, [.next(220, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testMerge_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError.first, Int.self)])
            let ys = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
            let res = scheduler.start { Observable.merge(xs.asObservable(), ys.asObservable()) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .error(230, TestError.first)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        }
    }

    func testMerge_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 3), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { Observable.merge(xs.asObservable(), ys.asObservable()) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
        }
    }

    /// As in RxSwift, a source after one that failed during its subscription is still
    /// subscribed (its subscription side effects run) and disposed at once; its elements are
    /// dropped.
    func testMerge_synchronousErrorStillSubscribesLaterSources() {
        XCTAssertNoLeaks {
            var subscribedLater = false, disposedLater = false
            let later = Observable<Int>.create { observer in
                subscribedLater = true
                observer.onNext(2)
                return Disposables.create { disposedLater = true }
            }
            var events: [Event<Int>] = []
            _ = Observable.merge(Observable.just(1), Observable<Int>.error(TestError.first), later).subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(1), .error(TestError.first)])
            XCTAssertTrue(subscribedLater)
            XCTAssertTrue(disposedLater)
        }
    }

    func testMerge_reentrant() {
        XCTAssertNoLeaks {
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = Observable.merge(a.asObservable(), b.asObservable())
                .subscribe(onNext: { value in
                    received.append(value)
                    if value == 1 { b.onNext(2) }
                    if value == 2 { a.onNext(3) }
                })
            a.onNext(1)
            XCTAssertEqual(received, [1, 2, 3])
            subscription.dispose()
        }
    }

    /// Events queued while the observer runs (reentrantly) are delivered in order after it
    /// returns; an error queued among them comes after the elements queued before it, and what
    /// is queued after the error is dropped.
    func testMerge_reentrantErrorIsQueuedInOrderAndEndsTheStream() {
        XCTAssertNoLeaks {
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            var events: [Event<Int>] = []
            let subscription = Observable.merge(a.asObservable(), b.asObservable())
                .subscribe { event in
                    events.append(event)
                    if case .next(1) = event {
                        a.onNext(2)
                        b.onNext(3)
                        b.onError(TestError.first)
                        a.onNext(4)
                        a.onCompleted()
                    }
                }
            a.onNext(1)
            XCTAssertEqual(events, [.next(1), .next(2), .next(3), .error(TestError.first)])
            subscription.dispose()
        }
    }

    /// Sources emit concurrently: serialized delivery, every element once, each source's order
    /// kept, one completion after all sources complete.
    func testMerge_concurrentSources() {
        XCTAssertNoLeaks {
            let threads = 4
            let perThread = 5_000
            let subjects = (0..<threads).map { _ in PublishSubject<Int>() }
            let probe = CombiningSupport.ConcurrencyProbe<Int>()
            let subscription = Observable.merge(subjects.map { $0.asObservable() }).subscribe(probe)
            CombiningSupport.concurrently(threads) { index in
                for value in 0..<perThread { subjects[index].onNext(index * perThread + value) }
                subjects[index].onCompleted()
            }
            XCTAssertEqual(probe.maxConcurrentCalls, 1)
            XCTAssertEqual(probe.terminalCount, 1)
            XCTAssertEqual(probe.events.last, .completed)
            let elements = probe.elements
            XCTAssertEqual(elements.count, threads * perThread)
            for source in 0..<threads {
                let own = elements.filter { $0 / perThread == source }
                XCTAssertTrue(own == Array(source * perThread..<(source + 1) * perThread), "source \(source) out of order")
            }
            subscription.dispose()
        }
    }
}

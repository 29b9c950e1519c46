import Streams
import StreamsTest
import XCTest

final class ZipTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testZip_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(250, 3), .completed(300)])
            let ys = scheduler.createHotObservable([.next(150, 0), .next(230, 10), .next(240, 20), .next(260, 30), .completed(310)])
            let res = scheduler.start { Observable.zip(xs, ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(230, 11), .next(240, 22), .next(260, 33), .completed(310)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 310)])
        }
    }

    func testZip_tuple() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(230, "a"), .next(240, "b"), .next(250, "c"), .completed(300)])
            let res = scheduler.start { Observable.zip(xs, ys).map { "\($0)\($1)" } }
            XCTAssertEqual(res.events, [.next(230, "1a"), .next(240, "2b"), .completed(300)])
        }
    }

    /// As RxSwift's fixed-arity zip: the output completes when both sources have completed.
    func testZip_leftCompletesFirst() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
            let ys = scheduler.createHotObservable([.next(150, 1), .next(215, 4), .completed(225)])
            let res = scheduler.start { Observable.zip(xs, ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(215, 6), .completed(225)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
        }
    }

    func testZip_emptyNonEmpty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let e = scheduler.createHotObservable([.next(150, 1), .completed(210, Int.self)])
            let o = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
            let res = scheduler.start { Observable.zip(e, o) { $0 + $1 } }
            XCTAssertEqual(res.events, [.completed(220)])
            XCTAssertEqual(e.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(o.subscriptions, [Subscription(200, 220)])
        }
    }

    func testZip_emptyNever() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let e = scheduler.createHotObservable([.next(150, 1), .completed(210, Int.self)])
            let n = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { Observable.zip(e, n) { $0 + $1 } }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(e.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(n.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testZip_errorFromEither() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, 10), .error(240, TestError.second, Int.self)])
            let res = scheduler.start { Observable.zip(xs, ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(220, 11), .error(240, TestError.second)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])

            let other = TestScheduler(initialClock: 0)
            let as_ = other.createHotObservable([.error(220, TestError.first, Int.self)])
            let bs = other.createHotObservable([.next(210, 1), .completed(300)])
            let res2 = other.start { Observable.zip(as_, bs) { $0 + $1 } }
            XCTAssertEqual(res2.events, [.error(220, TestError.first)])
            XCTAssertEqual(as_.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(bs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testZip_selectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(230, 10), .next(240, 20), .completed(300)])
            let res = scheduler.start {
                Observable.zip(xs, ys) { x, y -> Int in
                    if x == 2 { throw TestError.selector }
                    return x + y
                }
            }
            XCTAssertEqual(res.events, [.next(230, 11), .error(240, TestError.selector)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 240)])
        }
    }

    func testZip_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, 10), .next(270, 20), .completed(300)])
            let res = scheduler.start(disposed: 250) { Observable.zip(xs, ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(220, 11)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
        }
    }

    func testZip_buffersUnevenSources() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            let subscription = Observable.zip(a, b) { $0 * 1000 + $1 }.subscribe { events.append($0) }
            for value in 1...200 { a.onNext(value) }
            for value in 1...150 { b.onNext(value) }
            a.onCompleted()
            b.onNext(151)
            b.onCompleted()
            XCTAssertEqual(events, (1...151).map { .next($0 * 1000 + $0) } + [.completed])
            subscription.dispose()
        }
    }

    // MARK: - Collection

    func testZipCollection_symmetric() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(420)])
            let b = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
            let c = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .completed(400)])
            let res = scheduler.start { Observable.zip([a, b, c]) }
            XCTAssertEqual(res.events, [.next(230, [1, 2, 3]), .next(260, [4, 5, 6]), .completed(420)])
            XCTAssertEqual(a.subscriptions, [Subscription(200, 420)])
            XCTAssertEqual(b.subscriptions, [Subscription(200, 410)])
            XCTAssertEqual(c.subscriptions, [Subscription(200, 400)])
        }
    }

    /// As RxSwift's collection zip: a source emitting while all others have completed (and some
    /// buffer is empty) completes the output.
    func testZipCollection_asymmetric() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(210, 1), .next(250, 4), .completed(270)])
            let b = scheduler.createHotObservable([.next(220, 2), .next(240, 5), .next(290, 7), .next(310, 9), .completed(410)])
            let c = scheduler.createHotObservable([.next(230, 3), .next(260, 6), .next(280, 8), .completed(300)])
            let res = scheduler.start { Observable.zip([a, b, c]) { $0.reduce(0, +) } }
            XCTAssertEqual(res.events, [.next(230, 6), .next(260, 15), .completed(310)])
            XCTAssertEqual(a.subscriptions, [Subscription(200, 270)])
            XCTAssertEqual(b.subscriptions, [Subscription(200, 310)])
            XCTAssertEqual(c.subscriptions, [Subscription(200, 300)])
        }
    }

    func testZipCollection_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.zip([Observable<Int>]()) }
            XCTAssertEqual(res.events, [.completed(200)])
            let selected = TestScheduler(initialClock: 0).start { Observable.zip([Observable<Int>]()) { $0.count } }
            XCTAssertEqual(selected.events, [.completed(200)])
        }
    }

    func testZipCollection_neverAndError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(210, 1), .error(250, TestError.first, Int.self)])
            let b = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { Observable.zip([a, b]) }
            XCTAssertEqual(res.events, [.error(250, TestError.first)])
            XCTAssertEqual(a.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])
        }
    }

    func testZipCollection_selectorThrowsAndDispose() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let b = scheduler.createHotObservable([.next(220, 1), .next(240, 2), .completed(300)])
            let res = scheduler.start {
                Observable.zip([a, b]) { values -> Int in
                    if values[0] == 2 { throw TestError.selector }
                    return values.reduce(0, +)
                }
            }
            XCTAssertEqual(res.events, [.next(220, 2), .error(240, TestError.selector)])

            let other = TestScheduler(initialClock: 0)
            let c = other.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let d = other.createHotObservable([.next(220, 1), .next(270, 2), .completed(300)])
            let disposed = other.start(disposed: 250) { Observable.zip([c, d]) }
            XCTAssertEqual(disposed.events, [.next(220, [1, 1])])
            XCTAssertEqual(c.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(d.subscriptions, [Subscription(200, 250)])
        }
    }

    // MARK: - Reentrancy and threads

    func testZip_reentrantObserver() {
        XCTAssertNoLeaks {
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = Observable.zip(a, b) { $0 * 10 + $1 }
                .subscribe(onNext: { value in
                    received.append(value)
                    if value == 11 {
                        a.onNext(2)
                        b.onNext(2)
                    }
                })
            a.onNext(1)
            b.onNext(1)
            a.onNext(3)
            b.onNext(3)
            XCTAssertEqual(received, [11, 22, 33])
            subscription.dispose()
        }
    }

    func testZip_concurrentSources() {
        XCTAssertNoLeaks {
            let count = 5_000
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            let probe = CombiningSupport.ConcurrencyProbe<Int>()
            let subscription = Observable.zip(a, b) { x, y -> Int in
                x == y ? x : -1
            }.subscribe(probe)
            CombiningSupport.concurrently(2) { index in
                let subject = index == 0 ? a : b
                for value in 1...count { subject.onNext(value) }
                subject.onCompleted()
            }
            XCTAssertEqual(probe.maxConcurrentCalls, 1)
            XCTAssertTrue(probe.elements == Array(1...count), "zip paired the wrong elements")
            XCTAssertEqual(probe.terminalCount, 1)
            XCTAssertEqual(probe.events.last, .completed)
            subscription.dispose()
        }
    }
}

import Streams
import StreamsTest
import XCTest

final class CombineLatestTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    // MARK: - Values

    func testCombineLatest_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
            let ys = scheduler.createHotObservable([.next(150, 0), .next(220, 10), .next(240, 20), .completed(270)])
            let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(220, 11), .next(230, 12), .next(240, 22), .next(250, 23), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 270)])
        }
    }

    func testCombineLatest_tuple() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(260)])
            let res = scheduler.start { Observable.combineLatest(xs, ys).map { "\($0)\($1)" } }
            XCTAssertEqual(res.events, [.next(220, "1a"), .next(230, "2a"), .next(240, "2b"), .completed(300)])
        }
    }

    func testCombineLatest_arity3() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(400)])
            let b = scheduler.createHotObservable([.next(220, 10), .completed(300)])
            let c = scheduler.createHotObservable([.next(230, 100), .next(260, 200), .completed(350)])
            let selected = scheduler.start { Observable.combineLatest(a, b, c) { $0 + $1 + $2 } }
            XCTAssertEqual(selected.events, [.next(230, 111), .next(250, 112), .next(260, 212), .completed(400)])
            let tuples = TestScheduler(initialClock: 0)
            let a2 = tuples.createHotObservable([.next(210, 1), .completed(300)])
            let b2 = tuples.createHotObservable([.next(220, "b"), .completed(300)])
            let c2 = tuples.createHotObservable([.next(230, true), .completed(300)])
            let res = tuples.start { Observable.combineLatest(a2, b2, c2).map { "\($0)\($1)\($2)" } }
            XCTAssertEqual(res.events, [.next(230, "1btrue"), .completed(300)])
        }
    }

    func testCombineLatest_arity4() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let b = scheduler.createHotObservable([.next(220, 10), .completed(300)])
            let c = scheduler.createHotObservable([.next(230, 100), .completed(300)])
            let d = scheduler.createHotObservable([.next(240, 1000), .next(250, 2000), .completed(310)])
            let res = scheduler.start { Observable.combineLatest(a, b, c, d) { $0 + $1 + $2 + $3 } }
            XCTAssertEqual(res.events, [.next(240, 1111), .next(250, 2111), .completed(310)])
            let tuples = TestScheduler(initialClock: 0)
            let a2 = tuples.createHotObservable([.next(210, 1), .completed(300)])
            let b2 = tuples.createHotObservable([.next(210, 2), .completed(300)])
            let c2 = tuples.createHotObservable([.next(210, 3), .completed(300)])
            let d2 = tuples.createHotObservable([.next(210, 4), .completed(300)])
            let res2 = tuples.start { Observable.combineLatest(a2, b2, c2, d2).map { [$0, $1, $2, $3] } }
            XCTAssertEqual(res2.events, [.next(210, [1, 2, 3, 4]), .completed(300)])
        }
    }

    // MARK: - Termination

    func testCombineLatest_emptyEmpty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(210, Int.self)])
            let ys = scheduler.createHotObservable([.next(150, 1), .completed(220, Int.self)])
            let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.completed(220)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
        }
    }

    /// As RxSwift: a source completing without an element does not complete the output while
    /// another source is still running.
    func testCombineLatest_emptyNever() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(210, Int.self)])
            let ys = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
        }
    }

    /// As RxSwift: once the other sources have completed and one never emitted, the next element
    /// completes the output.
    func testCombineLatest_emptyReturn() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(210, Int.self)])
            let ys = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
            let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.completed(215)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 215)])
        }
    }

    func testCombineLatest_neverNever() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let ys = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testCombineLatest_errorFromFirst() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError.first, Int.self)])
            let ys = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(300)])
            let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.next(220, 3), .error(230, TestError.first)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        }
    }

    func testCombineLatest_errorFromSecond() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            let ys = scheduler.createHotObservable([.error(230, TestError.second, Int.self)])
            let res = scheduler.start { Observable.combineLatest(xs, ys) { $0 + $1 } }
            XCTAssertEqual(res.events, [.error(230, TestError.second)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        }
    }

    func testCombineLatest_selectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, 10), .completed(300)])
            let res = scheduler.start {
                Observable.combineLatest(xs, ys) { x, y -> Int in
                    if x == 2 { throw TestError.selector }
                    return x + y
                }
            }
            XCTAssertEqual(res.events, [.next(220, 11), .error(230, TestError.selector)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
        }
    }

    func testCombineLatest_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, 10), .next(270, 20), .completed(300)])
            let zs = scheduler.createHotObservable([.next(230, 100), .completed(300)])
            let res = scheduler.start(disposed: 250) { Observable.combineLatest(xs, ys, zs) { $0 + $1 + $2 } }
            XCTAssertEqual(res.events, [.next(230, 111)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(zs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testCombineLatest_synchronousSources() {
        XCTAssertNoLeaks {
            var events: [Event<Int>] = []
            _ = Observable.combineLatest(Observable.just(1), Observable.just(2)) { $0 * 10 + $1 }
                .subscribe { events.append($0) }
            XCTAssertEqual(events, [.next(12), .completed])
        }
    }

    /// As in RxSwift, a source after one that failed during its subscription is still
    /// subscribed (its subscription side effects run) and disposed at once.
    func testCombineLatest_synchronousErrorStillSubscribesLaterSources() {
        XCTAssertNoLeaks {
            var subscribedSecond = false, disposedSecond = false
            let second = Observable<Int>.create { _ in
                subscribedSecond = true
                return Disposables.create { disposedSecond = true }
            }
            var events: [Event<Int>] = []
            _ = Observable.combineLatest(Observable<Int>.error(TestError.first), second) { $0 + $1 }
                .subscribe { events.append($0) }
            XCTAssertEqual(events, [.error(TestError.first)])
            XCTAssertTrue(subscribedSecond)
            XCTAssertTrue(disposedSecond)
        }
    }

    // MARK: - Collection

    func testCombineLatestCollection_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(420)])
            let b = scheduler.createHotObservable([.next(220, 2), .next(250, 5), .completed(410)])
            let c = scheduler.createHotObservable([.next(230, 3), .next(260, 6), .completed(400)])
            let arrays = scheduler.start { Observable.combineLatest([a, b, c]) }
            XCTAssertEqual(arrays.events, [.next(230, [1, 2, 3]), .next(240, [4, 2, 3]), .next(250, [4, 5, 3]), .next(260, [4, 5, 6]), .completed(420)])
            XCTAssertEqual(a.subscriptions, [Subscription(200, 420)])
            XCTAssertEqual(b.subscriptions, [Subscription(200, 410)])
            XCTAssertEqual(c.subscriptions, [Subscription(200, 400)])
        }
    }

    func testCombineLatestCollection_selector() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(300)])
            let b = scheduler.createHotObservable([.next(220, 2), .completed(300)])
            let res = scheduler.start { Observable.combineLatest([a, b]) { $0.reduce(0, +) } }
            XCTAssertEqual(res.events, [.next(220, 3), .next(240, 6), .completed(300)])
        }
    }

    /// As RxSwift 5+: an empty collection emits the combination of nothing, then completes.
    func testCombineLatestCollection_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.combineLatest([Observable<Int>]()) }
            XCTAssertEqual(res.events, [.next(200, []), .completed(200)])
            let selected = TestScheduler(initialClock: 0).start { Observable.combineLatest([Observable<Int>]()) { $0.count + 7 } }
            XCTAssertEqual(selected.events, [.next(200, 7), .completed(200)])
            let throwing = TestScheduler(initialClock: 0).start { Observable.combineLatest([Observable<Int>]()) { _ -> Int in throw TestError.selector } }
            XCTAssertEqual(throwing.events, [.error(200, TestError.selector)])
        }
    }

    func testCombineLatestCollection_emptyNever() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.completed(210, Int.self)])
            let b = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { Observable.combineLatest([a, b]) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(a.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(b.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testCombineLatestCollection_errorAndSelectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(210, 1), .error(250, TestError.first, Int.self)])
            let b = scheduler.createHotObservable([.next(220, 2), .completed(300)])
            let res = scheduler.start { Observable.combineLatest([a, b]) }
            XCTAssertEqual(res.events, [.next(220, [1, 2]), .error(250, TestError.first)])
            XCTAssertEqual(a.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])

            let other = TestScheduler(initialClock: 0)
            let c = other.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
            let d = other.createHotObservable([.next(220, 2), .completed(300)])
            let thrown = other.start {
                Observable.combineLatest([c, d]) { values -> Int in
                    if values[0] == 2 { throw TestError.selector }
                    return values.reduce(0, +)
                }
            }
            XCTAssertEqual(thrown.events, [.next(220, 3), .error(230, TestError.selector)])
            XCTAssertEqual(c.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(d.subscriptions, [Subscription(200, 230)])
        }
    }

    func testCombineLatestCollection_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(210, 1), .next(260, 3), .completed(300)])
            let b = scheduler.createHotObservable([.next(220, 2), .completed(300)])
            let res = scheduler.start(disposed: 250) { Observable.combineLatest([a, b]) }
            XCTAssertEqual(res.events, [.next(220, [1, 2])])
            XCTAssertEqual(a.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(b.subscriptions, [Subscription(200, 250)])
        }
    }

    // MARK: - Reentrancy

    /// The observer feeds one of the sources while receiving an element: no deadlock, and the
    /// reentrant element follows the one being delivered.
    func testCombineLatest_reentrantObserver() {
        XCTAssertNoLeaks {
            let a = PublishSubject<Int>()
            let b = PublishSubject<String>()
            var received: [String] = []
            let subscription = Observable.combineLatest(a, b) { "\($0)\($1)" }
                .subscribe(onNext: { value in
                    received.append(value)
                    if value == "1x" { a.onNext(2) }
                    if value == "2x" { b.onNext("y") }
                })
            a.onNext(1)
            b.onNext("x")
            XCTAssertEqual(received, ["1x", "2x", "2y"])
            subscription.dispose()
        }
    }

    /// The selector itself feeds a source (it runs outside the lock, so this cannot deadlock);
    /// the results still come out in input order.
    func testCombineLatest_reentrantSelector() {
        XCTAssertNoLeaks {
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            var received: [String] = []
            let subscription = Observable.combineLatest(a, b) { x, y -> String in
                if x == 1 && y == 10 { b.onNext(20) }
                return "\(x)-\(y)"
            }
            .subscribe(onNext: { received.append($0) })
            a.onNext(1)
            b.onNext(10)
            a.onNext(2)
            XCTAssertEqual(received, ["1-10", "1-20", "2-20"])
            subscription.dispose()
        }
    }

    // MARK: - Threads

    /// Sources emit concurrently from several threads: the observer is never called concurrently,
    /// every input produces one output, each source's value never goes back in the output
    /// (input order is kept although the selector runs outside the lock), one terminal event.
    func testCombineLatest_concurrentSources() {
        for useSelector in [true, false] {
            XCTAssertNoLeaks {
                let threads = 4
                let perThread = 2_000
                let subjects = (0..<threads).map { _ in PublishSubject<Int>() }
                let probe = CombiningSupport.ConcurrencyProbe<[Int]>()
                let combined: Observable<[Int]> =
                    useSelector
                    ? Observable.combineLatest(subjects) { values -> [Int] in
                        var spin = 0
                        for value in values { spin &+= value }
                        return spin == -1 ? [] : values
                    }
                    : Observable.combineLatest(subjects)
                let subscription = combined.subscribe(probe)
                for subject in subjects { subject.onNext(0) }
                CombiningSupport.concurrently(threads) { index in
                    for value in 1...perThread { subjects[index].onNext(value) }
                    subjects[index].onCompleted()
                }
                let events = probe.events
                XCTAssertEqual(probe.maxConcurrentCalls, 1)
                XCTAssertEqual(probe.terminalCount, 1)
                XCTAssertEqual(events.last, .completed)
                let elements = probe.elements
                XCTAssertEqual(elements.count, 1 + threads * perThread)
                for source in 0..<threads {
                    let column = elements.map { $0[source] }
                    let regression = zip(column, column.dropFirst()).enumerated().first { $0.element.0 > $0.element.1 }?.offset
                    XCTAssertNil(regression, "source \(source) went back in time at output \(regression ?? -1)")
                    XCTAssertEqual(column.last, perThread)
                }
                subscription.dispose()
            }
        }
    }
}

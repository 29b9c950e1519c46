import Streams
import StreamsTest
import XCTest

/// `combineLatest` arities 5-8 (the shared core is exercised in depth by `CombineLatestTests`).
final class CombineLatestArityTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    /// `count` hot sources; source `i` emits `10^i` at 210 + 10i, `2 * 10^i` at 300, completes at 400 + i.
    private func sources(_ scheduler: TestScheduler, _ count: Int) -> [TestableObservable<Int>] {
        (0..<count).map { i in
            let unit = Int(pow(10, Double(i)))
            return scheduler.createHotObservable([.next(210 + 10 * i, unit), .next(300 + i, 2 * unit), .completed(400 + i)])
        }
    }

    /// The expected sums: the first once all emitted, then one per later element.
    private func expected(_ count: Int) -> [Recorded<Event<Int>>] {
        let ones = (0..<count).reduce(0) { $0 + Int(pow(10, Double($1))) }
        var events: [Recorded<Event<Int>>] = [.next(210 + 10 * (count - 1), ones)]
        var sum = ones
        for i in 0..<count {
            sum += Int(pow(10, Double(i)))
            events.append(.next(300 + i, sum))
        }
        events.append(.completed(400 + count - 1))
        return events
    }

    func testCombineLatest_arity5() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let s = sources(scheduler, 5)
            let res = scheduler.start { Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 } }
            XCTAssertEqual(res.events, expected(5))
            for (i, source) in s.enumerated() { XCTAssertEqual(source.subscriptions, [Subscription(200, 400 + i)]) }
            let tuples = TestScheduler(initialClock: 0)
            let t = sources(tuples, 5)
            let res2 = tuples.start { Observable.combineLatest(t[0], t[1], t[2], t[3], t[4]).map { $0 + $1 + $2 + $3 + $4 } }
            XCTAssertEqual(res2.events, expected(5))
        }
    }

    func testCombineLatest_arity6() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let s = sources(scheduler, 6)
            let res = scheduler.start { Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { $0 + $1 + $2 + $3 + $4 + $5 } }
            XCTAssertEqual(res.events, expected(6))
            let tuples = TestScheduler(initialClock: 0)
            let t = sources(tuples, 6)
            let res2 = tuples.start { Observable.combineLatest(t[0], t[1], t[2], t[3], t[4], t[5]).map { $0 + $1 + $2 + $3 + $4 + $5 } }
            XCTAssertEqual(res2.events, expected(6))
        }
    }

    func testCombineLatest_arity7() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let s = sources(scheduler, 7)
            let res = scheduler.start { Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 } }
            XCTAssertEqual(res.events, expected(7))
            let tuples = TestScheduler(initialClock: 0)
            let t = sources(tuples, 7)
            let res2 = tuples.start { Observable.combineLatest(t[0], t[1], t[2], t[3], t[4], t[5], t[6]).map { $0 + $1 + $2 + $3 + $4 + $5 + $6 } }
            XCTAssertEqual(res2.events, expected(7))
        }
    }

    func testCombineLatest_arity8() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let s = sources(scheduler, 8)
            let res = scheduler.start {
                Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { a, b, c, d, e, f, g, h in
                    a + b + c + d + e + f + g + h
                }
            }
            XCTAssertEqual(res.events, expected(8))
            let tuples = TestScheduler(initialClock: 0)
            let t = sources(tuples, 8)
            let res2 = tuples.start {
                Observable.combineLatest(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]).map { a, b, c, d, e, f, g, h in
                    a + b + c + d + e + f + g + h
                }
            }
            XCTAssertEqual(res2.events, expected(8))
        }
    }

    func testCombineLatest_mixedElementTypes() {
        XCTAssertNoLeaks {
            let res = Observable.combineLatest(
                Observable.just(1), Observable.just("b"), Observable.just(true), Observable.just(2.5), Observable.just([7])
            ).map { "\($0)\($1)\($2)\($3)\($4)" }.toBlocking().materialize()
            guard case .completed(let elements) = res else { return XCTFail("\(res)") }
            XCTAssertEqual(elements, ["1btrue2.5[7]"])
        }
    }

    /// Completes early when every other source completed and one of them never emitted.
    func testCombineLatest_emptySourceEndsOutput() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let s = (0..<4).map { i in scheduler.createHotObservable([.next(210, i), .completed(250)]) }
            let empty = scheduler.createHotObservable([.completed(220, Int.self)])
            let res = scheduler.start { Observable.combineLatest(s[0], s[1], s[2], s[3], empty) { $0 + $1 + $2 + $3 + $4 } }
            XCTAssertEqual(res.events, [.completed(250)])
            XCTAssertEqual(empty.subscriptions, [Subscription(200, 220)])
        }
    }

    func testCombineLatest_neverAndEmpty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let s = (0..<5).map { _ in scheduler.createHotObservable([Recorded<Event<Int>>]()) }
            let res = scheduler.start { Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 } }
            XCTAssertEqual(res.events, [])
            for source in s { XCTAssertEqual(source.subscriptions, [Subscription(200, 1000)]) }
            let done = TestScheduler(initialClock: 0)
            let e = (0..<6).map { i in done.createHotObservable([.completed(210 + i, Int.self)]) }
            let res2 = done.start { Observable.combineLatest(e[0], e[1], e[2], e[3], e[4], e[5]) { $0 + $1 + $2 + $3 + $4 + $5 } }
            XCTAssertEqual(res2.events, [.completed(215)])
        }
    }

    func testCombineLatest_errorFromAnySource() {
        for failing in 0..<8 {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = (0..<8).map { i in
                    scheduler.createHotObservable(
                        i == failing
                            ? [.next(210, i), .error(260, TestError.first)]
                            : [.next(210, i), .next(270, i), .completed(300)])
                }
                let res = scheduler.start { Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { _ in 1 } }
                XCTAssertEqual(res.events, [.next(210, 1), .error(260, TestError.first)], "source \(failing)")
                for source in s { XCTAssertEqual(source.subscriptions, [Subscription(200, 260)]) }
            }
        }
    }

    func testCombineLatest_selectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let s = (0..<6).map { i in scheduler.createHotObservable([.next(210 + i, i), .completed(300)]) }
            let res = scheduler.start {
                Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { (_, _, _, _, _, _) -> Int in throw TestError.selector }
            }
            XCTAssertEqual(res.events, [.error(215, TestError.selector)])
            for source in s { XCTAssertEqual(source.subscriptions, [Subscription(200, 215)]) }
        }
    }

    func testCombineLatest_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let s = sources(scheduler, 7)
            let res = scheduler.start(disposed: 350) {
                Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
            }
            XCTAssertEqual(res.events, Array(expected(7).dropLast()))
            for source in s { XCTAssertEqual(source.subscriptions, [Subscription(200, 350)]) }
        }
    }

    /// Eight sources emit concurrently: the output is serialized, counts add up, one terminal event.
    func testCombineLatest_concurrentSources() {
        XCTAssertNoLeaks {
            let perThread = 1_000
            let subjects = (0..<8).map { _ in PublishSubject<Int>() }
            let probe = CombiningSupport.ConcurrencyProbe<Int>()
            let s = subjects
            let subscription = Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { a, b, c, d, e, f, g, h in
                a + b + c + d + e + f + g + h
            }.subscribe(probe)
            for subject in subjects { subject.onNext(0) }
            CombiningSupport.concurrently(8) { index in
                for value in 1...perThread { subjects[index].onNext(value) }
                subjects[index].onCompleted()
            }
            XCTAssertEqual(probe.maxConcurrentCalls, 1)
            XCTAssertEqual(probe.terminalCount, 1)
            XCTAssertEqual(probe.events.last, .completed)
            XCTAssertEqual(probe.elements.count, 1 + 8 * perThread)
            XCTAssertEqual(probe.elements.last, 8 * perThread)
            subscription.dispose()
        }
    }
}

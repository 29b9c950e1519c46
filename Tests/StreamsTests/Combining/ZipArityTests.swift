import Streams
import StreamsTest
import XCTest

/// `zip` arities 3-8 (the shared core is exercised in depth by `ZipTests`).
final class ZipArityTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    /// `count` hot sources; source `i` emits `i` at 210 + i and `10 * i` at 250 + i, completes at 300 + i.
    private func sources(_ scheduler: TestScheduler, _ count: Int) -> [TestableObservable<Int>] {
        (0..<count).map { i in
            scheduler.createHotObservable([.next(210 + i, i), .next(250 + i, 10 * i), .completed(300 + i)])
        }
    }

    private func expected(_ count: Int) -> [Recorded<Event<[Int]>>] {
        [.next(210 + count - 1, Array(0..<count)), .next(250 + count - 1, (0..<count).map { 10 * $0 }), .completed(300 + count - 1)]
    }

    func testZip_arities3to8() {
        XCTAssertNoLeaks {
            func run(_ count: Int, _ make: @escaping ([TestableObservable<Int>]) -> Observable<[Int]>) {
                let scheduler = TestScheduler(initialClock: 0)
                let s = sources(scheduler, count)
                let res = scheduler.start { make(s) }
                XCTAssertEqual(res.events, expected(count), "arity \(count)")
                for (i, source) in s.enumerated() { XCTAssertEqual(source.subscriptions, [Subscription(200, 300 + i)]) }
            }
            run(3) { s in Observable.zip(s[0], s[1], s[2]) { [$0, $1, $2] } }
            run(3) { s in Observable.zip(s[0], s[1], s[2]).map { [$0, $1, $2] } }
            run(4) { s in Observable.zip(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] } }
            run(4) { s in Observable.zip(s[0], s[1], s[2], s[3]).map { [$0, $1, $2, $3] } }
            run(5) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] } }
            run(5) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4]).map { [$0, $1, $2, $3, $4] } }
            run(6) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5] } }
            run(6) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { [$0, $1, $2, $3, $4, $5] } }
            run(7) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6] } }
            run(7) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { [$0, $1, $2, $3, $4, $5, $6] } }
            run(8) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7] } }
            run(8) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { [$0, $1, $2, $3, $4, $5, $6, $7] } }
        }
    }

    func testZip_mixedElementTypes() {
        XCTAssertNoLeaks {
            let res = Observable.zip(Observable.of(1, 2), Observable.of("a", "b", "c"), Observable.of(true, false))
                .map { "\($0)\($1)\($2)" }.toBlocking().materialize()
            guard case .completed(let elements) = res else { return XCTFail("\(res)") }
            XCTAssertEqual(elements, ["1atrue", "2bfalse"])
        }
    }

    /// As the fixed-arity `zip(_:_:)`: completes once every source has completed.
    func testZip_completesWhenAllComplete() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            let b = scheduler.createHotObservable([.next(215, 2), .next(230, 3), .completed(260)])
            let c = scheduler.createHotObservable([.next(240, 4), .completed(250)])
            let res = scheduler.start { Observable.zip(a, b, c) { $0 + $1 + $2 } }
            XCTAssertEqual(res.events, [.next(240, 7), .completed(260)])
            XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(c.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(b.subscriptions, [Subscription(200, 260)])
        }
    }

    func testZip_neverAndEmpty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let s = (0..<3).map { _ in scheduler.createHotObservable([Recorded<Event<Int>>]()) }
            let res = scheduler.start { Observable.zip(s[0], s[1], s[2]) { $0 + $1 + $2 } }
            XCTAssertEqual(res.events, [])
            let done = TestScheduler(initialClock: 0)
            let e = (0..<4).map { i in done.createHotObservable([.completed(210 + i, Int.self)]) }
            let res2 = done.start { Observable.zip(e[0], e[1], e[2], e[3]) { $0 + $1 + $2 + $3 } }
            XCTAssertEqual(res2.events, [.completed(213)])
        }
    }

    func testZip_errorFromAnySource() {
        for failing in 0..<8 {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let s = (0..<8).map { i in
                    scheduler.createHotObservable(
                        i == failing
                            ? [.next(210, i), .error(260, TestError.first)]
                            : [.next(210, i), .next(270, i), .completed(300)])
                }
                let res = scheduler.start { Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { _ in 1 } }
                XCTAssertEqual(res.events, [.next(210, 1), .error(260, TestError.first)], "source \(failing)")
                for source in s { XCTAssertEqual(source.subscriptions, [Subscription(200, 260)]) }
            }
        }
    }

    func testZip_selectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let s = sources(scheduler, 4)
            let res = scheduler.start { Observable.zip(s[0], s[1], s[2], s[3]) { (_, _, _, _) -> Int in throw TestError.selector } }
            XCTAssertEqual(res.events, [.error(213, TestError.selector)])
            for source in s { XCTAssertEqual(source.subscriptions, [Subscription(200, 213)]) }
        }
    }

    func testZip_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let s = sources(scheduler, 5)
            let res = scheduler.start(disposed: 240) { Observable.zip(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] } }
            XCTAssertEqual(res.events, [.next(214, [0, 1, 2, 3, 4])])
            for source in s { XCTAssertEqual(source.subscriptions, [Subscription(200, 240)]) }
        }
    }

    /// Eight sources emit concurrently: every index is zipped exactly once, in order, serialized.
    func testZip_concurrentSources() {
        XCTAssertNoLeaks {
            let perThread = 1_000
            let subjects = (0..<8).map { _ in PublishSubject<Int>() }
            let probe = CombiningSupport.ConcurrencyProbe<[Int]>()
            let s = subjects
            let subscription = Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
                .map { [$0, $1, $2, $3, $4, $5, $6, $7] }
                .subscribe(probe)
            CombiningSupport.concurrently(8) { index in
                for value in 1...perThread { subjects[index].onNext(value) }
                subjects[index].onCompleted()
            }
            XCTAssertEqual(probe.maxConcurrentCalls, 1)
            XCTAssertEqual(probe.terminalCount, 1)
            XCTAssertEqual(probe.events.last, .completed)
            XCTAssertEqual(probe.elements, (1...perThread).map { Array(repeating: $0, count: 8) })
            subscription.dispose()
        }
    }
}

import Dispatch
import Streams
import StreamsTest
import XCTest

final class AmbTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    func testAmb_firstToEmitWins() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(230, 1), .next(250, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(260)])
            let res = scheduler.start { xs.amb(ys) }
            XCTAssertEqual(res.events, [.next(220, 10), .next(240, 20), .completed(260)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 260)])
        }
    }

    func testAmb_leftWins() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, 10), .completed(260)])
            let res = scheduler.start { xs.amb(ys) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(250, 2), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
        }
    }

    func testAmb_sequence() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let a = scheduler.createHotObservable([.next(240, 1), .completed(300)])
            let b = scheduler.createHotObservable([.next(220, 2), .next(250, 3), .completed(310)])
            let c = scheduler.createHotObservable([.next(230, 4), .completed(320)])
            let res = scheduler.start { Observable.amb([a, b, c].map { $0.asObservable() }) }
            XCTAssertEqual(res.events, [.next(220, 2), .next(250, 3), .completed(310)])
            XCTAssertEqual(a.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(b.subscriptions, [Subscription(200, 310)])
            XCTAssertEqual(c.subscriptions, [Subscription(200, 220)])
        }
    }

    /// A terminal event is an event: an empty source that completes first wins.
    func testAmb_emptyWins() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(225, Int.self)])
            let ys = scheduler.createHotObservable([.next(230, 1), .completed(300)])
            let res = scheduler.start { xs.amb(ys) }
            XCTAssertEqual(res.events, [.completed(225)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
        }
    }

    func testAmb_errorWins() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(230, 1), .completed(300)])
            let ys = scheduler.createHotObservable([.error(215, TestError.first, Int.self)])
            let res = scheduler.start { xs.amb(ys) }
            XCTAssertEqual(res.events, [.error(215, TestError.first)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
        }
    }

    func testAmb_errorAfterWinningIsForwarded() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(240, TestError.second)])
            let ys = scheduler.createHotObservable([.next(220, 2), .completed(300)])
            let res = scheduler.start { xs.amb(ys) }
            XCTAssertEqual(res.events, [.next(210, 1), .error(240, TestError.second)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
        }
    }

    func testAmb_neverNever() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let ys = scheduler.createHotObservable([Recorded<Event<Int>>]())
            let res = scheduler.start { xs.amb(ys) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testAmb_emptySequenceNeverEmits() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.amb([Observable<Int>]()) }
            XCTAssertEqual(res.events, [])
        }
    }

    func testAmb_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let ys = scheduler.createHotObservable([.next(220, 10), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.amb(ys) }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
        }
    }

    /// As in RxSwift, every source is subscribed before a synchronous source's first element
    /// (it is a trampoline step); the synchronous source then wins and the others are disposed.
    func testAmb_synchronousWinnerDisposesLaterSources() {
        XCTAssertNoLeaks {
            var log: [String] = []
            let later = Observable<Int>.create { _ in
                log.append("subscribed")
                return Disposables.create { log.append("disposed") }
            }
            var events: [Event<Int>] = []
            _ = Observable.of(1, 2).amb(later).subscribe { event in
                log.append("\(event)")
                events.append(event)
            }
            XCTAssertEqual(events, [.next(1), .next(2), .completed])
            XCTAssertEqual(log.prefix(2), ["subscribed", "disposed"])
        }
    }

    /// An observer re-entering a losing source does not let it through.
    func testAmb_reentrantObserver() {
        XCTAssertNoLeaks {
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            var events: [Event<Int>] = []
            let subscription = a.amb(b).subscribe { event in
                events.append(event)
                if event.element == 1 { b.onNext(100) }
            }
            a.onNext(1)
            a.onNext(2)
            b.onNext(3)
            XCTAssertEqual(events, [.next(1), .next(2)])
            subscription.dispose()
        }
    }

    /// Several sources race from several threads: exactly one wins, its elements arrive in order
    /// and serialized, nothing else gets through, one terminal event.
    func testAmb_concurrentRace() {
        for _ in 0..<50 {
            XCTAssertNoLeaks {
                let threads = 4
                let perThread = 200
                let subjects = (0..<threads).map { _ in PublishSubject<Int>() }
                let probe = CombiningSupport.ConcurrencyProbe<Int>()
                let subscription = Observable.amb(subjects.map { $0.asObservable() }).subscribe(probe)
                CombiningSupport.concurrently(threads) { index in
                    for value in 0..<perThread { subjects[index].onNext(index * 10_000 + value) }
                    subjects[index].onCompleted()
                }
                XCTAssertEqual(probe.maxConcurrentCalls, 1)
                XCTAssertEqual(probe.terminalCount, 1)
                XCTAssertEqual(probe.events.last, .completed)
                let elements = probe.elements
                let winner = (elements.first ?? 0) / 10_000
                XCTAssertEqual(elements, (0..<perThread).map { winner * 10_000 + $0 })
                subscription.dispose()
            }
        }
    }
}

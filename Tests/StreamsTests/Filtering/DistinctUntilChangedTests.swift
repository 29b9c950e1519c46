import Streams
import StreamsTest
import XCTest

final class DistinctUntilChangedTests: XCTestCase {
    typealias TestError = CombiningSupport.TestError

    private struct Item: Equatable {
        let id: Int
        let name: String
    }

    func testDistinctUntilChanged_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(215, 2), .next(220, 3), .next(225, 2), .next(230, 2), .completed(250)])
            let res = scheduler.start { xs.distinctUntilChanged() }
            XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(225, 2), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDistinctUntilChanged_keySelector() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, "a1"), .next(220, "a2"), .next(230, "b3"), .next(240, "a4"), .completed(250)])
            let res = scheduler.start { xs.distinctUntilChanged { $0.prefix(1) } }
            XCTAssertEqual(res.events, [.next(210, "a1"), .next(230, "b3"), .next(240, "a4"), .completed(250)])
        }
    }

    func testDistinctUntilChanged_comparer() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 3), .next(230, 4), .next(240, 6), .next(245, 7), .completed(250)])
            var calls: [[Int]] = []
            let res = scheduler.start {
                xs.distinctUntilChanged { old, new in
                    calls.append([old, new])
                    return old % 2 == new % 2
                }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .next(230, 4), .next(245, 7), .completed(250)])
            // The comparer receives the last forwarded element first.
            XCTAssertEqual(calls, [[1, 3], [1, 4], [4, 6], [4, 7]])
        }
    }

    func testDistinctUntilChanged_keySelectorAndComparer() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, "a1"), .next(220, "A2"), .next(230, "b3"), .next(240, "a4"), .completed(250)])
            let res = scheduler.start {
                xs.distinctUntilChanged({ String($0.prefix(1)) }, comparer: { $0.lowercased() == $1.lowercased() })
            }
            XCTAssertEqual(res.events, [.next(210, "a1"), .next(230, "b3"), .next(240, "a4"), .completed(250)])
        }
    }

    func testDistinctUntilChanged_keyPath() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, Item(id: 1, name: "a")), .next(220, Item(id: 1, name: "b")),
                .next(230, Item(id: 2, name: "b")), .completed(250),
            ])
            let res = scheduler.start { xs.distinctUntilChanged(at: \.id) }
            XCTAssertEqual(res.events, [.next(210, Item(id: 1, name: "a")), .next(230, Item(id: 2, name: "b")), .completed(250)])
        }
    }

    /// A `nil` key is a key like any other.
    func testDistinctUntilChanged_optionalElements() {
        XCTAssertNoLeaks {
            var events: [Event<Int?>] = []
            let subject = PublishSubject<Int?>()
            let subscription = subject.distinctUntilChanged().subscribe { events.append($0) }
            for value in [nil, nil, 1, 1, nil, 2] as [Int?] { subject.onNext(value) }
            subject.onCompleted()
            XCTAssertEqual(events, [.next(nil), .next(1), .next(nil), .next(2), .completed])
            subscription.dispose()
        }
    }

    func testDistinctUntilChanged_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .completed(250, Int.self)])
            let res = scheduler.start { xs.distinctUntilChanged() }
            XCTAssertEqual(res.events, [.completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDistinctUntilChanged_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { xs.distinctUntilChanged() }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testDistinctUntilChanged_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .error(230, TestError.first, Int.self)])
            let res = scheduler.start { xs.distinctUntilChanged() }
            XCTAssertEqual(res.events, [.next(210, 1), .error(230, TestError.first)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testDistinctUntilChanged_keySelectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
            let res = scheduler.start {
                xs.distinctUntilChanged { value -> Int in
                    if value == 2 { throw TestError.selector }
                    return value
                }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError.selector)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testDistinctUntilChanged_comparerThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
            let res = scheduler.start {
                xs.distinctUntilChanged { (_: Int, _: Int) -> Bool in throw TestError.selector }
            }
            // The first element has nothing to compare with, so the comparer first runs at 220.
            XCTAssertEqual(res.events, [.next(210, 1), .error(220, TestError.selector)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        }
    }

    func testDistinctUntilChanged_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .completed(300)])
            let res = scheduler.start(disposed: 250) { xs.distinctUntilChanged() }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDistinctUntilChanged_reentrant() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = subject.distinctUntilChanged().subscribe(onNext: { value in
                received.append(value)
                if value == 1 {
                    subject.onNext(1)
                    subject.onNext(2)
                }
            })
            subject.onNext(1)
            subject.onNext(2)
            subject.onNext(3)
            XCTAssertEqual(received, [1, 2, 3])
            subscription.dispose()
        }
    }
}

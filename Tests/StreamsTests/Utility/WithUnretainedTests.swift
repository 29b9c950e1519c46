import XCTest
import Streams
import StreamsTest

private struct TestError: Error {}

private final class Owner {
    let name: String
    init(name: String) { self.name = name }
}

final class WithUnretainedTests: XCTestCase {
    func testWithUnretained_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(250)])
            let owner = Owner(name: "o")
            let res = scheduler.start { xs.withUnretained(owner).map { "\($0.name)\($1)" } }
            XCTAssertEqual(res.events, [.next(210, "o1"), .next(220, "o2"), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testWithUnretained_resultSelector() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
            let owner = Owner(name: "x")
            let res = scheduler.start { xs.withUnretained(owner) { object, value in "\(object.name)-\(value)" } }
            XCTAssertEqual(res.events, [.next(210, "x-1"), .next(220, "x-2"), .completed(250)])
        }
    }

    func testWithUnretained_completesAtFirstElementAfterObjectIsGone() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .next(250, 4), .completed(300)])
            var owner: Owner? = Owner(name: "o")
            weak let weakOwner = owner
            let source = xs.withUnretained(owner!) { object, value in "\(object.name)\(value)" }
            let res = scheduler.createObserver(String.self)
            var subscription: Disposable?
            scheduler.scheduleAt(200) { subscription = source.subscribe(res) }
            scheduler.scheduleAt(230) { owner = nil }
            scheduler.start()
            XCTAssertNil(weakOwner, "the operator must not retain the object")
            XCTAssertEqual(res.events, [.next(210, "o1"), .next(220, "o2"), .completed(240)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
            subscription?.dispose()
        }
    }

    func testWithUnretained_objectGoneBeforeSubscribing() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            var owner: Owner? = Owner(name: "o")
            let source = xs.withUnretained(owner!)
            owner = nil
            let res = scheduler.start { source.map { $1 } }
            XCTAssertEqual(res.events, [.completed(210)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        }
    }

    func testWithUnretained_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .completed(250, Int.self)])
            let owner = Owner(name: "o")
            let res = scheduler.start { xs.withUnretained(owner).map { $1 } }
            XCTAssertEqual(res.events, [.completed(250)])
        }
    }

    func testWithUnretained_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0)])
            let owner = Owner(name: "o")
            let res = scheduler.start { xs.withUnretained(owner).map { $1 } }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testWithUnretained_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
            let owner = Owner(name: "o")
            let res = scheduler.start { xs.withUnretained(owner).map { $1 } }
            XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError())])
        }
    }

    func testWithUnretained_errorAfterObjectIsGoneStillPassesThrough() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
            var owner: Owner? = Owner(name: "o")
            let source = xs.withUnretained(owner!).map { $1 }
            scheduler.scheduleAt(220) { owner = nil }
            let res = scheduler.start { source }
            XCTAssertEqual(res.events, [.next(210, 1), .error(250, TestError())])
        }
    }

    func testWithUnretained_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            let owner = Owner(name: "o")
            let res = scheduler.start(disposed: 250) { xs.withUnretained(owner).map { $1 } }
            XCTAssertEqual(res.events, [.next(210, 1)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testWithUnretained_reentrantEmission() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            let owner = Owner(name: "o")
            var seen: [Int] = []
            let subscription = subject.withUnretained(owner).subscribe(onNext: { _, value in
                seen.append(value)
                if value < 3 { subject.onNext(value + 1) }
            })
            subject.onNext(1)
            XCTAssertEqual(seen, [1, 2, 3])
            subscription.dispose()
        }
    }
}

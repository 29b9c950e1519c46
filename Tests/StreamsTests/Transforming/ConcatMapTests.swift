import Foundation
import XCTest
import Streams
import StreamsTest

final class ConcatMapTests: XCTestCase {
    func testConcatMap_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let ys1 = scheduler.createColdObservable([.next(10, 11), .next(20, 12), .completed(30)])
            let ys2 = scheduler.createColdObservable([.next(5, 21), .completed(10)])
            var calls = 0
            let res = scheduler.start {
                xs.concatMap { value -> TestableObservable<Int> in
                    calls += 1
                    return value == 1 ? ys1 : ys2
                }
            }
            XCTAssertEqual(res.events, [.next(220, 11), .next(230, 12), .next(245, 21), .completed(250)])
            XCTAssertEqual(calls, 2)
            XCTAssertEqual(ys1.subscriptions, [Subscription(210, 240)])
            XCTAssertEqual(ys2.subscriptions, [Subscription(240, 250)])
        }
    }

    func testConcatMap_selectorRunsOnArrival() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let gate = scheduler.createColdObservable([.completed(100, Int.self)])
            var calledAt: [Int] = []
            _ = scheduler.start {
                xs.concatMap { value -> Observable<Int> in
                    calledAt.append(scheduler.clock)
                    return value == 1 ? gate.asObservable() : .just(value)
                }
            }
            XCTAssertEqual(calledAt, [210, 220])
        }
    }

    func testConcatMap_empty() {
        XCTAssertNoLeaks {
            XCTAssertEqual(collectEvents(Observable<Int>.empty().concatMap { Observable.just($0) }).events, [.completed])
        }
    }

    func testConcatMap_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let res = scheduler.start { xs.concatMap { value in value == 1 ? Observable<Int>.never() : .just(value) } }
            XCTAssertEqual(res.events, [])
        }
    }

    func testConcatMap_innerErrorSkipsQueue() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let ys1 = scheduler.createColdObservable([.next(10, 11), .error(20, TransformTestError(), Int.self)])
            let ys2 = scheduler.createColdObservable([.next(5, 21), .completed(10)])
            let res = scheduler.start { xs.concatMap { $0 == 1 ? ys1 : ys2 } }
            XCTAssertEqual(res.events, [.next(220, 11), .error(230, TransformTestError())])
            XCTAssertEqual(ys2.subscriptions, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testConcatMap_outerError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TransformTestError(), Int.self)])
            let ys = scheduler.createColdObservable([.next(5, 11), .next(50, 12), .completed(60)])
            let res = scheduler.start { xs.concatMap { _ in ys } }
            XCTAssertEqual(res.events, [.next(215, 11), .error(220, TransformTestError())])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
        }
    }

    func testConcatMap_selectorThrows() {
        XCTAssertNoLeaks {
            let source = Observable.of(1, 2, 3).concatMap { value -> Observable<Int> in
                if value == 2 { throw TransformTestError() }
                return .just(value)
            }
            XCTAssertEqual(collectEvents(source).events, [.next(1), .error(TransformTestError())])
        }
    }

    func testConcatMap_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let ys = scheduler.createColdObservable([.next(10, 11), .next(30, 12), .completed(40)])
            let res = scheduler.start(disposed: 255) { xs.concatMap { _ in ys } }
            XCTAssertEqual(res.events, [.next(220, 11), .next(240, 12)])
            XCTAssertEqual(ys.subscriptions, [Subscription(210, 250), Subscription(250, 255)])
        }
    }

    func testConcatMap_longQueueOfSynchronousInnersDoesNotRecurse() {
        XCTAssertNoLeaks {
            let gate = PublishSubject<Int>()
            let count = 100_000
            var received = 0
            var completed = false
            let subscription = Observable.from(0..<count)
                .concatMap { value in value == 0 ? gate.asObservable() : .just(value) }
                .subscribe(onNext: { _ in received += 1 }, onCompleted: { completed = true })
            XCTAssertEqual(received, 0)
            gate.onCompleted()
            XCTAssertEqual(received, count - 1)
            XCTAssertTrue(completed)
            subscription.dispose()
        }
    }

    func testConcatMap_multiThreadStress() {
        XCTAssertNoLeaks {
            let inners = 200, perInner = 50
            let factory = AsyncInnerFactory()
            let recorder = GrammarRecorder<Int>()
            let subscription = Observable.from(0..<inners)
                .concatMap { factory.make($0, count: perInner) }
                .subscribe(recorder)
            recorder.waitForTerminal()
            factory.work.wait()
            recorder.assertGrammar()
            XCTAssertEqual(recorder.terminals, [.completed])
            XCTAssertEqual(recorder.elements, Array(0..<inners * perInner), "one inner at a time, in order")
            XCTAssertEqual(factory.maxActive.load(ordering: .relaxed), 1)
            subscription.dispose()
        }
    }
}

import Foundation
import Streams
import StreamsTest
import XCTest

final class WindowTests: XCTestCase {
    /// Tags each window's elements with its index and marks its completion with "i|".
    private func tagged(_ source: Observable<Observable<Int>>) -> Observable<String> {
        source.enumerated().flatMap { index, window in
            window.map { "\(index) \($0)" }.concat(Observable.just("\(index)|"))
        }
    }

    func testWindow_countAndTime() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 0), .next(201, 1), .next(203, 2), .next(205, 3), .next(208, 4), .completed(217),
            ])
            let res = scheduler.start { self.tagged(xs.window(timeSpan: .seconds(5), count: 3, scheduler: scheduler)) }
            XCTAssertEqual(
                res.events,
                [
                    .next(201, "0 1"), .next(203, "0 2"), .next(205, "0 3"), .next(205, "0|"),
                    .next(208, "1 4"), .next(210, "1|"), .next(215, "2|"), .next(217, "3|"), .completed(217),
                ])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 217)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testWindow_timeOnly() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(260)])
            let res = scheduler.start { self.tagged(xs.window(timeSpan: .seconds(25), count: 100, scheduler: scheduler)) }
            XCTAssertEqual(
                res.events,
                [
                    .next(210, "0 1"), .next(220, "0 2"), .next(225, "0|"), .next(240, "1 3"), .next(250, "1|"),
                    .next(260, "2|"), .completed(260),
                ])
        }
    }

    func testWindow_emitsWindowOnSubscribe() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
            let res = scheduler.start { xs.window(timeSpan: .seconds(20), count: 5, scheduler: scheduler).map { _ in scheduler.clock } }
            XCTAssertEqual(res.events, [.next(200, 200), .next(220, 220), .completed(230)])
        }
    }

    func testWindow_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, Int.self)])
            let res = scheduler.start { self.tagged(xs.window(timeSpan: .seconds(100), count: 3, scheduler: scheduler)) }
            XCTAssertEqual(res.events, [.next(250, "0|"), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testWindow_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start(disposed: 450) { self.tagged(xs.window(timeSpan: .seconds(100), count: 3, scheduler: scheduler)) }
            XCTAssertEqual(res.events, [.next(300, "0|"), .next(400, "1|")])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 450)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testWindow_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TransformTestError(), Int.self)])
            let windows = scheduler.createObserver(Int.self)
            let res = scheduler.start { () -> Observable<Int> in
                xs.window(timeSpan: .seconds(100), count: 3, scheduler: scheduler)
                    .do(onNext: { window in _ = window.subscribe(windows) })
                    .map { _ in 0 }
            }
            XCTAssertEqual(res.events, [.next(200, 0), .error(250, TransformTestError())])
            XCTAssertEqual(windows.events, [.next(210, 1), .error(250, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testWindow_countZeroOrLessFails() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
            let zero = scheduler.start { self.tagged(xs.window(timeSpan: .seconds(5), count: 0, scheduler: scheduler)) }
            XCTAssertEqual(zero.events, [.error(200, RxError.argumentOutOfRange)])
            let negative = collectEvents(Observable.just(1).window(timeSpan: .seconds(5), count: -1, scheduler: scheduler).flatMap { $0 })
            XCTAssertEqual(negative.events, [.error(RxError.argumentOutOfRange)])
            XCTAssertEqual(xs.subscriptions, [])
        }
    }

    func testWindow_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
            let res = scheduler.start(disposed: 235) { self.tagged(xs.window(timeSpan: .seconds(100), count: 2, scheduler: scheduler)) }
            XCTAssertEqual(res.events, [.next(210, "0 1"), .next(220, "0 2"), .next(220, "0|"), .next(230, "1 3")])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testWindow_outerDisposedWindowKeepsReceivingUntilItCloses() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(350, 5), .completed(400),
            ])
            let inner = scheduler.createObserver(Int.self)
            var outer: Disposable?
            var innerSubscription: Disposable?
            _ = scheduler.scheduleAt(200) {
                outer = xs.window(timeSpan: .seconds(100), count: 10, scheduler: scheduler).subscribe(onNext: { window in
                    if innerSubscription == nil { innerSubscription = window.subscribe(inner) }
                })
            }
            _ = scheduler.scheduleAt(215) { outer?.dispose() }
            scheduler.start()
            XCTAssertEqual(inner.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            XCTAssertNoPendingWork(scheduler)
            innerSubscription?.dispose()
        }
    }

    func testWindow_outerDisposedUpstreamReleasedWhenLastWindowDisposes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(400)])
            let inner = scheduler.createObserver(Int.self)
            var outer: Disposable?
            var innerSubscription: Disposable?
            _ = scheduler.scheduleAt(200) {
                outer = xs.window(timeSpan: .seconds(100), count: 10, scheduler: scheduler).subscribe(onNext: { window in
                    if innerSubscription == nil { innerSubscription = window.subscribe(inner) }
                })
            }
            _ = scheduler.scheduleAt(215) { outer?.dispose() }
            _ = scheduler.scheduleAt(225) { innerSubscription?.dispose() }
            scheduler.start()
            XCTAssertEqual(inner.events, [.next(210, 1), .next(220, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testWindow_outerDisposedWithoutSubscribedWindowReleasesUpstream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(400)])
            let res = scheduler.start(disposed: 250) { xs.window(timeSpan: .seconds(100), count: 10, scheduler: scheduler).map { _ in 0 } }
            XCTAssertEqual(res.events, [.next(200, 0)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
            XCTAssertNoPendingWork(scheduler)
        }
    }

    func testWindow_reentrant() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let source = PublishSubject<Int>()
            var events: [String] = []
            var innerSubscriptions: [Disposable] = []
            let subscription = source.window(timeSpan: .seconds(100), count: 2, scheduler: scheduler).enumerated().subscribe(onNext: { index, window in
                events.append("open \(index)")
                innerSubscriptions.append(
                    window.subscribe { event in
                        events.append("\(index) \(event)")
                        if case .next(1) = event { source.onNext(2); source.onNext(3) }
                    })
            })
            source.onNext(1)
            source.onCompleted()
            XCTAssertEqual(
                events,
                [
                    "open 0", "0 next(1)", "0 next(2)", "0 completed", "open 1", "1 next(3)", "1 completed",
                ])
            subscription.dispose()
            innerSubscriptions.forEach { $0.dispose() }
        }
    }

    func testWindow_multiThreadedTimerAndSource() {
        XCTAssertNoLeaksEventually {
            let scheduler = SerialDispatchQueueScheduler(serialQueue: DispatchQueue(label: "window.timer"))
            let source = PublishSubject<Int>()
            let collected = LockedBox(Collected())
            let done = DispatchSemaphore(value: 0)
            let subscription = source.window(timeSpan: .microseconds(50), count: 7, scheduler: scheduler).subscribe(
                onNext: { window in
                    let index = collected.withLock { state -> Int in
                        state.windows.append([])
                        return state.windows.count - 1
                    }
                    _ = window.subscribe { event in
                        collected.withLock { state in
                            switch event {
                            case .next(let value):
                                if state.closed.contains(index) { state.grammarViolations += 1 }
                                state.windows[index].append(value)
                            case .error: state.grammarViolations += 1
                            case .completed:
                                if !state.closed.insert(index).inserted { state.grammarViolations += 1 }
                            }
                        }
                    }
                }, onCompleted: { done.signal() })
            let count = 20_000
            DispatchQueue.global().async {
                for value in 0..<count { source.onNext(value) }
                source.onCompleted()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            let result = collected.withLock { $0 }
            XCTAssertEqual(result.windows.flatMap { $0 }, Array(0..<count))
            XCTAssertTrue(result.windows.allSatisfy { $0.count <= 7 })
            XCTAssertEqual(result.closed.count, result.windows.count)
            XCTAssertEqual(result.grammarViolations, 0)
            subscription.dispose()
        }
    }
}

private struct Collected {
    var windows: [[Int]] = []
    var closed: Set<Int> = []
    var grammarViolations = 0
}

/// A tiny lock box for the stress test.
private final class LockedBox<Value>: @unchecked Sendable {
    // Safety: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

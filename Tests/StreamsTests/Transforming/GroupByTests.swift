import Foundation
import Streams
import StreamsTest
import XCTest

final class GroupByTests: XCTestCase {
    /// Tags each group's elements with its key and marks its completion with "key|".
    private func tagged(_ source: Observable<GroupedObservable<String, String>>) -> Observable<String> {
        source.flatMap { group in
            group.map { "\(group.key) \($0)" }.concat(Observable.just("\(group.key)|"))
        }
    }

    private func firstLetter(_ value: String) -> String { String(value.prefix(1)) }

    func testGroupBy_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, "z0"), .next(210, "a1"), .next(220, "b1"), .next(230, "a2"), .next(240, "b2"),
                .next(250, "c1"), .completed(300),
            ])
            let res = scheduler.start { self.tagged(xs.groupBy(keySelector: self.firstLetter)) }
            XCTAssertEqual(
                res.events,
                [
                    .next(210, "a a1"), .next(220, "b b1"), .next(230, "a a2"), .next(240, "b b2"), .next(250, "c c1"),
                    .next(300, "a|"), .next(300, "b|"), .next(300, "c|"), .completed(300),
                ])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    /// Deliberate (RxSwift ends its groups in its dictionary's hash order, which changes from run
    /// to run): many keys, first seen in no sorted or hash order, end in the order they were seen.
    func testGroupBy_terminalEventsReachGroupsInCreationOrder() {
        let keys = [17, 3, 42, 8, 25, 0, 31, 12, 5, 39, 20, 1, 28, 9, 36, 14]
        for terminal in [Event<Int>.completed, .error(TransformTestError())] {
            XCTAssertNoLeaks {
                let scheduler = TestScheduler(initialClock: 0)
                let xs = scheduler.createHotObservable(
                    keys.enumerated().map { Recorded.next(210 + $0.offset, $0.element) } + [Recorded(time: 300, value: terminal)])
                let ends = scheduler.createObserver(Int.self)
                _ = scheduler.start { () -> Observable<Int> in
                    xs.groupBy { $0 }
                        .do(onNext: { group in
                            _ = group.subscribe(onError: { _ in ends.onNext(group.key) }, onCompleted: { ends.onNext(group.key) })
                        })
                        .map { $0.key }
                }
                XCTAssertEqual(ends.events.map { $0.value.element }, keys)
            }
        }
        // The campaign's case 16795: RxSwift records 82 and 3 in either order.
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start {
                Observable.from([3, 8, 2]).groupBy { $0 % 2 }.flatMap { $0.reduce(0) { $0 &* 10 &+ $1 } }
            }
            XCTAssertEqual(res.events, [.next(200, 3), .next(200, 82), .completed(200)])
        }
    }

    func testGroupBy_emitsOneGroupPerKey() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 6), .completed(300),
            ])
            let res = scheduler.start { xs.groupBy { $0 % 3 }.map { $0.key } }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 0), .completed(300)])
        }
    }

    func testGroupBy_empty() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.completed(250, String.self)])
            let res = scheduler.start { self.tagged(xs.groupBy(keySelector: self.firstLetter)) }
            XCTAssertEqual(res.events, [.completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testGroupBy_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, "a0")])
            let res = scheduler.start { self.tagged(xs.groupBy(keySelector: self.firstLetter)) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testGroupBy_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, "a1"), .next(220, "b1"), .error(250, TransformTestError(), String.self)])
            let groupA = scheduler.createObserver(String.self)
            let groupB = scheduler.createObserver(String.self)
            let res = scheduler.start { () -> Observable<String> in
                xs.groupBy(keySelector: self.firstLetter)
                    .do(onNext: { group in _ = group.subscribe(group.key == "a" ? groupA : groupB) })
                    .map { $0.key }
            }
            XCTAssertEqual(res.events, [.next(210, "a"), .next(220, "b"), .error(250, TransformTestError())])
            XCTAssertEqual(groupA.events, [.next(210, "a1"), .error(250, TransformTestError())])
            XCTAssertEqual(groupB.events, [.next(220, "b1"), .error(250, TransformTestError())])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testGroupBy_keySelectorThrows() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, "a1"), .next(220, "b1"), .next(230, "x1"), .next(240, "a2"), .completed(300),
            ])
            let groups = scheduler.createObserver(String.self)
            let res = scheduler.start { () -> Observable<String> in
                xs.groupBy { value -> String in
                    if value == "x1" { throw TransformTestError() }
                    return self.firstLetter(value)
                }
                .do(onNext: { group in _ = group.subscribe(groups) })
                .map { $0.key }
            }
            XCTAssertEqual(res.events, [.next(210, "a"), .next(220, "b"), .error(230, TransformTestError())])
            XCTAssertEqual(
                groups.events,
                [
                    .next(210, "a1"), .next(220, "b1"), .error(230, TransformTestError()), .error(230, TransformTestError()),
                ])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testGroupBy_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, "a1"), .next(220, "b1"), .next(230, "a2"), .completed(300)])
            let res = scheduler.start(disposed: 225) { self.tagged(xs.groupBy(keySelector: self.firstLetter)) }
            XCTAssertEqual(res.events, [.next(210, "a a1"), .next(220, "b b1")])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        }
    }

    func testGroupBy_outerDisposedGroupKeepsReceiving() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, "a1"), .next(220, "b1"), .next(230, "a2"), .next(240, "c1"), .next(250, "a3"), .completed(300),
            ])
            let groupA = scheduler.createObserver(String.self)
            var outer: Disposable?
            var inner: Disposable?
            _ = scheduler.scheduleAt(200) {
                outer = xs.groupBy(keySelector: self.firstLetter).subscribe(onNext: { group in
                    if group.key == "a" { inner = group.subscribe(groupA) }
                })
            }
            _ = scheduler.scheduleAt(215) { outer?.dispose() }
            scheduler.start()
            XCTAssertEqual(groupA.events, [.next(210, "a1"), .next(230, "a2"), .next(250, "a3"), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            inner?.dispose()
        }
    }

    func testGroupBy_outerDisposedUpstreamReleasedWhenLastGroupDisposes() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, "a1"), .next(220, "b1"), .next(230, "a2"), .next(250, "a3"), .completed(300)])
            let groupA = scheduler.createObserver(String.self)
            var outer: Disposable?
            var inner: Disposable?
            _ = scheduler.scheduleAt(200) {
                outer = xs.groupBy(keySelector: self.firstLetter).subscribe(onNext: { group in
                    if group.key == "a" { inner = group.subscribe(groupA) }
                })
            }
            _ = scheduler.scheduleAt(215) { outer?.dispose() }
            _ = scheduler.scheduleAt(240) { inner?.dispose() }
            scheduler.start()
            XCTAssertEqual(groupA.events, [.next(210, "a1"), .next(230, "a2")])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        }
    }

    func testGroupBy_groupSubscribedLaterMissesEarlierElements() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, "a1"), .next(230, "a2"), .completed(300)])
            let late = scheduler.createObserver(String.self)
            var group: GroupedObservable<String, String>?
            let res = scheduler.start { xs.groupBy(keySelector: self.firstLetter).do(onNext: { group = $0 }).map { $0.key } }
            _ = res
            XCTAssertEqual(group?.key, "a")
            // The source has completed: a late subscriber only sees the terminal event.
            _ = group?.subscribe(late)
            XCTAssertEqual(late.events, [.completed(1000)])
            group = nil
        }
    }

    func testGroupBy_reentrant() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            var events: [String] = []
            var inner: [Disposable] = []
            let subscription = source.groupBy { $0 % 2 }.subscribe(onNext: { group in
                events.append("group \(group.key)")
                inner.append(
                    group.subscribe { event in
                        events.append("\(group.key) \(event)")
                        if case .next(1) = event { source.onNext(2); source.onNext(3) }
                    })
            })
            source.onNext(1)
            source.onCompleted()
            XCTAssertEqual(events, ["group 1", "1 next(1)", "group 0", "0 next(2)", "1 next(3)", "1 completed", "0 completed"])
            subscription.dispose()
            inner.forEach { $0.dispose() }
        }
    }

    func testGroupBy_multiThreadedGroupSubscriptions() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let observable = source.groupBy { $0 % 4 }
            let subscriptions = LockedDisposables()
            let counts = LockedCounts()
            let outer = observable.subscribe(onNext: { group in
                subscriptions.add(group.subscribe(onNext: { _ in counts.increment(group.key) }))
            })
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                // Source events are serialized (the contract); disposal races from other threads.
                if worker == 0 {
                    for value in 0..<10_000 { source.onNext(value) }
                    source.onCompleted()
                } else {
                    let extra = source.groupBy { $0 % 2 }.subscribe(onNext: { _ in })
                    extra.dispose()
                }
            }
            outer.dispose()
            XCTAssertEqual(counts.values, [0: 2_500, 1: 2_500, 2: 2_500, 3: 2_500])
            subscriptions.disposeAll()
        }
    }
}

private final class LockedDisposables: @unchecked Sendable {
    // Safety: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [Disposable] = []
    func add(_ disposable: Disposable) { lock.lock(); items.append(disposable); lock.unlock() }
    func disposeAll() {
        lock.lock(); let all = items; items = []; lock.unlock()
        all.forEach { $0.dispose() }
    }
}

private final class LockedCounts: @unchecked Sendable {
    // Safety: `counts` is only touched under `lock`.
    private let lock = NSLock()
    private var counts: [Int: Int] = [:]
    func increment(_ key: Int) { lock.lock(); counts[key, default: 0] += 1; lock.unlock() }
    var values: [Int: Int] { lock.lock(); defer { lock.unlock() }; return counts }
}

import Dispatch
import XCTest
import Streams
import StreamsTest

final class DisposeBagTests: XCTestCase {
    func testDisposeBag_disposesOnDeinitInInsertionOrder() {
        let log = TestDisposalLog()
        let items = (0..<3).map { CountingTestDisposable("\($0)", log: log) }
        var bag: DisposeBag? = DisposeBag()
        for item in items { bag?.insert(item) }
        XCTAssertEqual(bag?.count, 3)
        XCTAssertEqual(log.entries, [])
        bag = nil
        XCTAssertEqual(log.entries, ["0", "1", "2"])
        XCTAssertEqual(items.map(\.disposeCount), [1, 1, 1])
    }

    /// Every kind of entry (a subject's subscription, a cancelable, a plain disposable) is
    /// disposed once, in insertion order, and released with the bag: `deinit` moves each entry
    /// out of its slot instead of copying it.
    func testDisposeBag_deinitDisposesEachKindOnceAndReleasesIt() {
        final class Token {}
        weak var captured: Token?
        var log: [String] = []
        let subject = PublishSubject<Int>()
        do {
            let token = Token()
            captured = token
            let bag = DisposeBag()
            subject.subscribe(onNext: { _ in withExtendedLifetime(token) {} }).disposed(by: bag)
            Disposables.create { log.append("cancelable") }.disposed(by: bag)
            bag.insert(PlainDisposable { log.append("plain") })
            XCTAssertEqual(bag.count, 3)
            XCTAssertTrue(subject.hasObservers)
        }
        XCTAssertEqual(log, ["cancelable", "plain"])
        XCTAssertFalse(subject.hasObservers)
        XCTAssertNil(captured)
    }

    /// Subjects' subscriptions (stored by their own non-generic path) and other entries share one
    /// insertion order: each is disposed after the ones inserted before it and before the ones after.
    func testDisposeBag_subjectSubscriptionsKeepInsertionOrderWithOtherEntries() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        var seen: [String] = []
        do {
            let bag = DisposeBag()
            first.subscribe(onNext: { _ in }).disposed(by: bag)
            PlainDisposable { seen.append("plain: first \(first.hasObservers), second \(second.hasObservers)") }
                .disposed(by: bag)
            second.subscribe(onNext: { _ in }).disposed(by: bag)
            XCTAssertEqual(bag.count, 3)
        }
        XCTAssertEqual(seen, ["plain: first false, second true"])
        XCTAssertFalse(second.hasObservers)
    }

    func testDisposeBag_insertionVariants() {
        let items = (0..<9).map { _ in CountingTestDisposable() }
        var bags: [DisposeBag] = [
            DisposeBag(disposing: items[0], items[1]),
            DisposeBag(disposing: [items[2]]),
            DisposeBag {
                items[3]
                items[4]
            },
        ]
        do {
            let bag = DisposeBag()
            bag.insert(items[5], items[6])
            bag.insert([items[7]])
            bag.insert {
                items[8]
            }
            bags.append(bag)
        }
        XCTAssertEqual(bags.map(\.count), [2, 1, 2, 4])
        XCTAssertTrue(items.allSatisfy { $0.disposeCount == 0 })
        bags = []
        XCTAssertTrue(items.allSatisfy { $0.disposeCount == 1 })
    }

    func testDisposeBag_disposedBySubscription() {
        XCTAssertNoLeaks { checkSubscriptionEndsWithBag() }
    }

    private func checkSubscriptionEndsWithBag() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var bag: DisposeBag? = DisposeBag()
        subject.subscribe(onNext: { received.append($0) }).disposed(by: bag!)
        subject.onNext(1)
        bag = nil
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    /// A long-lived bag fed with finished work stays small, and pruned entries are not disposed again.
    func testDisposeBag_pruningKeepsBagBounded() {
        let live = (0..<100).map { _ in CountingTestDisposable() }
        let bag = DisposeBag()
        for item in live { bag.insert(item) }
        var finished: [CountingTestDisposable] = []
        for step in 0..<10_000 {
            let item = CountingTestDisposable()
            item.dispose()
            finished.append(item)
            bag.insert(item)
            bag.insert(Disposables.create())
            bag.insert(BooleanDisposable(isDisposed: true))
            XCTAssertLessThanOrEqual(bag.count, 2 * 100 + 3, "step \(step)")
        }
        XCTAssertGreaterThanOrEqual(bag.count, 100)
        withExtendedLifetime(bag) {}
        XCTAssertTrue(live.allSatisfy { $0.disposeCount == 0 })
        XCTAssertTrue(finished.allSatisfy { $0.disposeCount == 1 })
    }

    func testDisposeBag_pruningKeepsLiveEntriesAndOrder() {
        let log = TestDisposalLog()
        var bag: DisposeBag? = DisposeBag()
        var live: [CountingTestDisposable] = []
        for index in 0..<200 {
            if index % 10 == 0 {
                let item = CountingTestDisposable("\(index)", log: log)
                live.append(item)
                bag?.insert(item)
            } else {
                let done = CountingTestDisposable()
                done.dispose()
                bag?.insert(done)
            }
        }
        bag = nil
        XCTAssertEqual(log.entries, live.indices.map { "\($0 * 10)" })
        XCTAssertTrue(live.allSatisfy { $0.disposeCount == 1 })
    }

    /// Each way in (`insert` with an existential, `disposed(by:)`) and each kind of entry the bag
    /// stores unboxed or boxed (a subject's subscription, a class that is not ``Cancelable``, a
    /// value type): held, disposed once in insertion order when the bag goes, and released.
    func testDisposeBag_entryKindsThroughEachWayIn() {
        final class PlainObject: Disposable {
            let action: () -> Void
            init(_ action: @escaping () -> Void) { self.action = action }
            func dispose() { action() }
        }
        var log: [String] = []
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        weak var plainObject: PlainObject?
        do {
            let bag = DisposeBag()
            bag.insert(first.subscribe(onNext: { _ in }))
            second.subscribe(onNext: { _ in }).disposed(by: bag)
            let object = PlainObject { log.append("object") }
            plainObject = object
            object.disposed(by: bag)
            PlainDisposable { log.append("value") }.disposed(by: bag)
            Disposables.create().disposed(by: bag)
            XCTAssertEqual(bag.count, 4)
            XCTAssertTrue(first.hasObservers)
            XCTAssertTrue(second.hasObservers)
        }
        XCTAssertEqual(log, ["object", "value"])
        XCTAssertFalse(first.hasObservers)
        XCTAssertFalse(second.hasObservers)
        XCTAssertNil(plainObject)
    }

    /// A finished ``Cancelable`` that is a value type (boxed by the bag) is pruned like a class one.
    func testDisposeBag_pruningFindsFinishedValueTypeCancelables() {
        let bag = DisposeBag()
        for step in 0..<1_000 {
            bag.insert(FinishedCancelable())
            XCTAssertLessThanOrEqual(bag.count, 2 * 32 + 1, "step \(step)")
        }
    }

    /// A subscription to a subject that has already terminated is `Disposables.create()`: not held.
    func testDisposeBag_doesNotHoldRejectedSubscription() {
        let subject = PublishSubject<Int>()
        subject.onCompleted()
        let bag = DisposeBag()
        subject.subscribe(onNext: { _ in }).disposed(by: bag)
        XCTAssertEqual(bag.count, 0)
    }

    /// Several threads insert (live and finished entries, so pruning runs concurrently); when the bag
    /// goes away every live entry is disposed exactly once.
    func testDisposeBag_concurrentInsertion() {
        for _ in 0..<10 {
            let all = LockedState([(CountingTestDisposable, Bool)]())
            do {
                let box = DisposablesTestBox(DisposeBag())
                DispatchQueue.concurrentPerform(iterations: 4) { _ in
                    for step in 0..<500 {
                        let item = CountingTestDisposable()
                        let finished = step % 2 == 0
                        if finished { item.dispose() }
                        all.withLock { $0.append((item, finished)) }
                        box.value.insert(item)
                    }
                }
                XCTAssertTrue(all.withLock { $0 }.allSatisfy { $0.1 || $0.0.disposeCount == 0 })
            }
            let items = all.withLock { $0 }
            XCTAssertEqual(items.count, 2_000)
            // Live entries: exactly once. Finished ones: the bag may dispose those it has not pruned yet again.
            XCTAssertTrue(items.allSatisfy { $0.1 ? $0.0.disposeCount >= 1 : $0.0.disposeCount == 1 })
        }
    }
}

/// A disposable that is not ``Cancelable`` (a bag's plain entry).
private struct PlainDisposable: Disposable {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
    func dispose() { action() }
}

/// A value-typed ``Cancelable`` that is already finished (a bag boxes it, and prunes it).
private struct FinishedCancelable: Cancelable {
    var isDisposed: Bool { true }
    func dispose() {}
}

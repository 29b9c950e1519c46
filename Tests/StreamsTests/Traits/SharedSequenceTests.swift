import XCTest
import Streams
import StreamsTest

final class SharedSequenceTests: XCTestCase {
    struct TestError: Error {}

    func testAsDriver_onErrorJustReturn_deliversOnMockedScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(250, TestError())])
            var driver: Driver<Int>!
            SharingScheduler.mock(scheduler: scheduler) {
                driver = xs.asDriver(onErrorJustReturn: -1)
            }
            let res = scheduler.start { driver.asObservable() }
            XCTAssertEqual(res.events, [.next(211, 1), .next(221, 2), .next(251, -1), .completed(251)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDriver_replaysLatestToLateSubscriber() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(300, 3)])
            SharingScheduler.mock(scheduler: scheduler) {
                let driver = xs.asDriver(onErrorJustReturn: 0).map { $0 * 10 }
                let early = scheduler.createObserver(Int.self)
                let late = scheduler.createObserver(Int.self)
                var subscriptions: [Disposable] = []
                _ = scheduler.scheduleAt(200) { subscriptions.append(driver.drive(early)) }
                _ = scheduler.scheduleAt(250) { subscriptions.append(driver.drive(late)) }
                _ = scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
                scheduler.start()
                XCTAssertEqual(early.events, [.next(211, 10), .next(221, 20), .next(301, 30)])
                XCTAssertEqual(late.events, [.next(250, 20), .next(301, 30)])
                XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
            }
        }
    }

    func testSignal_doesNotReplay() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 3)])
            SharingScheduler.mock(scheduler: scheduler) {
                let signal = xs.asSignal(onErrorJustReturn: 0)
                let early = scheduler.createObserver(Int.self)
                let late = scheduler.createObserver(Int.self)
                var subscriptions: [Disposable] = []
                _ = scheduler.scheduleAt(200) { subscriptions.append(signal.emit(to: early)) }
                _ = scheduler.scheduleAt(250) { subscriptions.append(signal.emit(to: late)) }
                _ = scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
                scheduler.start()
                XCTAssertEqual(early.events, [.next(211, 1), .next(301, 3)])
                XCTAssertEqual(late.events, [.next(301, 3)])
            }
        }
    }

    func testAsDriver_recoverAndDriveWith() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
            var driver: Driver<Int>!
            var signal: Signal<Int>!
            SharingScheduler.mock(scheduler: scheduler) {
                let fallback = Driver.just(7)
                driver = xs.asDriver(onErrorRecover: { _ in fallback })
                signal = Observable<Int>.error(TestError()).asSignal(onErrorSignalWith: .empty())
            }
            let res = scheduler.start { driver.asObservable() }
            // `Driver.just` is subscribed on the sharing scheduler (RxCocoa): element and completion in one step.
            XCTAssertEqual(res.events, [.next(211, 1), .next(222, 7), .completed(222)])
            var completed = 0
            _ = signal.emit(onCompleted: { completed += 1 })
            scheduler.advanceTo(2000)
            XCTAssertEqual(completed, 1)
        }
    }

    func testDriver_operatorsAndRelays() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let a = PublishRelay<Int>()
                let b = BehaviorRelay(value: 10)
                let da = a.asDriver(onErrorJustReturn: 0)
                let db = b.asDriver(onErrorJustReturn: 0)
                let sum = BehaviorRelay(value: 0)
                var log: [Int] = []
                let d1 = Driver.combineLatest(da, db) { $0 + $1 }.distinctUntilChanged().drive(sum)
                let d2 = Driver.merge(da, db).filter { $0 != 10 }.scan(0, accumulator: +).startWith(-1)
                    .drive(onNext: { log.append($0) })
                let d3 = da.withLatestFrom(db).flatMapLatest { Driver.just($0 * 2) }.drive(onNext: { log.append($0) })
                scheduler.advanceTo(10)
                a.accept(1)
                scheduler.advanceTo(20)
                b.accept(5)
                scheduler.advanceTo(30)
                XCTAssertEqual(sum.value, 6)
                XCTAssertEqual(log, [-1, 1, 20, 6])
                d1.dispose(); d2.dispose(); d3.dispose()
            }
        }
    }

    func testSharingScheduler_mockRestores() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            XCTAssertTrue(SharingScheduler.make() as AnyObject === scheduler)
        }
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }

    /// `mock` returns what its action returns, so a test builds and runs in one closure (an
    /// addition: RxCocoa's returns nothing); a `Void` action still works as there.
    func testSharingScheduler_mockReturnsTheActionsResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: 1)
        let res = SharingScheduler.mock(scheduler: scheduler) {
            scheduler.start { relay.asDriver().map { $0 * 10 } }
        }
        XCTAssertEqual(res.events, [.next(201, 10)])
        var ran = false
        SharingScheduler.mock(makeScheduler: { scheduler }) { ran = true }
        XCTAssertTrue(ran)
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }
}

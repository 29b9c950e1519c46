import XCTest
import Streams
@testable import StreamsTest

final class LeakAssertionsTests: XCTestCase {
    func testNoLeaks_balancedChainPasses() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            let subscription = subject.map { $0 + 1 }.subscribe(onNext: { _ in })
            subject.onNext(1)
            subscription.dispose()
        }
    }

    func testNoLeaks_countsLiveResources() {
        let baseline = Resources.total
        var subject: PublishSubject<Int>? = PublishSubject<Int>()
        XCTAssertEqual(Resources.total, baseline + 1)
        _ = subject
        subject = nil
        XCTAssertEqual(Resources.total, baseline)
    }

    func testNoPendingWork_emptyScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertNil(pendingWorkFailure(scheduler))
        XCTAssertNoPendingWork(scheduler)
    }

    func testNoPendingWork_reportsScheduledWork() {
        let scheduler = TestScheduler(initialClock: 0)
        scheduler.scheduleAt(10) {}
        scheduler.scheduleAt(20) {}
        scheduler.advanceTo(5)
        XCTAssertEqual(pendingWorkFailure(scheduler), "TestScheduler has 2 pending work items at clock 5.")
        scheduler.advanceTo(10)
        XCTAssertEqual(pendingWorkFailure(scheduler), "TestScheduler has 1 pending work item at clock 10.")
        scheduler.start()
        XCTAssertNoPendingWork(scheduler)
    }

    func testNoPendingWork_disposingCancelsScheduledWork() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int.self)
            let subscription = Observable.just(1, scheduler: scheduler).subscribe(observer)
            XCTAssertNotNil(pendingWorkFailure(scheduler))
            subscription.dispose()
            XCTAssertNoPendingWork(scheduler)
            scheduler.start()
            XCTAssertEqual(observer.events, [])
        }
    }

    func testNoPendingWork_hotEventsStayPendingUntilPlayed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(600, 1)])
        scheduler.advanceTo(500)
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advanceTo(600)
        XCTAssertNoPendingWork(scheduler)
        _ = xs
    }

    func testNoPendingWork_historicalScheduler() {
        let scheduler = HistoricalScheduler()
        XCTAssertNoPendingWork(scheduler)
    }
}

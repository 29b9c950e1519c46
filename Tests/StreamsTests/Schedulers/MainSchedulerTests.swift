import XCTest
import Foundation
import Streams
import StreamsTest

/// `DispatchQueue.main` only runs work while the main thread drains it. XCTest's `wait(for:)`
/// on the main thread runs the main run loop, which drains it on Linux too; so does
/// `RunLoop.main.run(until:)`.
final class MainSchedulerTests: XCTestCase {
    func testMainScheduler_runsInlineOnMainThreadWhenNothingIsQueued() {
        XCTAssertTrue(Thread.isMainThread)
        var ran = false
        _ = MainScheduler.instance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        XCTAssertTrue(ran)
    }

    func testMainScheduler_nestedScheduleIsDeferred() {
        var log: [String] = []
        let done = expectation(description: "nested ran")
        _ = MainScheduler.instance.schedule(()) { _ in
            log.append("outer")
            _ = MainScheduler.instance.schedule(()) { _ in
                log.append("inner")
                done.fulfill()
                return Disposables.create()
            }
            log.append("outer end")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["outer", "outer end"])
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log, ["outer", "outer end", "inner"])
    }

    func testMainScheduler_fromBackgroundRunsOnMainThread() {
        let done = expectation(description: "ran on main")
        let wasMain = ThreadSafeTestBox<Bool?>(nil)
        DispatchQueue.global().async {
            _ = MainScheduler.instance.schedule(()) { _ in
                wasMain.mutate { $0 = Thread.isMainThread }
                MainScheduler.ensureExecutingOnScheduler()
                done.fulfill()
                return Disposables.create()
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(wasMain.value, true)
    }

    func testAsyncInstance_neverRunsInline() {
        var ran = false
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        XCTAssertFalse(ran)
        let deadline = Date().addingTimeInterval(10)
        while !ran && Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
        XCTAssertTrue(ran)
    }

    func testMainScheduler_disposedWorkDoesNotRun() {
        var ran = false
        let cancelled = MainScheduler.asyncInstance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        cancelled.dispose()
        let fence = expectation(description: "fence")
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            fence.fulfill()
            return Disposables.create()
        }
        wait(for: [fence], timeout: 10)
        XCTAssertFalse(ran)
    }

    func testObserveOnMainScheduler_deliversOnMainThreadInOrder() {
        XCTAssertNoLeaksEventually {
            let observer = ConcurrencyCheckingObserver<Int>(expectation(description: "completed"))
            let offMain = ThreadSafeTestBox(0)
            let subject = PublishSubject<Int>()
            let subscription = subject.observe(on: MainScheduler.instance)
                .map { value -> Int in
                    if !Thread.isMainThread { offMain.mutate { $0 += 1 } }
                    return value
                }
                .subscribe(observer)
            let box = UncheckedSendableTestBox(value: subject)
            DispatchQueue.global().async {
                for i in 0..<1_000 { box.value.onNext(i) }
                box.value.onCompleted()
            }
            wait(for: [observer.terminated], timeout: 30)
            observer.assertGrammar()
            XCTAssertEqual(observer.elements, Array(0..<1_000))
            XCTAssertEqual(offMain.value, 0)
            subscription.dispose()
        }
    }

    func testMainScheduler_timeOperatorsDrainViaRunLoop() {
        XCTAssertNoLeaksEventually {
            var values: [Int] = []
            var completed = false
            let subscription = Observable<Int>.timer(.milliseconds(1), period: .milliseconds(1), scheduler: MainScheduler.instance)
                .subscribe(onNext: { values.append($0) })
            let timeout = Observable<Int>.just(1).delay(.milliseconds(2), scheduler: MainScheduler.asyncInstance)
                .subscribe(onCompleted: { completed = true })
            let deadline = Date().addingTimeInterval(10)
            while (values.count < 3 || !completed) && Date() < deadline {
                _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
            }
            subscription.dispose()
            timeout.dispose()
            XCTAssertEqual(Array(values.prefix(3)), [0, 1, 2])
            XCTAssertTrue(completed)
        }
    }
}

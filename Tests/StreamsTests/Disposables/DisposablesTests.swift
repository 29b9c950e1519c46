import Dispatch
import XCTest
import Streams
import StreamsTest

final class DisposablesTests: XCTestCase {
    func testDisposablesCreate_emptyDoesNothing() {
        let disposable = Disposables.create()
        disposable.dispose()
        disposable.dispose()
    }

    func testDisposablesCreateWith_runsActionOnce() {
        var runs = 0
        let disposable = Disposables.create { runs += 1 }
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        disposable.dispose()
        XCTAssertEqual(runs, 1)
    }

    func testDisposablesCreateWith_concurrentDisposeRunsActionOnce() {
        for _ in 0..<200 {
            let counter = CountingTestDisposable()
            let disposable = DisposablesTestBox(Disposables.create(with: { counter.dispose() }))
            DispatchQueue.concurrentPerform(iterations: 4) { _ in disposable.value.dispose() }
            XCTAssertEqual(counter.disposeCount, 1)
        }
    }

    func testDisposablesCreateWith_actionMayDisposeItselfAgain() {
        var runs = 0
        var disposable: Cancelable?
        disposable = Disposables.create {
            runs += 1
            disposable?.dispose()
        }
        disposable?.dispose()
        XCTAssertEqual(runs, 1)
    }

    func testDisposablesCreate_twoThreeAndMore() {
        let log = TestDisposalLog()
        let pairs = (0..<2).map { CountingTestDisposable("p\($0)", log: log) }
        let triple = (0..<3).map { CountingTestDisposable("t\($0)", log: log) }
        let many = (0..<5).map { CountingTestDisposable("m\($0)", log: log) }
        let array = (0..<4).map { CountingTestDisposable("a\($0)", log: log) }

        let two = Disposables.create(pairs[0], pairs[1])
        let three = Disposables.create(triple[0], triple[1], triple[2])
        let five = Disposables.create(many[0], many[1], many[2], many[3], many[4])
        let fromArray = Disposables.create(array)

        for group in [two, three, five, fromArray] {
            XCTAssertFalse(group.isDisposed)
            group.dispose()
            group.dispose()
            XCTAssertTrue(group.isDisposed)
        }
        XCTAssertEqual(log.entries, ["p0", "p1", "t0", "t1", "t2", "m0", "m1", "m2", "m3", "m4", "a0", "a1", "a2", "a3"])
        for disposable in pairs + triple + many + array {
            XCTAssertEqual(disposable.disposeCount, 1)
        }
    }

    func testDisposedBy_addsToBag() {
        let counter = CountingTestDisposable()
        var bag: DisposeBag? = DisposeBag()
        counter.disposed(by: bag!)
        XCTAssertEqual(counter.disposeCount, 0)
        bag = nil
        XCTAssertEqual(counter.disposeCount, 1)
    }
}

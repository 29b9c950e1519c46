import Dispatch
import XCTest
import Streams

final class SingleAssignmentDisposableTests: XCTestCase {
    func testSingleAssignmentDisposable_disposesAssignedDisposable() {
        let single = SingleAssignmentDisposable()
        let inner = CountingTestDisposable()
        single.setDisposable(inner)
        XCTAssertFalse(single.isDisposed)
        XCTAssertEqual(inner.disposeCount, 0)
        single.dispose()
        XCTAssertTrue(single.isDisposed)
        single.dispose()
        XCTAssertEqual(inner.disposeCount, 1)
    }

    func testSingleAssignmentDisposable_disposeBeforeAssignmentDisposesOnArrival() {
        let single = SingleAssignmentDisposable()
        single.dispose()
        XCTAssertTrue(single.isDisposed)
        let inner = CountingTestDisposable()
        single.setDisposable(inner)
        XCTAssertEqual(inner.disposeCount, 1)
    }

    func testSingleAssignmentDisposable_concurrentDisposeAndAssign() {
        for _ in 0..<500 {
            let single = DisposablesTestBox(SingleAssignmentDisposable())
            let inner = CountingTestDisposable()
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 0 { single.value.setDisposable(inner) } else { single.value.dispose() }
            }
            XCTAssertEqual(inner.disposeCount, 1)
        }
    }
}

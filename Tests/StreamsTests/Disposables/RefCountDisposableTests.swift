import Dispatch
import XCTest
import Streams

final class RefCountDisposableTests: XCTestCase {
    func testRefCountDisposable_disposesAtOnceWithoutHandles() {
        let inner = CountingTestDisposable()
        let refCount = RefCountDisposable(disposable: inner)
        XCTAssertFalse(refCount.isDisposed)
        refCount.dispose()
        XCTAssertTrue(refCount.isDisposed)
        refCount.dispose()
        XCTAssertEqual(inner.disposeCount, 1)
    }

    func testRefCountDisposable_waitsForEveryHandle() {
        let inner = CountingTestDisposable()
        let refCount = RefCountDisposable(disposable: inner)
        let h1 = refCount.retain()
        let h2 = refCount.retain()
        refCount.dispose()
        XCTAssertEqual(inner.disposeCount, 0)
        XCTAssertFalse(refCount.isDisposed)
        h1.dispose()
        h1.dispose()
        XCTAssertEqual(inner.disposeCount, 0)
        let h3 = refCount.retain()
        h2.dispose()
        XCTAssertEqual(inner.disposeCount, 0)
        h3.dispose()
        XCTAssertEqual(inner.disposeCount, 1)
        XCTAssertTrue(refCount.isDisposed)
    }

    func testRefCountDisposable_handlesReleasedBeforePrimary() {
        let inner = CountingTestDisposable()
        let refCount = RefCountDisposable(disposable: inner)
        refCount.retain().dispose()
        XCTAssertEqual(inner.disposeCount, 0)
        refCount.dispose()
        XCTAssertEqual(inner.disposeCount, 1)
        let late = refCount.retain()
        late.dispose()
        XCTAssertEqual(inner.disposeCount, 1)
    }

    func testRefCountDisposable_concurrentHandles() {
        for _ in 0..<50 {
            let inner = CountingTestDisposable()
            let refCount = DisposablesTestBox(RefCountDisposable(disposable: inner))
            let handles = (0..<40).map { _ in DisposablesTestBox(refCount.value.retain()) }
            DispatchQueue.concurrentPerform(iterations: handles.count + 1) { index in
                if index == handles.count { refCount.value.dispose() } else { handles[index].value.dispose() }
            }
            XCTAssertEqual(inner.disposeCount, 1)
        }
    }
}

import Dispatch
import XCTest
import Streams

final class CompositeDisposableTests: XCTestCase {
    func testCompositeDisposable_disposesAllInInsertionOrder() {
        let log = TestDisposalLog()
        let items = (0..<4).map { CountingTestDisposable("\($0)", log: log) }
        let composite = CompositeDisposable()
        for item in items { XCTAssertNotNil(composite.insert(item)) }
        XCTAssertEqual(composite.count, 4)
        XCTAssertFalse(composite.isDisposed)
        composite.dispose()
        XCTAssertTrue(composite.isDisposed)
        XCTAssertEqual(composite.count, 0)
        XCTAssertEqual(log.entries, ["0", "1", "2", "3"])
        composite.dispose()
        XCTAssertEqual(items.map(\.disposeCount), [1, 1, 1, 1])
    }

    func testCompositeDisposable_initializers() {
        let items = (0..<6).map { _ in CountingTestDisposable() }
        XCTAssertEqual(CompositeDisposable(items[0], items[1]).count, 2)
        XCTAssertEqual(CompositeDisposable(items[0], items[1], items[2]).count, 3)
        XCTAssertEqual(CompositeDisposable(items[0], items[1], items[2], items[3], items[4], items[5]).count, 6)
        XCTAssertEqual(CompositeDisposable(items[0], items[1], items[2], items[3]).count, 4)
        XCTAssertEqual(CompositeDisposable(disposables: items).count, 6)
        XCTAssertEqual(CompositeDisposable().count, 0)
    }

    func testCompositeDisposable_insertAfterDisposeDisposesAtOnce() {
        let composite = CompositeDisposable()
        composite.dispose()
        let late = CountingTestDisposable()
        XCTAssertNil(composite.insert(late))
        XCTAssertEqual(late.disposeCount, 1)
        XCTAssertEqual(composite.count, 0)
    }

    func testCompositeDisposable_removeDisposesOnlyThatOne() {
        let a = CountingTestDisposable()
        let b = CountingTestDisposable()
        let composite = CompositeDisposable()
        let keyA = composite.insert(a)!
        _ = composite.insert(b)
        composite.remove(for: keyA)
        XCTAssertEqual(a.disposeCount, 1)
        XCTAssertEqual(b.disposeCount, 0)
        XCTAssertEqual(composite.count, 1)
        composite.remove(for: keyA)
        XCTAssertEqual(a.disposeCount, 1)
        composite.dispose()
        XCTAssertEqual(a.disposeCount, 1)
        XCTAssertEqual(b.disposeCount, 1)
        composite.remove(for: keyA)
    }

    func testCompositeDisposable_disposableMayTouchItsGroupWhileBeingDisposed() {
        let composite = CompositeDisposable()
        var countSeen = -1
        composite.insert(Disposables.create { countSeen = composite.count })
        let late = CountingTestDisposable()
        composite.insert(Disposables.create { composite.insert(late) })
        composite.dispose()
        XCTAssertEqual(countSeen, 0)
        XCTAssertEqual(late.disposeCount, 1)
    }

    /// Threads insert, remove and dispose concurrently: every disposable is disposed exactly once.
    func testCompositeDisposable_concurrentInsertRemoveAndDispose() {
        for _ in 0..<20 {
            let composite = DisposablesTestBox(CompositeDisposable())
            let all = LockedState([CountingTestDisposable]())
            DispatchQueue.concurrentPerform(iterations: 5) { index in
                if index == 0 {
                    for _ in 0..<300 { _ = composite.value.count }
                    composite.value.dispose()
                    return
                }
                for step in 0..<300 {
                    let item = CountingTestDisposable()
                    all.withLock { $0.append(item) }
                    let key = composite.value.insert(item)
                    if step % 4 == 0, let key { composite.value.remove(for: key) }
                }
            }
            let items = all.withLock { $0 }
            XCTAssertEqual(items.count, 4 * 300)
            XCTAssertTrue(items.allSatisfy { $0.disposeCount == 1 })
            XCTAssertEqual(composite.value.count, 0)
        }
    }
}

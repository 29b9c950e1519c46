import Dispatch
import XCTest
import Streams

final class SerialDisposableTests: XCTestCase {
    func testSerialDisposable_replacementDisposesPrevious() {
        let serial = SerialDisposable()
        let first = CountingTestDisposable()
        let second = CountingTestDisposable()
        serial.disposable = first
        XCTAssertEqual(first.disposeCount, 0)
        serial.disposable = second
        XCTAssertEqual(first.disposeCount, 1)
        XCTAssertEqual(second.disposeCount, 0)
        XCTAssertTrue((serial.disposable as? CountingTestDisposable) === second)
        serial.dispose()
        XCTAssertTrue(serial.isDisposed)
        XCTAssertEqual(second.disposeCount, 1)
        serial.dispose()
        XCTAssertEqual(second.disposeCount, 1)
    }

    func testSerialDisposable_assignmentAfterDisposeDisposesAtOnce() {
        let serial = SerialDisposable()
        XCTAssertFalse(serial.isDisposed)
        serial.dispose()
        let late = CountingTestDisposable()
        serial.disposable = late
        XCTAssertEqual(late.disposeCount, 1)
        XCTAssertFalse(serial.disposable is CountingTestDisposable)
    }

    func testSerialDisposable_emptyDispose() {
        let serial = SerialDisposable()
        serial.dispose()
        XCTAssertTrue(serial.isDisposed)
    }

    func testSerialDisposable_concurrentReplacementDisposesEachOnce() {
        let serial = DisposablesTestBox(SerialDisposable())
        let all = LockedState([CountingTestDisposable]())
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for _ in 0..<500 {
                let item = CountingTestDisposable()
                all.withLock { $0.append(item) }
                serial.value.disposable = item
            }
            if index == 0 { serial.value.dispose() }
        }
        serial.value.dispose()
        let items = all.withLock { $0 }
        XCTAssertTrue(items.allSatisfy { $0.disposeCount == 1 })
    }
}

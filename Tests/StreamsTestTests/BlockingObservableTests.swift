import Dispatch
import Foundation
import XCTest
import Streams
import StreamsTest

final class BlockingObservableTests: XCTestCase {
    struct TestError: Error {}

    /// Background emitters still running; `tearDown` waits for them so that no sink outlives its
    /// test (a later test's `XCTAssertNoLeaks` would see it disappear).
    private static let emitters = DispatchGroup()

    override func tearDown() {
        Self.emitters.wait()
        super.tearDown()
    }

    /// Emits `elements` then `terminal` from a background queue, after `subscribe` returned.
    private static func background(_ elements: [Int], _ terminal: Event<Int>? = .completed) -> Observable<Int> {
        Observable.create { observer in
            let box = HandOver(observer)
            emitters.enter()
            DispatchQueue.global().async {
                for element in elements { box.value?.onNext(element) }
                if let terminal { box.value?.on(terminal) }
                box.value = nil
                emitters.leave()
            }
            return Disposables.create()
        }
    }

    /// A synchronous source that sends `elements` and then never terminates; `disposed` records disposal.
    private func endless(_ elements: [Int], disposed: @escaping () -> Void) -> Observable<Int> {
        Observable.create { observer in
            for element in elements { observer.onNext(element) }
            return Disposables.create(with: disposed)
        }
    }

    private func assertThrows<T>(
        _ expected: Error, _ body: @autoclosure () throws -> T,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(String(reflecting: error), String(reflecting: expected), file: file, line: line)
        }
    }

    // MARK: toArray

    func testToArray_synchronousSourceDoesNotDeadlock() throws {
        try XCTAssertNoLeaks {
            XCTAssertEqual(try Observable.just(1).toBlocking().toArray(), [1])
            XCTAssertEqual(try Observable<Int>.empty().toBlocking().toArray(), [])
            XCTAssertEqual(try Observable.merge(.just(1), .just(2)).toBlocking().toArray(), [1, 2])
        }
    }

    func testToArray_error() throws {
        try XCTAssertNoLeaks {
            assertThrows(TestError(), try Observable<Int>.error(TestError()).toBlocking().toArray())
        }
    }

    func testToArray_backgroundSource() throws {
        XCTAssertEqual(try Self.background([1, 2, 3]).toBlocking().toArray(), [1, 2, 3])
        XCTAssertEqual(try Self.background([1, 2, 3]).toBlocking(timeout: 10).toArray(), [1, 2, 3])
        assertThrows(TestError(), try Self.background([1], .error(TestError())).toBlocking().toArray())
    }

    func testToArray_timeoutThrowsAndDisposes() throws {
        try XCTAssertNoLeaks {
            var disposed = false
            assertThrows(RxError.timeout, try endless([1, 2]) { disposed = true }.toBlocking(timeout: 0.05).toArray())
            XCTAssertTrue(disposed)
        }
    }

    // MARK: first

    func testFirst() throws {
        try XCTAssertNoLeaks {
            XCTAssertEqual(try Observable.just(1).toBlocking().first(), 1)
            XCTAssertNil(try Observable<Int>.empty().toBlocking().first())
            assertThrows(TestError(), try Observable<Int>.error(TestError()).toBlocking().first())
        }
    }

    func testFirst_stopsAtFirstElementAndDisposes() throws {
        try XCTAssertNoLeaks {
            var disposed = false
            XCTAssertEqual(try endless([7, 8]) { disposed = true }.toBlocking().first(), 7)
            XCTAssertTrue(disposed)
        }
        XCTAssertEqual(try Self.background([3, 4]).toBlocking().first(), 3)
    }

    func testFirst_timeout() throws {
        try XCTAssertNoLeaks {
            assertThrows(RxError.timeout, try endless([]) {}.toBlocking(timeout: 0.05).first())
        }
    }

    // MARK: last

    func testLast() throws {
        try XCTAssertNoLeaks {
            XCTAssertEqual(try Observable.merge(.just(1), .just(2), .just(3)).toBlocking().last(), 3)
            XCTAssertNil(try Observable<Int>.empty().toBlocking().last())
        }
        XCTAssertEqual(try Self.background([1, 2, 3]).toBlocking().last(), 3)
        assertThrows(TestError(), try Self.background([1, 2], .error(TestError())).toBlocking().last())
        assertThrows(RxError.timeout, try endless([1]) {}.toBlocking(timeout: 0.05).last())
    }

    // MARK: single

    func testSingle() throws {
        try XCTAssertNoLeaks {
            XCTAssertEqual(try Observable.just(5).toBlocking().single(), 5)
            assertThrows(RxError.noElements, try Observable<Int>.empty().toBlocking().single())
            assertThrows(TestError(), try Observable<Int>.error(TestError()).toBlocking().single())
        }
        XCTAssertEqual(try Self.background([9]).toBlocking().single(), 9)
    }

    func testSingle_secondElementStopsAndDisposes() throws {
        try XCTAssertNoLeaks {
            var disposed = false
            assertThrows(RxError.moreThanOneElement, try endless([1, 2]) { disposed = true }.toBlocking().single())
            XCTAssertTrue(disposed)
        }
    }

    func testSingle_predicate() throws {
        try XCTAssertNoLeaks {
            let source = Observable.merge(.just(1), .just(2), .just(3))
            XCTAssertEqual(try source.toBlocking().single { $0 == 2 }, 2)
            assertThrows(RxError.noElements, try source.toBlocking().single { $0 > 5 })
            assertThrows(RxError.moreThanOneElement, try source.toBlocking().single { $0 > 1 })
            assertThrows(TestError(), try source.toBlocking().single { _ in throw TestError() })
        }
        assertThrows(RxError.timeout, try endless([1, 2]) {}.toBlocking(timeout: 0.05).single { $0 == 2 })
    }

    // MARK: materialize

    func testMaterialize() {
        XCTAssertNoLeaks {
            guard case .completed(let elements) = Observable.merge(.just(1), .just(2)).toBlocking().materialize() else {
                return XCTFail("expected completed")
            }
            XCTAssertEqual(elements, [1, 2])
        }
        guard case .failed(let elements, let error) = Self.background([1], .error(TestError())).toBlocking().materialize() else {
            return XCTFail("expected failed")
        }
        XCTAssertEqual(elements, [1])
        XCTAssertTrue(error is TestError)
    }

    func testMaterialize_timeoutIsAFailure() {
        XCTAssertNoLeaks {
            guard case .failed(let elements, let error) = endless([1, 2], disposed: {}).toBlocking(timeout: 0.05).materialize() else {
                return XCTFail("expected failed")
            }
            XCTAssertEqual(elements, [1, 2])
            XCTAssertEqual(error as? RxError, .timeout)
        }
    }

    // MARK: threads

    func testToArray_manyConcurrentBlockingCalls() {
        let expected = Array(0..<200)
        let results = LockedResults()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let array = try? Self.background(expected).toBlocking(timeout: 30).toArray()
            results.append(array)
        }
        XCTAssertEqual(results.all.count, 16)
        for result in results.all { XCTAssertEqual(result, expected) }
    }

    func testSubject_emittingFromAnotherThread() throws {
        let subject = PublishSubject<Int>()
        let source = Observable<Int>.create { observer in
            let subscription = subject.subscribe(observer)
            let box = HandOver(subject)
            Self.emitters.enter()
            DispatchQueue.global().async {
                box.value?.onNext(1)
                box.value?.onNext(2)
                box.value?.onCompleted()
                box.value = nil
                Self.emitters.leave()
            }
            return subscription
        }
        XCTAssertEqual(try source.toBlocking(timeout: 10).toArray(), [1, 2])
    }
}

/// Hands a value to one background block, which drops it before signalling that it is done.
private final class HandOver<Value>: @unchecked Sendable {
    // Safety: `value` is set at creation and then only used (and cleared) by the one
    // background block the box is handed to.
    var value: Value?

    init(_ value: Value) {
        self.value = value
    }
}

/// Collects results from several threads.
private final class LockedResults: Sendable {
    private let values = LockedState([[Int]?]())

    var all: [[Int]?] { values.withLock { $0 } }

    func append(_ value: [Int]?) {
        values.withLock { $0.append(value) }
    }
}

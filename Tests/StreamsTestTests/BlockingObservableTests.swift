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

    func testSingle_predicateSeesNothingAfterTheSecondMatch() throws {
        try XCTAssertNoLeaks {
            var seen: [Int] = []
            assertThrows(
                RxError.moreThanOneElement,
                try Observable.of(42, 43, 44, 45).toBlocking().single { element in
                    seen.append(element)
                    return element == 43 || element == 44
                })
            XCTAssertEqual(seen, [42, 43, 44])
        }
    }

    func testSingle_throwingPredicateSeesNothingAfterItThrew() throws {
        try XCTAssertNoLeaks {
            var seen: [Int] = []
            assertThrows(
                TestError(),
                try Observable.of(42, 43, 44, 45).toBlocking().single { element in
                    seen.append(element)
                    if element == 43 { throw TestError() }
                    return false
                })
            XCTAssertEqual(seen, [42, 43])
        }
    }

    /// A source that emits `elements` one per step of the current-thread trampoline (as RxSwift's
    /// `of` does) and stops when its subscription is disposed; `produced` records what it emitted.
    private func trampolined(_ elements: [Int], produced: @escaping (Int) -> Void) -> Observable<Int> {
        Observable.create { observer in
            CurrentThreadScheduler.instance.scheduleRecursive(0) { index, recurse in
                guard index < elements.count else { return observer.onCompleted() }
                produced(elements[index])
                observer.onNext(elements[index])
                recurse(index + 1)
            }
        }
    }

    func testSingle_disposesATrampolinedSourceFromInsideOnNext() throws {
        try XCTAssertNoLeaks {
            var produced: [Int] = []
            var seen: [Int] = []
            assertThrows(
                RxError.moreThanOneElement,
                try trampolined([42, 43, 44, 45]) { produced.append($0) }.toBlocking().single { element in
                    seen.append(element)
                    return element == 43 || element == 44
                })
            XCTAssertEqual(seen, [42, 43, 44])
            XCTAssertEqual(produced, [42, 43, 44], "the subscription is disposed at the second match")

            produced = []
            XCTAssertEqual(try trampolined([1, 2, 3]) { produced.append($0) }.toBlocking().first(), 1)
            XCTAssertEqual(produced, [1])
        }
    }

    func testSingle_predicateDisposesAnEndlessBackgroundSource() {
        let ended = expectation(description: "the source's loop ended")
        let source = Observable<Int>.create { observer in
            let cancel = BooleanDisposable()
            let box = HandOver(observer)
            Self.emitters.enter()
            DispatchQueue.global().async {
                var next = 0
                while !cancel.isDisposed {
                    box.value?.onNext(next)
                    next += 1
                }
                box.value = nil
                ended.fulfill()
                Self.emitters.leave()
            }
            return cancel
        }
        assertThrows(RxError.moreThanOneElement, try source.toBlocking(timeout: 30).single { $0 == 1 || $0 == 2 })
        wait(for: [ended], timeout: 30)
    }

    // MARK: main thread

    func testMainThread_mainSchedulerWorkMakesProgress() throws {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs test methods on the main thread")
        let started = Date()
        XCTAssertEqual(try Observable.just(1, scheduler: MainScheduler.instance).toBlocking().first(), 1)
        XCTAssertEqual(try Observable.just(1).delay(.milliseconds(10), scheduler: MainScheduler.instance).toBlocking(timeout: 30).toArray(), [1])
        XCTAssertEqual(try Self.background([1, 2, 3]).observe(on: MainScheduler.instance).toBlocking(timeout: 30).toArray(), [1, 2, 3])
        // The run loop returns as soon as the answer is known, well before the timeout.
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
    }

    func testMainThread_mainQueueBlocksAreDrained() throws {
        XCTAssertTrue(Thread.isMainThread)
        let source = Observable<Int>.create { observer in
            let box = HandOver(observer)
            DispatchQueue.main.async {
                box.value?.onNext(7)
                DispatchQueue.main.async { box.value?.onCompleted() }
            }
            return Disposables.create()
        }
        XCTAssertEqual(try source.toBlocking(timeout: 30).toArray(), [7])
        let delayed = Observable<Int>.create { observer in
            let box = HandOver(observer)
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(5)) { box.value?.onNext(8) }
            return Disposables.create()
        }
        XCTAssertEqual(try delayed.toBlocking(timeout: 30).first(), 8)
    }

    func testMainThread_insideAMainQueueBlock_backgroundSourceStillReturns() {
        let done = expectation(description: "the block ran")
        let started = Date()
        DispatchQueue.main.async {
            XCTAssertEqual(try? Self.background([1, 2]).toBlocking(timeout: 30).toArray(), [1, 2])
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
    }

    func testMainThread_timeoutWhileRunningTheRunLoop() throws {
        XCTAssertTrue(Thread.isMainThread)
        try XCTAssertNoLeaks {
            var disposed = false
            assertThrows(RxError.timeout, try endless([1]) { disposed = true }.toBlocking(timeout: 0.05).toArray())
            XCTAssertTrue(disposed)
            assertThrows(RxError.timeout, try Observable<Int>.never().toBlocking(timeout: 0.05).first())
        }
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

/// Hands a value to one background block (or to main-queue blocks, which run one at a time),
/// which drops it before signalling that it is done.
private final class HandOver<Value>: @unchecked Sendable {
    // Safety: `value` is set at creation and then only used (and cleared) by the one
    // background block the box is handed to, or by blocks of the serial main queue.
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

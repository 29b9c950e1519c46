import XCTest
import Streams
import StreamsTest

private struct TestError: Error {}

final class DebugTests: XCTestCase {
    /// Captures `debug` output; returns the lines with the timestamp checked and stripped.
    private func capturing(_ body: () -> Void, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let lines = LockedState([String]())
        let previous = DebugOutput.write
        DebugOutput.write = { text in lines.withLock { $0.append(text) } }
        defer { DebugOutput.write = previous }
        body()
        let pattern = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}: (.*)$/
        return lines.withLock { $0 }.map { text in
            guard let match = text.wholeMatch(of: pattern) else {
                XCTFail("no timestamp in \(text)", file: file, line: line)
                return text
            }
            return String(match.1)
        }
    }

    func testDebug_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(250)])
            var res: TestableObserver<Int>?
            let lines = capturing { res = scheduler.start { xs.debug("tag") } }
            XCTAssertEqual(res?.events, [.next(210, 1), .next(220, 2), .completed(250)])
            XCTAssertEqual(lines, ["tag -> subscribed", "tag -> Event next(1)", "tag -> Event next(2)", "tag -> Event completed", "tag -> isDisposed"])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDebug_empty() {
        XCTAssertNoLeaks {
            let lines = capturing { _ = Observable<Int>.empty().debug("e").subscribe() }
            XCTAssertEqual(lines, ["e -> subscribed", "e -> Event completed", "e -> isDisposed"])
        }
    }

    func testDebug_never() {
        XCTAssertNoLeaks {
            var subscription: Disposable?
            let lines = capturing { subscription = Observable<Int>.never().debug("n").subscribe() }
            XCTAssertEqual(lines, ["n -> subscribed"])
            let afterDispose = capturing {
                subscription?.dispose(); subscription?.dispose()
            }
            XCTAssertEqual(afterDispose, ["n -> isDisposed"])
        }
    }

    func testDebug_error() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
            var res: TestableObserver<Int>?
            let lines = capturing { res = scheduler.start { xs.debug("x") } }
            XCTAssertEqual(res?.events, [.next(210, 1), .error(250, TestError())])
            XCTAssertEqual(lines, ["x -> subscribed", "x -> Event next(1)", "x -> Event error(TestError())", "x -> isDisposed"])
        }
    }

    func testDebug_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
            var res: TestableObserver<Int>?
            let lines = capturing { res = scheduler.start(disposed: 250) { xs.debug("d") } }
            XCTAssertEqual(res?.events, [.next(210, 1)])
            XCTAssertEqual(lines, ["d -> subscribed", "d -> Event next(1)", "d -> isDisposed"])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testDebug_defaultIdentifierNamesTheCallSite() {
        XCTAssertNoLeaks {
            let line = #line + 1
            let lines = capturing { _ = Observable.just(1).debug().subscribe() }
            let tag = "DebugTests.swift:\(line) (testDebug_defaultIdentifierNamesTheCallSite())"
            XCTAssertEqual(lines, ["\(tag) -> subscribed", "\(tag) -> Event next(1)", "\(tag) -> Event completed", "\(tag) -> isDisposed"])
        }
    }

    func testDebug_trimOutput() {
        XCTAssertNoLeaks {
            let long = String(repeating: "a", count: 30) + String(repeating: "b", count: 30)
            let trimmed = capturing { _ = Observable.just(long).debug("t", trimOutput: true).subscribe() }
            // "next(" + 60 characters + ")" is 66 characters: first 20 + "..." + last 20.
            XCTAssertEqual(trimmed[1], "t -> Event next(" + String(repeating: "a", count: 15) + "..." + String(repeating: "b", count: 19) + ")")
            let untrimmed = capturing { _ = Observable.just(long).debug("t").subscribe() }
            XCTAssertEqual(untrimmed[1], "t -> Event next(\(long))")
            let short = capturing { _ = Observable.just("short").debug("t", trimOutput: true).subscribe() }
            XCTAssertEqual(short[1], "t -> Event next(short)")
        }
    }

    func testDebug_reentrantEmission() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var seen: [Int] = []
            var subscription: Disposable?
            let lines = capturing {
                subscription = subject.debug("r").subscribe(onNext: { value in
                    seen.append(value)
                    if value == 1 { subject.onNext(2) }
                })
                subject.onNext(1)
            }
            XCTAssertEqual(seen, [1, 2])
            XCTAssertEqual(lines, ["r -> subscribed", "r -> Event next(1)", "r -> Event next(2)"])
            subscription?.dispose()
        }
    }
}

import Testing
import Streams
import StreamsTest

/// StreamsTest from Swift Testing: `#expect` works with recorded events, subscriptions, marbles
/// and blocking operators.
///
/// Swift Testing runs tests in parallel, so these tests never use `XCTAssertNoLeaks` or
/// `Resources.total` (a process-wide counter); each test owns its scheduler.
@Suite struct SwiftTestingUsageTests {
    struct TestError: Error {}

    @Test func recordedEventsCompareWithEquals() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
        let res = scheduler.start { xs.map { $0 * 10 } }
        #expect(res.events == [.next(210, 20), .completed(300)])
        #expect(res.events == Recorded.events(.next(210, 20), .completed(300)))
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func errorsCompareByTypeAndDescription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "a"), .error(20, TestError())])
        let res = scheduler.start { xs.map { $0 + "!" } }
        #expect(res.events == [.next(210, "a!"), .error(220, TestError())])
    }

    @Test func marblesInExpectations() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--x-^-a--b--|", values: ["x": 0, "a": 1, "b": 2])
        let res = scheduler.start { xs.map { $0 * 2 } }
        let values: [Character: Int] = ["A": 2, "B": 4]
        #expect(res.events == (try scheduler.parseEvents("--A--B--|", values: values)))
        #expect(try scheduler.marbles(from: res.events, values: values) == "--A--B--|")
        #expect(Marbles.mismatch(res.events, "--A--B--|", values: values) == nil)
    }

    @Test(arguments: ["--a--|", "-(ab)-|", "a-b-c-#"])
    func coldMarblesReplayRelativeToTheSubscription(marbles: String) throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createColdObservable(marbles)
        let res = scheduler.start { xs.map { $0 } }
        #expect(try scheduler.marbles(from: res.events) == marbles)
    }

    @Test func badMarblesThrowTypedErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(throws: MarbleSyntaxError(.unclosedGroup, marbles: "--(a", position: 2)) {
            try scheduler.createHotObservable("--(a")
        }
    }

    @Test func blockingOperators() throws {
        #expect(try Observable.merge(.just(1), .just(2)).toBlocking().toArray() == [1, 2])
        #expect(try Observable<Int>.empty().toBlocking().first() == nil)
        #expect(throws: RxError.noElements) { try Observable<Int>.empty().toBlocking().single() }
        #expect(throws: RxError.timeout) { try Observable<Int>.never().toBlocking(timeout: 0.01).toArray() }
    }
}

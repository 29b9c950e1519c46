import XCTest
import Streams
import StreamsTest

private struct Boom: Error {}

/// Synchronous sources interleave through the `CurrentThreadScheduler` trampoline exactly as in
/// RxSwift 6.10.2. Every expectation below is RxSwift's output for the same expression, measured
/// by compiling the expression against RxSwift (see Guides/Schedulers.md, "The trampoline").
final class TrampolineOrderingTests: XCTestCase {
    /// The events of one subscription: elements as text, `|` completion, `#` error.
    private func events<Source: ObservableConvertibleType>(_ source: Source, file: StaticString = #filePath, line: UInt = #line) -> String {
        var out: [String] = []
        XCTAssertNoLeaks(file: file, line: line) {
            let subscription = source.asObservable().subscribe { event in
                switch event {
                case .next(let value): out.append("\(value)")
                case .error: out.append("#")
                case .completed: out.append("|")
                }
            }
            subscription.dispose()
        }
        return out.joined(separator: " ")
    }

    func testMerge_interleavesSynchronousSources() {
        XCTAssertEqual(events(Observable.merge(.of(1, 2), .of(3, 4))), "1 3 2 4 |")
        XCTAssertEqual(events(Observable.merge(.just(1), .of(2, 3), .just(4))), "1 4 2 3 |")
        XCTAssertEqual(events(Observable.merge(Observable.merge(.of(1, 2), .of(3, 4)), .of(5, 6))), "1 3 5 2 4 6 |")
        XCTAssertEqual(events(Observable.of(Observable.of(1, 2), Observable.of(3, 4)).merge(maxConcurrent: 1)), "1 2 3 4 |")
    }

    func testCombineLatest_seesEveryIntermediateCombination() {
        XCTAssertEqual(events(Observable.combineLatest(Observable.of(1, 2), Observable.of(10, 20)) { "\($0),\($1)" }), "1,10 2,10 2,20 |")
        XCTAssertEqual(
            events(Observable.combineLatest(Observable.of(1, 2), Observable.of(10, 20), Observable.of(100, 200)) { "\($0),\($1),\($2)" }),
            "1,10,100 2,10,100 2,20,100 2,20,200 |"
        )
        XCTAssertEqual(events(Observable.combineLatest([Observable.of(1, 2), Observable.of(10, 20)]).map { "\($0)" }), "[1, 10] [2, 10] [2, 20] |")
    }

    func testZipAndWithLatestFrom() {
        XCTAssertEqual(events(Observable.zip(Observable.of(1, 2, 3), Observable.of(10, 20)) { "\($0),\($1)" }), "1,10 2,20 |")
        XCTAssertEqual(
            events(Observable.zip(Observable.of(1, 2), Observable.of(10, 20), Observable.of(100, 200)) { "\($0),\($1),\($2)" }), "1,10,100 2,20,200 |")
        XCTAssertEqual(events(Observable.of(1, 2, 3).withLatestFrom(Observable.of(10, 20)) { "\($0),\($1)" }), "1,10 2,20 3,20 |")
    }

    func testFlatMapFamily() {
        XCTAssertEqual(events(Observable.of(1, 2, 3).flatMapLatest { Observable.of($0, $0) }), "1 2 3 3 |")
        XCTAssertEqual(events(Observable.of(1, 2).flatMap { Observable.of($0, $0 * 10) }), "1 10 2 20 |")
        XCTAssertEqual(events(Observable.of(1, 2, 3).flatMap { Observable.just($0) }), "1 2 3 |")
        XCTAssertEqual(events(Observable.of(1, 2, 3).flatMapFirst { Observable.of($0, $0) }), "1 1 |")
        XCTAssertEqual(events(Observable.merge(Observable.of(1, 2).concatMap { Observable.of($0, $0 * 10) }, .of(100, 200))), "100 1 200 10 2 20 |")
        XCTAssertEqual(events(Observable.of(Observable.of(1, 2), Observable.of(3, 4)).switchLatest()), "1 3 4 |")
        XCTAssertEqual(events(Observable.of(1, 2, 3, 4).groupBy { $0 % 2 }.flatMap { group in group.map { "\(group.key):\($0)" } }), "1:1 0:2 1:3 0:4 |")
    }

    func testConcatAndStartWith() {
        XCTAssertEqual(events(Observable.merge(Observable.concat(.of(1, 2), .of(3)), .of(10, 20))), "1 10 2 20 3 |")
        XCTAssertEqual(events(Observable.merge(Observable.of(1, 2).concat(Observable.of(3, 4)), .of(10, 20, 30))), "1 10 2 20 30 3 4 |")
        XCTAssertEqual(events(Observable.merge(Observable.of(1, 2).startWith(0), .of(10, 20))), "0 1 10 2 20 |")
    }

    func testOtherSynchronousSources() {
        XCTAssertEqual(events(Observable.merge(Observable.generate(initialState: 0, condition: { $0 < 3 }, iterate: { $0 + 1 }), .of(10, 20))), "0 10 1 20 2 |")
        XCTAssertEqual(events(Observable.merge(Observable.range(start: 0, count: 3), .of(10, 20))), "0 10 1 20 2 |")
        XCTAssertEqual(events(Observable.merge(Observable<Int>.create { Observable.of(1, 2).subscribe($0) }, .of(10, 20))), "1 10 2 20 |")
        XCTAssertEqual(events(Observable.merge(Observable.deferred { Observable.of(1, 2) }, .of(10, 20))), "1 10 2 20 |")
        XCTAssertEqual(
            events(Observable.merge(Observable.using({ BooleanDisposable() }, observableFactory: { _ in Observable.of(1, 2) }), .of(10, 20))), "1 10 2 20 |")
        let subject = BehaviorSubject(value: 0)
        XCTAssertEqual(events(Observable.merge(subject.take(1), .of(10, 20), subject.take(1))), "0 0 10 20 |")
    }

    func testEndlessSynchronousSourcesStopBelowTake() {
        XCTAssertEqual(events(Observable.from(1...).take(3)), "1 2 3 |")
        XCTAssertEqual(events(Observable.repeatElement(7).take(3)), "7 7 7 |")
        XCTAssertEqual(events(Observable<Int>.create { Observable.from(1...).subscribe($0) }.take(2)), "1 2 |")
    }

    func testErrorHandlingAndAggregates() {
        XCTAssertEqual(events(Observable.merge(Observable<Int>.error(Boom()).catch { _ in .of(1, 2) }, .of(10, 20))), "1 10 2 20 |")
        XCTAssertEqual(events(Observable.merge(Observable.concat(.of(1), .error(Boom())).catchAndReturn(5), .of(10, 20))), "1 10 5 20 |")
        var attempt = 0
        let flaky = Observable<Int>.deferred {
            attempt += 1
            return attempt < 3 ? Observable.concat(.just(attempt), .error(Boom())) : .just(99)
        }
        XCTAssertEqual(events(Observable.merge(flaky.retry(), .of(10, 20))), "1 2 99 10 20 |")
        XCTAssertEqual(events(Observable.merge(Observable.of(1, 2, 3).takeLast(1), .of(10, 20))), "10 20 3 |")
        XCTAssertEqual(events(Observable.merge(Observable.of(1, 2, 3).reduce(0, accumulator: +), .of(10, 20))), "10 20 6 |")
        XCTAssertEqual(events(Observable.merge(Observable.of(1, 2, 3).scan(0, accumulator: +), .of(10, 20))), "1 10 3 20 6 |")
        XCTAssertEqual(events(Observable.merge(Observable.of(1, 1, 2).distinctUntilChanged(), .of(10, 20))), "1 10 20 2 |")
        XCTAssertEqual(events(Observable.merge(Observable.of(1, 2, 3).element(at: 1), .of(10, 20))), "10 2 20 |")
        XCTAssertEqual(events(Observable.merge(Observable.of(5, 6).enumerated().map { $0.index }, .of(10, 20))), "0 10 1 20 |")
    }

    func testSharingAndGating() {
        let replayed = Observable.of(1, 2).share(replay: 1)
        XCTAssertEqual(events(Observable.merge(replayed, replayed)), "1 1 2 2 |")
        let published = Observable.of(1, 2).publish().refCount()
        XCTAssertEqual(events(Observable.merge(published, published)), "1 1 2 2 |")
        XCTAssertEqual(events(Observable.of(1, 2, 3).take(until: Observable.of(0))), "|")
        XCTAssertEqual(events(Observable.of(1, 2, 3).skip(until: Observable.of(0))), "2 3 |")
        XCTAssertEqual(events(Observable.amb([Observable.of(1, 2), Observable.of(3, 4)])), "1 2 |")
    }

    /// The whole chain is subscribed before the first element flows, and every synchronous
    /// element has been delivered when the outermost `subscribe` returns.
    func testSubscribe_deliversEverythingBeforeReturning() {
        var log: [String] = []
        let subscription = Observable.of(1, 2)
            .do(onSubscribe: { log.append("subscribe") }, onSubscribed: { log.append("subscribed") })
            .subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
        log.append("returned")
        subscription.dispose()
        XCTAssertEqual(log, ["subscribe", "subscribed", "next 1", "next 2", "completed", "returned"])
    }

    /// A subscription made from inside an element handler runs after the current step.
    func testNestedSubscribe_runsAfterTheCurrentStep() {
        var log: [String] = []
        _ = Observable.of(1, 2, 3).subscribe(onNext: { value in
            log.append("outer \(value)")
            _ = Observable.of(10, 20).subscribe(onNext: { log.append("inner \($0)") })
        })
        XCTAssertEqual(log, ["outer 1", "inner 10", "outer 2", "inner 20", "inner 10", "outer 3", "inner 20", "inner 10", "inner 20"])
    }

    func testIsScheduleRequired_isFalseInsideASubscription() {
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        var inside: Bool?
        _ = Observable.of(1).subscribe(onNext: { _ in inside = CurrentThreadScheduler.isScheduleRequired })
        XCTAssertEqual(inside, false)
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
    }

    /// Each thread has its own trampoline: a subscription on another thread is not queued
    /// behind this thread's steps.
    func testTrampoline_isPerThread() {
        let fromOtherThread = LockedState([Int]())
        _ = Observable.of(1).subscribe(onNext: { _ in
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                _ = Observable.of(7, 8).subscribe(onNext: { value in fromOtherThread.withLock { $0.append(value) } })
                done.signal()
            }
            done.wait()
        })
        XCTAssertEqual(fromOtherThread.withLock { $0 }, [7, 8])
    }

    /// A switch made from inside an endless synchronous inner sequence stops it (Streams stores
    /// the inner subscription before its elements flow; RxSwift would loop forever here).
    func testFlatMapLatest_switchFromInsideEndlessInnerStopsIt() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            var received: [Int] = []
            let subscription =
                outer
                .flatMapLatest { value -> Observable<Int> in value == 1 ? Observable.from(0...) : .of(200, 201) }
                .subscribe(onNext: { value in
                    received.append(value)
                    if value == 0 { outer.onNext(2) }
                })
            outer.onNext(1)
            XCTAssertEqual(received, [0, 200, 201])
            subscription.dispose()
        }
    }

    /// `take` below `flatMap` stops an endless synchronous inner sequence.
    func testFlatMap_takeStopsEndlessInner() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            var received: [Int] = []
            let subscription = outer.flatMap { _ in Observable.from(0...) }.take(3).subscribe(onNext: { received.append($0) })
            outer.onNext(1)
            XCTAssertEqual(received, [0, 1, 2])
            subscription.dispose()
        }
    }
}

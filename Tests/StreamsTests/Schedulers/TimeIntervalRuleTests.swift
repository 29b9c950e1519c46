import XCTest
import Foundation
import Synchronization
import Streams
import StreamsTest

/// The rule for time intervals (Guides/Schedulers.md#time-intervals) over hostile intervals ×
/// the time operators × a virtual (`TestScheduler`) and a dispatch (`SerialDispatchQueueScheduler`)
/// scheduler: nothing traps, and each interval does what the rule says.
final class TimeIntervalRuleTests: XCTestCase {
    /// What the rule makes of an interval (on a `TestScheduler` with one second per tick).
    enum Meaning {
        /// Negative: now (one tick later on a `TestScheduler`, its processing delay); as a period,
        /// the smallest step (one tick; 1 ns on dispatch).
        case now
        /// `.never`, or beyond the far future: nothing is scheduled.
        case never
        /// Finite and representable, but later than any test looks: `.nanoseconds(Int.max)` is
        /// 9 223 372 037 ticks. On dispatch it saturates `DispatchTime` and means never.
        case late
    }

    struct Hostile: Sendable {
        let name: String
        let interval: RxTimeInterval
        let meaning: Meaning
    }

    static let intervals: [Hostile] = [
        Hostile(name: ".never", interval: .never, meaning: .never),
        Hostile(name: ".seconds(-1)", interval: .seconds(-1), meaning: .now),
        Hostile(name: ".milliseconds(-5)", interval: .milliseconds(-5), meaning: .now),
        Hostile(name: ".seconds(Int.max)", interval: .seconds(Int.max), meaning: .never),
        Hostile(name: ".milliseconds(Int.max)", interval: .milliseconds(Int.max), meaning: .never),
        Hostile(name: ".nanoseconds(Int.max)", interval: .nanoseconds(Int.max), meaning: .late),
        Hostile(name: ".microseconds(Int.min)", interval: .microseconds(Int.min), meaning: .now),
    ]

    /// `.nanoseconds(Int.max)` from time 200, in ticks of one second (9 223 372 036.85 s, rounded).
    private static let lateTick = 200 + 9_223_372_037

    // MARK: Harness

    /// Runs `make` on a fresh `TestScheduler` for every hostile interval and compares the
    /// recording (subscribed at 200, disposed at 1000) with `now` or `never` (`late` behaves as
    /// `never` within the test unless given).
    private func assertVirtual<Element: Equatable>(
        now: [Recorded<Event<Element>>],
        never: [Recorded<Event<Element>>],
        late: [Recorded<Event<Element>>]? = nil,
        file: StaticString = #filePath,
        line: UInt = #line,
        _ make: @escaping (RxTimeInterval, TestScheduler) -> Observable<Element>
    ) {
        for hostile in Self.intervals {
            XCTAssertNoLeaks(hostile.name, file: file, line: line) {
                let scheduler = TestScheduler(initialClock: 0)
                let res = scheduler.start { make(hostile.interval, scheduler) }
                let expected: [Recorded<Event<Element>>]
                switch hostile.meaning {
                case .now: expected = now
                case .never: expected = never
                case .late: expected = late ?? never
                }
                XCTAssertEqual(res.events, expected, hostile.name, file: file, line: line)
                XCTAssertNoPendingWork(scheduler, file: file, line: line)
            }
        }
    }

    /// Subscribes `make` on a serial dispatch scheduler for every hostile interval at once;
    /// waits (bounded) until each has delivered the events the rule promises (`now` for negative
    /// intervals, `never` for the others), then a short while for anything more, which must not
    /// come. Asserts the events and that nothing is left alive after disposal.
    private func assertDispatch<Element: Equatable>(
        now: [Event<Element>],
        never: [Event<Element>],
        file: StaticString = #filePath,
        line: UInt = #line,
        _ make: (RxTimeInterval, SchedulerType) -> Observable<Element>
    ) {
        XCTAssertNoLeaksEventually(file: file, line: line) {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "TimeIntervalRuleTests")
            let expectations = Self.intervals.map { $0.meaning == .now ? now : never }
            let arrived = expectation(description: "promised events")
            arrived.expectedFulfillmentCount = expectations.map(\.count).reduce(0, +) + 1
            arrived.fulfill()  // So that an interval list with no promised events still works.
            let extra = expectation(description: "events beyond the promised ones")
            extra.isInverted = true
            let recorders = expectations.map { IntervalRuleRecorder<Element>(expected: $0.count, arrived: arrived, extra: extra) }
            let subscriptions = zip(Self.intervals, recorders).map { hostile, recorder in
                make(hostile.interval, scheduler).subscribe(recorder)
            }
            wait(for: [arrived], timeout: 10)
            wait(for: [extra], timeout: 0.1)
            subscriptions.forEach { $0.dispose() }
            for ((hostile, recorder), expected) in zip(zip(Self.intervals, recorders), expectations) {
                XCTAssertEqual(recorder.events, expected, hostile.name, file: file, line: line)
            }
        }
    }

    // MARK: Operators on virtual time

    private func hot(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    }

    func testDelay_hostileIntervalsOnVirtualTime() {
        assertVirtual(now: [.next(211, 1), .next(221, 2), .completed(301)], never: []) { interval, scheduler in
            self.hot(scheduler).delay(interval, scheduler: scheduler)
        }
    }

    func testDebounce_hostileIntervalsOnVirtualTime() {
        // Never: no timer fires, completion flushes the last element.
        assertVirtual(now: [.next(211, 1), .next(221, 2), .completed(300)], never: [.next(300, 2), .completed(300)]) { interval, scheduler in
            self.hot(scheduler).debounce(interval, scheduler: scheduler)
        }
    }

    func testThrottle_hostileIntervalsOnVirtualTime() {
        // Never: the first window never ends, so `2` and the completion wait for ever.
        assertVirtual(now: [.next(210, 1), .next(220, 2), .completed(300)], never: [.next(210, 1)]) { interval, scheduler in
            self.hot(scheduler).throttle(interval, scheduler: scheduler)
        }
    }

    func testTimeout_hostileIntervalsOnVirtualTime() {
        assertVirtual(now: [.error(201, RxError.timeout)], never: [.next(210, 1), .next(220, 2), .completed(300)]) { interval, scheduler in
            self.hot(scheduler).timeout(interval, scheduler: scheduler)
        }
    }

    func testTimer_hostileDueTimeOnVirtualTime() {
        assertVirtual(now: [.next(201, 0), .completed(201)], never: []) { interval, scheduler in
            Observable<Int>.timer(interval, scheduler: scheduler)
        }
    }

    func testTimer_hostilePeriodOnVirtualTime() {
        // A non-positive period is one tick; a `.never` (or too large) one emits only `0`.
        assertVirtual(now: [.next(201, 0), .next(202, 1), .next(203, 2), .completed(203)], never: [.next(201, 0)]) { interval, scheduler in
            Observable<Int>.timer(.seconds(1), period: interval, scheduler: scheduler).take(3)
        }
    }

    func testInterval_hostilePeriodOnVirtualTime() {
        assertVirtual(now: [.next(201, 0), .next(202, 1), .next(203, 2), .completed(203)], never: []) { interval, scheduler in
            Observable<Int>.interval(interval, scheduler: scheduler).take(3)
        }
    }

    func testTakeFor_hostileDurationOnVirtualTime() {
        assertVirtual(now: [.completed(201)], never: [.next(210, 1), .next(220, 2), .completed(300)]) { interval, scheduler in
            self.hot(scheduler).take(for: interval, scheduler: scheduler)
        }
    }

    func testSkipTime_hostileDurationOnVirtualTime() {
        assertVirtual(now: [.next(210, 1), .next(220, 2), .completed(300)], never: [.completed(300)]) { interval, scheduler in
            self.hot(scheduler).skip(interval, scheduler: scheduler)
        }
    }

    func testDelaySubscription_hostileDueTimeOnVirtualTime() {
        for hostile in Self.intervals {
            XCTAssertNoLeaks(hostile.name) {
                let scheduler = TestScheduler(initialClock: 0)
                let ys = scheduler.createColdObservable([.next(10, 1), .completed(20)])
                let res = scheduler.start { ys.delaySubscription(hostile.interval, scheduler: scheduler) }
                if hostile.meaning == .now {
                    XCTAssertEqual(res.events, [.next(211, 1), .completed(221)], hostile.name)
                    XCTAssertEqual(ys.subscriptions, [Subscription(201, 221)], hostile.name)
                } else {
                    XCTAssertEqual(res.events, [], hostile.name)
                    XCTAssertEqual(ys.subscriptions, [], hostile.name)
                }
                XCTAssertNoPendingWork(scheduler)
            }
        }
    }

    func testBuffer_hostileTimeSpanOnVirtualTime() {
        // A non-positive time span is one tick, so an (empty) buffer per tick.
        assertVirtual(now: [.next(201, []), .next(202, []), .next(203, []), .completed(203)], never: [.next(300, [1, 2]), .completed(300)]) {
            interval, scheduler in
            self.hot(scheduler).buffer(timeSpan: interval, count: 10, scheduler: scheduler).take(3)
        }
    }

    func testWindow_hostileTimeSpanOnVirtualTime() {
        // One element per window opened; the first opens on subscription.
        assertVirtual(now: [.next(200, 0), .next(201, 1), .next(202, 2), .completed(202)], never: [.next(200, 0), .completed(300)]) { interval, scheduler in
            let opened = ThreadSafeTestBox(0)
            return self.hot(scheduler).window(timeSpan: interval, count: 10, scheduler: scheduler).take(3)
                .map { _ in
                    opened.mutate { count in
                        defer { count += 1 }; return count
                    }
                }
        }
    }

    func testTimer_lateButRepresentableDueTimeFiresAtItsTick() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(created: 100, subscribed: 200, disposed: Int.max) {
                Observable<Int>.timer(.nanoseconds(Int.max), scheduler: scheduler)
            }
            XCTAssertEqual(res.events, [.next(Self.lateTick, 0), .completed(Self.lateTick)])
        }
    }

    func testDelay_remainingDelayBeyondInt64NanosecondsDoesNotTrap() {
        // The second element is due 10^10 s after the first is delivered: more nanoseconds than
        // Int64 holds, so the remaining delay must be built from seconds.
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(10_000_000_210, 2)])
            let res = scheduler.start(created: 100, subscribed: 200, disposed: 40_000_000_000) {
                xs.delay(.seconds(20_000_000_000), scheduler: scheduler)
            }
            XCTAssertEqual(res.events, [.next(20_000_000_210, 1), .next(30_000_000_210, 2)])
        }
    }

    // MARK: Schedulers on virtual time

    func testScheduleRelative_hostileIntervalsOnTestScheduler() {
        for hostile in Self.intervals {
            let scheduler = TestScheduler(initialClock: 200)
            let ranAt = ThreadSafeTestBox([Int]())
            _ = scheduler.scheduleRelative((), dueTime: hostile.interval) { _ in
                ranAt.mutate { $0.append(scheduler.clock) }
                return Disposables.create()
            }
            XCTAssertEqual(scheduler.pendingCount, hostile.meaning == .never ? 0 : 1, hostile.name)
            scheduler.start()
            switch hostile.meaning {
            case .now: XCTAssertEqual(ranAt.value, [201], hostile.name)
            case .never:
                XCTAssertEqual(ranAt.value, [], hostile.name)
                XCTAssertEqual(scheduler.clock, 200, hostile.name)
            case .late: XCTAssertEqual(ranAt.value, [Self.lateTick], hostile.name)
            }
        }
    }

    func testScheduleRelative_hostileIntervalsOnHistoricalScheduler() {
        let start = Date(timeIntervalSince1970: 0)
        for hostile in Self.intervals {
            let scheduler = HistoricalScheduler(initialClock: start)
            let ranAt = ThreadSafeTestBox([Date]())
            _ = scheduler.scheduleRelative((), dueTime: hostile.interval) { _ in
                ranAt.mutate { $0.append(scheduler.now) }
                return Disposables.create()
            }
            scheduler.start()
            switch hostile.meaning {
            case .now: XCTAssertEqual(ranAt.value, [start], hostile.name)
            case .never: XCTAssertEqual(ranAt.value, [], hostile.name)
            case .late: XCTAssertEqual(ranAt.value, [start.addingTimeInterval(Double(Int.max) / 1e9)], hostile.name)
            }
        }
    }

    func testSchedulePeriodic_nonPositivePeriodWithoutProcessingDelayAdvancesOneTick() {
        // Without the processing delay, a zero period used to run again at the same tick for ever.
        for period: RxTimeInterval in [.seconds(0), .seconds(-1), .microseconds(Int.min), .nanoseconds(1)] {
            XCTAssertNoLeaks("\(period)") {
                let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
                let res = scheduler.start { Observable<Int>.interval(period, scheduler: scheduler).take(3) }
                XCTAssertEqual(res.events, [.next(200, 0), .next(201, 1), .next(202, 2), .completed(202)], "\(period)")
            }
        }
    }

    func testSchedulePeriodic_zeroPeriodOnHistoricalSchedulerMovesTheClock() {
        XCTAssertNoLeaks {
            let start = Date(timeIntervalSince1970: 0)
            let scheduler = HistoricalScheduler(initialClock: start)
            let times = ThreadSafeTestBox([Date]())
            let subscription = Observable<Int>.interval(.seconds(0), scheduler: scheduler).take(3)
                .subscribe(onNext: { _ in times.mutate { $0.append(scheduler.now) } })
            scheduler.start()
            subscription.dispose()
            XCTAssertEqual(times.value.count, 3)
            XCTAssertEqual(times.value.first, start)
            XCTAssertEqual(times.value, times.value.sorted())
            XCTAssertEqual(Set(times.value).count, 3, "each run is later than the previous one")
            XCTAssertLessThan(times.value.last!.timeIntervalSince(start), 1e-6, "the step is the precision of a Date, not a long period")
        }
    }

    func testSchedulePeriodic_neverPeriodRunsOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let runs = ThreadSafeTestBox([Int]())
        let subscription = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .never) { count in
            runs.mutate { $0.append(scheduler.clock) }
            return count + 1
        }
        scheduler.start()
        XCTAssertEqual(runs.value, [10])
        XCTAssertNoPendingWork(scheduler)
        subscription.dispose()
    }

    func testSchedulePeriodic_stopsInsteadOfReachingTheFarFuture() {
        // 10^9 s per tick: `Date.distantFuture` (6.4 * 10^10 s after 1970) is tick 64, so a period
        // of 10 ticks runs up to tick 60 and then ends; `start()` returns.
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0, resolution: 1e9)
            let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
                Observable<Int>.interval(.seconds(10_000_000_000), scheduler: scheduler)
            }
            XCTAssertEqual(res.events, [.next(10, 0), .next(20, 1), .next(30, 2), .next(40, 3), .next(50, 4), .next(60, 5)])
        }
    }

    func testTestScheduler_clockAtIntMaxDoesNotTrap() {
        XCTAssertNoLeaks {
            // The processing delay cannot be added to Int.max: work due now runs at Int.max.
            let scheduler = TestScheduler(initialClock: Int.max)
            let just = scheduler.createObserver(Int.self)
            let delayed = scheduler.createObserver(Int.self)
            let timer = scheduler.createObserver(Int.self)
            let interval = scheduler.createObserver(Int.self)
            let subscriptions = [
                Observable.just(1, scheduler: scheduler).subscribe(just),
                Observable.just(2).delay(.seconds(-1), scheduler: scheduler).subscribe(delayed),
                Observable<Int>.timer(.seconds(1), scheduler: scheduler).subscribe(timer),
                Observable<Int>.interval(.seconds(0), scheduler: scheduler).subscribe(interval),
            ]
            scheduler.start()
            XCTAssertEqual(just.events, [.next(Int.max, 1), .completed(Int.max)])
            XCTAssertEqual(delayed.events, [.next(Int.max, 2), .completed(Int.max)])
            // Due after the far future: never.
            XCTAssertEqual(timer.events, [])
            // The first run is due now; the clock cannot step past Int.max, so the schedule ends.
            XCTAssertEqual(interval.events, [.next(Int.max, 0)])
            XCTAssertEqual(scheduler.clock, Int.max)
            XCTAssertNoPendingWork(scheduler)
            subscriptions.forEach { $0.dispose() }
        }
    }

    func testTestSchedulerConverter_saturatesInTheDirectionOfTheOffset() {
        let converter = TestSchedulerVirtualTimeConverter(resolution: 1)
        XCTAssertEqual(converter.offsetVirtualTime(Int.max, offset: 1), Int.max)
        XCTAssertEqual(converter.offsetVirtualTime(Int.min, offset: -1), Int.min)
        XCTAssertEqual(converter.offsetVirtualTime(-5, offset: Int.min), Int.min)
        XCTAssertEqual(converter.convertToVirtualTimeInterval(.infinity), Int.max)
        XCTAssertEqual(converter.convertToVirtualTimeInterval(-.infinity), Int.min)
        XCTAssertEqual(converter.convertToVirtualTime(.distantFuture), 64_092_211_200)
    }

    // MARK: Operators on a dispatch scheduler

    func testDelay_hostileIntervalsOnDispatch() {
        assertDispatch(now: [.next(1), .next(2), .completed], never: []) { interval, scheduler in
            Observable.of(1, 2).delay(interval, scheduler: scheduler)
        }
    }

    func testDebounce_hostileIntervalsOnDispatch() {
        assertDispatch(now: [.next(1), .completed], never: []) { interval, scheduler in
            Observable<Int>.never().startWith(1).debounce(interval, scheduler: scheduler).take(1)
        }
    }

    func testThrottle_hostileIntervalsOnDispatch() {
        assertDispatch(now: [.next(1), .next(2), .completed], never: [.next(1)]) { interval, scheduler in
            Observable.of(1, 2).throttle(interval, scheduler: scheduler)
        }
    }

    func testTimeout_hostileIntervalsOnDispatch() {
        assertDispatch(now: [.error(RxError.timeout)], never: []) { interval, scheduler in
            Observable<Int>.never().timeout(interval, scheduler: scheduler)
        }
    }

    func testTimer_hostileDueTimeOnDispatch() {
        assertDispatch(now: [.next(0), .completed], never: []) { interval, scheduler in
            Observable<Int>.timer(interval, scheduler: scheduler)
        }
    }

    func testTimer_hostilePeriodOnDispatch() {
        assertDispatch(now: [.next(0), .next(1), .next(2), .completed], never: [.next(0)]) { interval, scheduler in
            Observable<Int>.timer(.seconds(0), period: interval, scheduler: scheduler).take(3)
        }
    }

    func testInterval_hostilePeriodOnDispatch() {
        // The tester's report: `interval(.seconds(-1))` died in the dispatch timer.
        assertDispatch(now: [.next(0), .next(1), .next(2), .completed], never: []) { interval, scheduler in
            Observable<Int>.interval(interval, scheduler: scheduler).take(3)
        }
    }

    func testTakeFor_hostileDurationOnDispatch() {
        assertDispatch(now: [.completed], never: []) { interval, scheduler in
            Observable<Int>.never().take(for: interval, scheduler: scheduler)
        }
    }

    func testSkipTime_hostileDurationOnDispatch() {
        // The source emits 50 ms after subscription, on the same queue: after the skip window
        // of a negative duration (due now) has closed, and never after one that never closes.
        assertDispatch(now: [.next(0), .completed], never: [.completed]) { interval, scheduler in
            Observable<Int>.timer(.milliseconds(50), scheduler: scheduler).skip(interval, scheduler: scheduler)
        }
    }

    func testDelaySubscription_hostileDueTimeOnDispatch() {
        assertDispatch(now: [.next(1), .completed], never: []) { interval, scheduler in
            Observable.just(1).delaySubscription(interval, scheduler: scheduler)
        }
    }

    func testBuffer_hostileTimeSpanOnDispatch() {
        assertDispatch(now: [.next([]), .next([]), .next([]), .completed], never: []) { interval, scheduler in
            Observable<Int>.never().buffer(timeSpan: interval, count: 10, scheduler: scheduler).take(3)
        }
    }

    func testWindow_hostileTimeSpanOnDispatch() {
        // The first window opens on subscription; with a never-ending time span no other opens.
        assertDispatch(now: [.next(1), .next(1), .next(1), .completed], never: [.next(1)]) { interval, scheduler in
            Observable<Int>.never().window(timeSpan: interval, count: 10, scheduler: scheduler).take(3).map { _ in 1 }
        }
    }

    // MARK: Schedulers on dispatch

    func testDispatchSchedulers_negativeLeewayDoesNotTrap() {
        XCTAssertNoLeaksEventually {
            let schedulers: [SchedulerType] = [
                SerialDispatchQueueScheduler(internalSerialQueueName: "TimeIntervalRuleTests.leeway", leeway: .seconds(-1)),
                ConcurrentDispatchQueueScheduler(qos: .default, leeway: .microseconds(Int.min)),
            ]
            for scheduler in schedulers {
                let ran = expectation(description: "relative and periodic work ran")
                ran.expectedFulfillmentCount = 2
                let once = scheduler.scheduleRelative((), dueTime: .nanoseconds(0)) { _ in
                    ran.fulfill()
                    return Disposables.create()
                }
                let periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(-1), period: .seconds(-1)) { count in
                    if count == 0 { ran.fulfill() }
                    return count + 1
                }
                wait(for: [ran], timeout: 10)
                once.dispose()
                periodic.dispose()
            }
        }
    }

    func testMainSchedulers_followTheRule() {
        // `wait(for:)` on the main thread drains the main queue.
        XCTAssertNoLeaksEventually {
            for scheduler: SchedulerType in [MainScheduler.instance, ConcurrentMainScheduler.instance] {
                let finished = expectation(description: "negative period ticks")
                let ticks = ThreadSafeTestBox([Int]())
                let running = Observable<Int>.interval(.seconds(-1), scheduler: scheduler).take(3)
                    .subscribe(onNext: { value in ticks.mutate { $0.append(value) } }, onCompleted: { finished.fulfill() })
                let stray = expectation(description: "a never timer fires")
                stray.isInverted = true
                let silent = [
                    scheduler.scheduleRelative((), dueTime: .never) { _ in
                        stray.fulfill(); return Disposables.create()
                    },
                    scheduler.scheduleRelative((), dueTime: .seconds(Int.max)) { _ in
                        stray.fulfill(); return Disposables.create()
                    },
                    scheduler.schedulePeriodic((), startAfter: .never, period: .seconds(-1)) { _ in stray.fulfill() },
                ]
                wait(for: [finished], timeout: 10)
                wait(for: [stray], timeout: 0.05)
                XCTAssertEqual(ticks.value, [0, 1, 2])
                running.dispose()
                silent.forEach { $0.dispose() }
            }
        }
    }
}

/// Records events from any thread; fulfills `arrived` for each of the first `expected` events
/// and `extra` for any later one.
private final class IntervalRuleRecorder<Element>: ObserverType, @unchecked Sendable {
    // Safety: `recorded` is guarded by its lock; the expectations are thread-safe.
    private let recorded = LockedState([Event<Element>]())
    private let expected: Int
    private let arrived: XCTestExpectation
    private let extra: XCTestExpectation

    init(expected: Int, arrived: XCTestExpectation, extra: XCTestExpectation) {
        self.expected = expected
        self.arrived = arrived
        self.extra = extra
    }

    func on(_ event: Event<Element>) {
        let count = recorded.withLock { events -> Int in
            events.append(event)
            return events.count
        }
        if count <= expected { arrived.fulfill() } else { extra.fulfill() }
    }

    var events: [Event<Element>] { recorded.withLock { $0 } }
}

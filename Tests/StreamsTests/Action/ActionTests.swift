import XCTest
import Streams
import StreamsTest

final class ActionTests: XCTestCase {
    struct WorkError: Error, Equatable {}

    private func record<T>(_ source: Observable<T>, _ scheduler: TestScheduler, _ bag: DisposeBag) -> TestableObserver<T> {
        let observer = scheduler.createObserver(T.self)
        source.subscribe(observer).disposed(by: bag)
        return observer
    }

    func testAction_enabledIsTrueFromFirstSubscription() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let bag = DisposeBag()
            let action = Action<Int, Int> { Observable.just($0) }
            let enabled = record(action.enabled, scheduler, bag)
            XCTAssertEqual(enabled.events, [.next(0, true)])
        }
    }

    func testAction_executeDeliversElementsAndExecutingTransitions() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let bag = DisposeBag()
            let work = scheduler.createColdObservable([.next(10, "a"), .next(20, "b"), .completed(30)])
            let action = Action<Void, String> { work.asObservable() }
            let elements = record(action.elements, scheduler, bag)
            let executing = record(action.executing, scheduler, bag)
            let enabled = record(action.enabled, scheduler, bag)
            let result = scheduler.createObserver(String.self)
            scheduler.scheduleAt(100) { action.execute().subscribe(result).disposed(by: bag) }
            scheduler.start()
            XCTAssertEqual(elements.events, [.next(110, "a"), .next(120, "b")])
            XCTAssertEqual(executing.events, [.next(0, false), .next(100, true), .next(130, false)])
            XCTAssertEqual(enabled.events, [.next(0, true), .next(100, false), .next(130, true)])
            XCTAssertEqual(result.events, [.next(110, "a"), .next(120, "b"), .completed(130)])
            XCTAssertEqual(work.subscriptions, [Subscription(100, 130)])
        }
    }

    func testActionError_localizedDescriptionAndDescription() {
        struct Described: LocalizedError { var errorDescription: String? { "The work failed." } }
        // Upstream's ActionError is a plain `Error`: Foundation's generic text, which names the
        // module ("… (Action.ActionError error 1.)"). Streams gives readable messages instead
        // (see Guides/Action.md).
        XCTAssertEqual(ActionError.notEnabled.localizedDescription, "The action is not enabled.")
        XCTAssertEqual(ActionError.underlyingError(Described()).localizedDescription, "The work failed.")
        XCTAssertEqual(ActionError.underlyingError(WorkError()).localizedDescription, "WorkError()")
        XCTAssertEqual((ActionError.notEnabled as NSError).localizedDescription, "The action is not enabled.")
        let thrown: Error = ActionError.underlyingError(Described())
        XCTAssertEqual(thrown.localizedDescription, "The work failed.")
        XCTAssertEqual("\(ActionError.notEnabled)", "ActionError.notEnabled")
        XCTAssertEqual("\(ActionError.underlyingError(WorkError()))", "ActionError.underlyingError(WorkError())")
    }

    func testAction_executeWhileExecutingFailsWithNotEnabled() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let bag = DisposeBag()
            let work = scheduler.createColdObservable([.next(10, 1), .completed(50)])
            let action = Action<Void, Int> { work.asObservable() }
            let errors = record(action.errors.map { "\($0)" }, scheduler, bag)
            let second = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { action.execute() }
            scheduler.scheduleAt(120) { action.execute().subscribe(second).disposed(by: bag) }
            scheduler.scheduleAt(200) { action.execute() }
            scheduler.start()
            XCTAssertEqual(errors.events, [.next(120, "ActionError.notEnabled")])
            XCTAssertEqual(second.events, [.error(120, ActionError.notEnabled)])
            XCTAssertEqual(work.subscriptions, [Subscription(100, 150), Subscription(200, 250)])
        }
    }

    func testAction_enabledIfControlsExecution() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let bag = DisposeBag()
            let gate = scheduler.createHotObservable([.next(150, true), .next(300, false)])
            let action = Action<Int, Int>(enabledIf: gate.asObservable()) { Observable.just($0 * 2) }
            let enabled = record(action.enabled, scheduler, bag)
            let elements = record(action.elements, scheduler, bag)
            let errors = record(action.errors.map { "\($0)" }, scheduler, bag)
            scheduler.scheduleAt(100) { action.execute(1) }
            scheduler.scheduleAt(200) { action.execute(2) }
            scheduler.scheduleAt(400) { action.execute(3) }
            scheduler.start()
            XCTAssertEqual(enabled.events, [.next(0, false), .next(150, true), .next(200, false), .next(200, true), .next(300, false)])
            XCTAssertEqual(elements.events, [.next(200, 4)])
            XCTAssertEqual(errors.events, [.next(100, "ActionError.notEnabled"), .next(400, "ActionError.notEnabled")])
        }
    }

    func testAction_workErrorIsReportedAndActionRecovers() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let bag = DisposeBag()
            let work = scheduler.createColdObservable([.next(10, 1), .error(20, WorkError())])
            let action = Action<Void, Int> { work.asObservable() }
            let underlying = record(action.underlyingError.map { $0 as? WorkError }, scheduler, bag)
            let executing = record(action.executing, scheduler, bag)
            let result = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(100) { action.execute().subscribe(result).disposed(by: bag) }
            scheduler.start()
            XCTAssertEqual(underlying.events, [.next(120, WorkError())])
            XCTAssertEqual(executing.events, [.next(0, false), .next(100, true), .next(120, false)])
            XCTAssertEqual(result.events, [.next(110, 1), .error(120, ActionError.underlyingError(WorkError()))])
        }
    }

    func testAction_errorsHandlerCanRetry() {
        XCTAssertNoLeaks {
            let bag = DisposeBag()
            var attempts = 0
            let action = Action<Void, Int> { _ in
                attempts += 1
                return attempts < 3 ? Observable.error(WorkError()) : Observable.just(attempts)
            }
            var results: [Int] = []
            action.elements.subscribe(onNext: { results.append($0) }).disposed(by: bag)
            action.underlyingError.subscribe(onNext: { _ in action.execute() }).disposed(by: bag)
            action.execute()
            XCTAssertEqual(results, [3])
            XCTAssertEqual(attempts, 3)
        }
    }

    func testAction_inputsExecuteAndTerminalEventsAreIgnored() {
        XCTAssertNoLeaks {
            let bag = DisposeBag()
            let action = Action<Int, Int> { Observable.just($0 + 1) }
            var results: [Int] = []
            action.elements.subscribe(onNext: { results.append($0) }).disposed(by: bag)
            action.inputs.onNext(1)
            action.inputs.onNext(2)
            action.inputs.onCompleted()
            action.inputs.onNext(3)
            XCTAssertEqual(results, [2, 3, 4])
        }
    }

    func testAction_executeResultReplaysToLateSubscribers() {
        XCTAssertNoLeaks {
            let action = Action<Int, Int> { Observable.just($0) }
            let result = action.execute(7)
            var seen: [Event<Int>] = []
            _ = result.subscribe { seen.append($0) }
            XCTAssertEqual(seen, [.next(7), .completed])
        }
    }

    func testAction_manyExecutionsHoldNoResources() {
        XCTAssertNoLeaks {
            let action = Action<Int, Int> { Observable.just($0) }
            let baseline = Resources.total
            for i in 0..<1_000 { action.execute(i) }
            XCTAssertEqual(Resources.total, baseline)
        }
    }

    func testAction_executionObservablesEmitsEachExecution() {
        XCTAssertNoLeaks {
            let bag = DisposeBag()
            let action = Action<Int, Int> { Observable.just($0) }
            var executions: [[Int]] = []
            action.executionObservables.subscribe(onNext: { execution in
                var values: [Int] = []
                _ = execution.subscribe(onNext: { values.append($0) }, onCompleted: { executions.append(values) })
            }).disposed(by: bag)
            action.execute(1)
            action.execute(2)
            XCTAssertEqual(executions, [[1], [2]])
        }
    }

    func testCompletableAction_completionsFirePerSuccess() {
        XCTAssertNoLeaks {
            let bag = DisposeBag()
            let action = CompletableAction<Bool> { ok in ok ? Observable<Never>.empty() : Observable<Never>.error(WorkError()) }
            var completions = 0
            var failures = 0
            action.completions.subscribe(onNext: { completions += 1 }).disposed(by: bag)
            action.underlyingError.subscribe(onNext: { _ in failures += 1 }).disposed(by: bag)
            action.execute(true)
            action.execute(false)
            action.execute(true)
            XCTAssertEqual(completions, 2)
            XCTAssertEqual(failures, 1)
        }
    }

    func testAction_enabledIfErrorDisablesAndReports() {
        XCTAssertNoLeaks {
            let bag = DisposeBag()
            let gate = PublishSubject<Bool>()
            let action = Action<Void, Int>(enabledIf: gate.asObservable()) { Observable.just(1) }
            var enabled: [Bool] = []
            var errors: [String] = []
            action.enabled.subscribe(onNext: { enabled.append($0) }).disposed(by: bag)
            action.errors.subscribe(onNext: { errors.append("\($0)") }).disposed(by: bag)
            gate.onNext(true)
            gate.onError(WorkError())
            action.execute()
            XCTAssertEqual(enabled, [false, true, false])
            XCTAssertEqual(errors, ["ActionError.underlyingError(WorkError())", "ActionError.notEnabled"])
        }
    }

    func testAction_deallocatingDisposesRunningExecution() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let work = scheduler.createColdObservable([.next(10, 1), .completed(500)])
            var action: Action<Void, Int>? = Action { work.asObservable() }
            scheduler.scheduleAt(100) { action?.execute() }
            scheduler.scheduleAt(200) { action = nil }
            scheduler.start()
            XCTAssertEqual(work.subscriptions, [Subscription(100, 200)])
        }
    }
}

final class ActionConcurrencyTests: XCTestCase {
    func testAction_executingAlternatesWhenExecutionsStartAndEndOnDifferentThreads() {
        // Work finishes on dispatch threads, which release their closures a moment later.
        XCTAssertNoLeaksEventually {
            let bag = DisposeBag()
            let background = ConcurrentDispatchQueueScheduler(qos: .default)
            let action = Action<Int, Int> { value in
                Observable.just(value).subscribe(on: background)
            }
            let lock = NSLock()
            var executing: [Bool] = []
            var outcomes = 0
            let calls = 400
            let done = expectation(description: "every call answered")
            action.executing.subscribe(onNext: { value in
                lock.lock(); executing.append(value); lock.unlock()
            }).disposed(by: bag)
            func answered() {
                lock.lock(); outcomes += 1; let finished = outcomes == calls; lock.unlock()
                if finished { done.fulfill() }
            }
            action.elements.subscribe(onNext: { _ in answered() }).disposed(by: bag)
            action.errors.subscribe(onNext: { _ in answered() }).disposed(by: bag)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for i in 0..<(calls / 4) { action.execute(thread * 1_000 + i) }
            }
            wait(for: [done], timeout: 30)
            // Let the last execution's `false` arrive.
            let settled = expectation(description: "idle")
            action.executing.filter { !$0 }.take(1).subscribe(onNext: { _ in settled.fulfill() }).disposed(by: bag)
            wait(for: [settled], timeout: 30)
            lock.lock(); let seen = executing; lock.unlock()
            XCTAssertEqual(seen.first, false)
            for (index, value) in seen.enumerated() {
                XCTAssertEqual(value, index % 2 == 1, "executing must alternate; broke at \(index): \(seen.prefix(index + 1).suffix(4))")
                if value != (index % 2 == 1) { break }
            }
            XCTAssertEqual(seen.last, false)
        }
    }
}

extension ActionConcurrencyTests {
    /// An execution ends on thread A; while A is still publishing `executing == false`, thread B
    /// starts the next execution. B's `true` must not overtake A's `false`.
    func testAction_nextExecutionsTrueNeverOvertakesPreviousFalse() {
        // Thread A's closure (holding the work subject) is released a moment after it finishes.
        XCTAssertNoLeaksEventually {
            let bag = DisposeBag()
            let work = PublishSubject<Int>()
            let action = Action<Void, Int> { work.take(1) }
            let inFalse = DispatchSemaphore(value: 0)
            let proceed = DispatchSemaphore(value: 0)
            let lock = NSLock()
            var falses = 0
            // Subscribed first: blocks thread A inside the publication of the first execution's end.
            action.executing.subscribe(onNext: { value in
                guard !value else { return }
                lock.lock(); falses += 1; let isEndOfFirst = falses == 2; lock.unlock()
                if isEndOfFirst {
                    inFalse.signal()
                    _ = proceed.wait(timeout: .now() + 10)
                }
            }).disposed(by: bag)
            var recorded: [Bool] = []
            action.executing.subscribe(onNext: { value in
                lock.lock(); recorded.append(value); lock.unlock()
            }).disposed(by: bag)

            action.execute()
            let finished = expectation(description: "thread A done")
            DispatchQueue.global().async {
                work.onNext(1)  // thread A ends the first execution
                finished.fulfill()
            }
            XCTAssertEqual(inFalse.wait(timeout: .now() + 10), .success)
            action.execute()  // thread B starts the next one while A is publishing
            proceed.signal()
            wait(for: [finished], timeout: 10)
            lock.lock(); let seen = recorded; lock.unlock()
            XCTAssertEqual(seen, [false, true, false, true])
            work.onNext(2)
        }
    }
}

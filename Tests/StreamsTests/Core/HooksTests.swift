import XCTest
import Streams
import StreamsTest

private struct HookError: Error, Equatable {
    var code = 0
}

/// The global hooks as they were before a test, put back afterwards.
private struct SavedHooks {
    let defaultErrorHandler = Hooks.defaultErrorHandler
    let capture = Hooks.customCaptureSubscriptionCallstack
    let record = Hooks.recordCallStackOnError
    let unhandledError = Hooks.unhandledError

    func restore() {
        Hooks.defaultErrorHandler = defaultErrorHandler
        Hooks.customCaptureSubscriptionCallstack = capture
        Hooks.recordCallStackOnError = record
        Hooks.unhandledError = unhandledError
    }
}

final class HooksTests: XCTestCase {
    private var saved: SavedHooks?
    /// Every `(callStack, error)` the test's `defaultErrorHandler` received.
    private var reported: [(callStack: [String], error: HookError)] = []

    override func setUp() {
        super.setUp()
        saved = SavedHooks()
        reported = []
        Hooks.defaultErrorHandler = { [unowned self] callStack, error in
            reported.append((callStack, error as! HookError))
        }
    }

    override func tearDown() {
        saved?.restore()
        super.tearDown()
    }

    private var reportedErrors: [HookError] { reported.map(\.error) }
    private var reportedCallStacks: [[String]] { reported.map(\.callStack) }

    // MARK: - Observable.subscribe(onNext:onError:onCompleted:onDisposed:)

    func testDefaultErrorHandler_receivesAnErrorWithoutOnError() {
        XCTAssertNoLeaks {
            _ = Observable<Int>.error(HookError(code: 1)).subscribe()
            _ = Observable<Int>.error(HookError(code: 2)).subscribe(onNext: { _ in }, onCompleted: {}, onDisposed: {})
        }
        XCTAssertEqual(reportedErrors, [HookError(code: 1), HookError(code: 2)])
        XCTAssertEqual(reportedCallStacks, [[], []])
    }

    func testDefaultErrorHandler_notCalledWithOnErrorOrWithoutError() {
        var handled: [HookError] = []
        _ = Observable<Int>.error(HookError(code: 1)).subscribe(onError: { handled.append($0 as! HookError) })
        _ = Observable.of(1, 2).subscribe()
        XCTAssertEqual(handled, [HookError(code: 1)])
        XCTAssertEqual(reportedErrors, [])
    }

    func testDefaultErrorHandler_capturingALocalVar() {
        // The RxSwift way of using the hook: a closure that mutates a captured local `var`.
        var logged: [HookError] = []
        Hooks.defaultErrorHandler = { _, error in logged.append(error as! HookError) }
        _ = Observable<Int>.error(HookError(code: 3)).subscribe()
        XCTAssertEqual(logged, [HookError(code: 3)])
    }

    func testDefaultErrorHandler_calledOnceAfterTheErrorThenDisposes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, HookError(code: 4)), .error(230, HookError(code: 5))])
        var disposedAt: [TestTime] = []
        var elements: [Int] = []
        _ = xs.subscribe(onNext: { elements.append($0) }, onDisposed: { disposedAt.append(scheduler.clock) })
        scheduler.start()
        XCTAssertEqual(elements, [1])
        XCTAssertEqual(reportedErrors, [HookError(code: 4)])
        XCTAssertEqual(disposedAt, [220])
    }

    func testCallStack_emptyUnlessRecording() {
        var captures = 0
        Hooks.customCaptureSubscriptionCallstack = {
            captures += 1; return ["frame1"]
        }
        Hooks.recordCallStackOnError = false
        _ = Observable<Int>.error(HookError()).subscribe()
        XCTAssertEqual(reportedCallStacks, [[]])
        XCTAssertEqual(captures, 0)
    }

    func testCallStack_capturedAtSubscriptionWhenRecording() {
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["subscribed"] }
        let subject = PublishSubject<Int>()
        let subscription = subject.subscribe()
        Hooks.customCaptureSubscriptionCallstack = { ["failed"] }
        subject.onError(HookError(code: 6))
        subscription.dispose()
        XCTAssertEqual(reportedErrors, [HookError(code: 6)])
        XCTAssertEqual(reportedCallStacks, [["subscribed"]])
    }

    func testCallStack_notCapturedWhenAnErrorHandlerIsGiven() {
        var captures = 0
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = {
            captures += 1; return ["frame1"]
        }
        _ = Observable<Int>.error(HookError()).subscribe(onError: { _ in })
        _ = Single<Int>.error(HookError()).subscribe(onFailure: { _ in })
        _ = Maybe<Int>.error(HookError()).subscribe(onError: { _ in })
        _ = Completable.error(HookError()).subscribe(onError: { _ in })
        XCTAssertEqual(captures, 0)
        XCTAssertEqual(reportedErrors, [])
    }

    func testRecordCallStackOnError_defaultsToFalseAndIsSettable() {
        saved?.restore()
        XCTAssertFalse(Hooks.recordCallStackOnError, "the default (or a test that did not restore it)")
        Hooks.recordCallStackOnError = true
        XCTAssertTrue(Hooks.recordCallStackOnError)
    }

    func testDefaultCapture_symbolsInDebugBuilds() {
        saved?.restore()
        let stack = Hooks.customCaptureSubscriptionCallstack()
        #if DEBUG
        XCTAssertFalse(stack.isEmpty)
        #else
        XCTAssertEqual(stack, [])
        #endif
    }

    // MARK: - The default route: defaultErrorHandler -> unhandledError

    func testDefaultHandler_passesTheErrorToUnhandledError() {
        saved?.restore()
        let received = LockedState([HookError]())
        Hooks.unhandledError = { error in received.withLock { $0.append(error as! HookError) } }
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["frame1", "frame2"] }
        _ = Observable<Int>.error(HookError(code: 7)).subscribe()
        _ = Single<Int>.error(HookError(code: 8)).subscribe()
        XCTAssertEqual(received.withLock { $0 }, [HookError(code: 7), HookError(code: 8)])
    }

    func testReplacedDefaultHandler_bypassesUnhandledError() {
        let received = LockedState(0)
        Hooks.unhandledError = { _ in received.withLock { $0 += 1 } }
        _ = Observable<Int>.error(HookError()).subscribe()
        XCTAssertEqual(received.withLock { $0 }, 0)
        XCTAssertEqual(reportedErrors, [HookError()])
    }

    // MARK: - Traits

    func testSingle_errorWithoutOnFailure() {
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["single"] }
        var disposed = 0
        XCTAssertNoLeaks {
            _ = Single<Int>.error(HookError(code: 9)).subscribe(onSuccess: { _ in XCTFail("no success") }, onDisposed: { disposed += 1 })
        }
        XCTAssertEqual(reportedErrors, [HookError(code: 9)])
        XCTAssertEqual(reportedCallStacks, [["single"]])
        XCTAssertEqual(disposed, 1)
    }

    func testMaybe_errorWithoutOnError() {
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["maybe"] }
        XCTAssertNoLeaks {
            _ = Maybe<Int>.error(HookError(code: 10)).subscribe()
            _ = Maybe<Int>.empty().subscribe()
        }
        XCTAssertEqual(reportedErrors, [HookError(code: 10)])
        XCTAssertEqual(reportedCallStacks, [["maybe"]])
    }

    func testCompletable_errorWithoutOnError() {
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["completable"] }
        XCTAssertNoLeaks {
            _ = Completable.error(HookError(code: 11)).subscribe(onCompleted: { XCTFail("no completion") })
            _ = Completable.empty().subscribe()
        }
        XCTAssertEqual(reportedErrors, [HookError(code: 11)])
        XCTAssertEqual(reportedCallStacks, [["completable"]])
    }

    func testTraits_errorAfterSubscription_usesTheSubscriptionsCallStack() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, HookError(code: 12), Int.self)])
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["subscribed"] }
        _ = xs.asSingle().subscribe()
        Hooks.customCaptureSubscriptionCallstack = { ["later"] }
        scheduler.start()
        XCTAssertEqual(reportedErrors, [HookError(code: 12)])
        XCTAssertEqual(reportedCallStacks, [["subscribed"]])
    }

    // MARK: - Bindings

    func testBindOnNext_errorGoesToDefaultErrorHandler() {
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["bind"] }
        var elements: [Int] = []
        let owner = NSObject()
        _ = Observable<Int>.error(HookError(code: 13)).bind(onNext: { elements.append($0) })
        _ = Observable<Int>.error(HookError(code: 14)).bind(with: owner) { _, element in elements.append(element) }
        XCTAssertEqual(elements, [])
        XCTAssertEqual(reportedErrors, [HookError(code: 13), HookError(code: 14)])
        XCTAssertEqual(reportedCallStacks, [["bind"], ["bind"]])
    }

    func testBindToRelay_errorGoesToDefaultErrorHandlerWithTheBindCallStack() {
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["bound"] }
        XCTAssertNoLeaks {
            let relay = PublishRelay<Int>()
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            let relaySubscription = relay.subscribe(onNext: { received.append($0) })
            let binding = subject.bind(to: relay)
            Hooks.customCaptureSubscriptionCallstack = { ["later"] }
            subject.onNext(1)
            subject.onError(HookError(code: 15))
            binding.dispose()
            relaySubscription.dispose()
            XCTAssertEqual(received, [1])
        }
        XCTAssertEqual(reportedErrors, [HookError(code: 15)])
        XCTAssertEqual(reportedCallStacks, [["bound"]])
    }

    func testBinder_errorGoesToDefaultErrorHandlerWithoutCallStack() {
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["frame"] }
        let scheduler = TestScheduler(initialClock: 0)
        let target = NSObject()
        var values: [Int] = []
        let binder = Binder(target, scheduler: scheduler) { _, value in values.append(value) }
        binder.on(.error(HookError(code: 16)))
        XCTAssertEqual(reportedErrors, [HookError(code: 16)])
        XCTAssertEqual(reportedCallStacks, [[]])
        XCTAssertEqual(values, [])
    }
}

/// Runs work observables on demand, one at a time, and reports their elements, errors and
/// progress as observables (the RxSwiftCommunity/Action API, on every platform).
///
///     let fetch = Action<Void, Config> { _ in api.fetchConfig() }
///     fetch.executing   // false, true … false
///     fetch.elements    // every element of every execution
///     fetch.errors      // .notEnabled or .underlyingError(e)
///     fetch.execute()   // starts an execution and replays its events
///
/// Rules:
/// - One execution at a time: `execute` while executing, or while `enabledIf`'s latest value is
///   `false` (or it has not produced one yet), fails with `ActionError.notEnabled`, which is also
///   sent on `errors`.
/// - An execution starts when `execute` is called, whether or not its result is subscribed.
/// - `enabled` is correct from the first subscription (upstream Action starts at `false`), and
///   finished executions hold no subscription (upstream's dispose bag grows with each `execute`).
/// - When an execution ends, `executing` turns `false` *before* the error is sent on `errors`, so
///   an `errors` handler may retry with `execute`.
/// - An error from `enabledIf` disables the action for good and is sent on `errors`.
///
/// - Note: Events are delivered on the thread of the work observable (or of `execute`).
///   See <doc:ActionGuide>.
public final class Action<Input, Element>: @unchecked Sendable {
    // Safety: mutable state is in `state`, guarded by its lock; subjects, user closures and
    // disposables are called only after the lock is released.

    /// The work that an execution runs.
    public typealias WorkFactory = (Input) -> Observable<Element>

    /// Creates the work observable for an input.
    public let workFactory: WorkFactory

    /// Whether the action may run, as given at creation.
    public let _enabledIf: Observable<Bool>

    /// Inputs sent here are executed (a `next` is `execute(_:)`; terminal events are ignored).
    public private(set) var inputs: AnyObserver<Input> = AnyObserver { _ in }

    /// Every element of every execution.
    public var elements: Observable<Element> { elementsSubject.asObservable() }

    /// Every failure: `.notEnabled` for refused executions, `.underlyingError` for failed work.
    public var errors: Observable<ActionError> { errorsSubject.asObservable() }

    /// Whether an execution is running; replays the current value to new subscribers.
    public var executing: Observable<Bool> { executingSubject.asObservable() }

    /// Whether `execute` would be accepted now; replays the current value to new subscribers.
    public var enabled: Observable<Bool> { enabledSubject.asObservable() }

    /// Each execution's observable (replaying its events), as executions start.
    public var executionObservables: Observable<Observable<Element>> { executionsSubject.asObservable() }

    private struct State {
        var enabledIf: Bool?
        var enabledIfFailed = false
        var isExecuting = false
        var execution: Disposable?
        var publishedEnabled: Bool
        /// What to send on the output subjects, in the order the state changed.
        var outbox = FIFOQueue<Publication>()
        var isPublishing = false

        var isEnabled: Bool { !enabledIfFailed && enabledIf == true && !isExecuting }

        /// Queues `enabled` if it changed since last queued.
        mutating func queueEnabledIfChanged() {
            let now = isEnabled
            guard now != publishedEnabled else { return }
            publishedEnabled = now
            outbox.append(.enabled(now))
        }
    }

    /// One output event, queued under the lock and sent after it.
    private enum Publication {
        case executing(Bool)
        case enabled(Bool)
        case element(Element)
        case error(ActionError)
        case completion
        case execution(Observable<Element>)
    }

    private let state: LockedState<State>
    private let elementsSubject = PublishSubject<Element>()
    private let errorsSubject = PublishSubject<ActionError>()
    private let executingSubject = BehaviorSubject(value: false)
    private let enabledSubject: BehaviorSubject<Bool>
    private let executionsSubject = PublishSubject<Observable<Element>>()
    let completionsSubject = PublishSubject<Void>()
    private let enabledIfSubscription = SingleAssignmentDisposable()

    /// Creates an action enabled while `enabledIf`'s latest value is `true`, running `workFactory`.
    public init<Work: ObservableConvertibleType>(
        enabledIf: Observable<Bool> = Observable.just(true),
        workFactory: @escaping (Input) -> Work
    ) where Work.Element == Element {
        self.workFactory = { workFactory($0).asObservable() }
        self._enabledIf = enabledIf
        state = LockedState(State(publishedEnabled: false))
        enabledSubject = BehaviorSubject(value: false)
        inputs = AnyObserver { [weak self] event in
            if case .next(let input) = event { self?.execute(input) }
        }
        enabledIfSubscription.setDisposable(
            enabledIf.subscribe { [weak self] event in
                self?.enabledIfChanged(event)
            })
    }

    deinit {
        enabledIfSubscription.dispose()
        state.withLock { $0.execution }?.dispose()
    }

    /// Starts an execution with `input`.
    ///
    /// - Returns: The execution's events, replayed to every subscriber: its elements, then
    ///   completion, or `ActionError.underlyingError` / `ActionError.notEnabled`.
    @discardableResult
    public func execute(_ input: Input) -> Observable<Element> {
        let record = ExecutionRecord<Element>()
        let subscription = SingleAssignmentDisposable()
        let started = update { state -> Bool in
            guard state.isEnabled else {
                state.outbox.append(.error(.notEnabled))
                return false
            }
            state.isExecuting = true
            state.execution = subscription
            state.outbox.append(.executing(true))
            state.queueEnabledIfChanged()
            state.outbox.append(.execution(record.asObservable()))
            return true
        }
        guard started else { return Observable.error(ActionError.notEnabled) }

        let work = workFactory(input)
        subscription.setDisposable(
            work.subscribe { [weak self] event in
                guard let self else { return }
                switch event {
                case .next(let element):
                    self.update { $0.outbox.append(.element(element)) }
                    record.on(event)
                case .error(let error):
                    self.finishExecution(with: .error(.underlyingError(error)))
                    record.on(.error(ActionError.underlyingError(error)))
                case .completed:
                    self.finishExecution(with: .completion)
                    record.on(.completed)
                }
            })
        return record.asObservable()
    }

    private func finishExecution(with outcome: Publication) {
        update { state in
            state.isExecuting = false
            state.execution = nil
            state.outbox.append(.executing(false))
            state.queueEnabledIfChanged()
            state.outbox.append(outcome)
        }
    }

    private func enabledIfChanged(_ event: Event<Bool>) {
        update { state in
            switch event {
            case .next(let value):
                state.enabledIf = value
            case .error(let error):
                state.enabledIfFailed = true
                state.queueEnabledIfChanged()
                state.outbox.append(.error(.underlyingError(error)))
            case .completed:
                break
            }
            state.queueEnabledIfChanged()
        }
    }

    /// Changes the state under the lock, then sends what it queued, in order.
    ///
    /// Output events are sent by one thread at a time, outside the lock: a thread that finds
    /// another one publishing only queues, so `executing`, `enabled`, `elements` and `errors`
    /// always follow the order of the state changes, even when executions start and end on
    /// different threads, and an observer may call `execute` reentrantly.
    @discardableResult
    private func update<R>(_ body: (inout State) -> R) -> R {
        let (result, publish) = state.withLock { state -> (R, Bool) in
            let result = body(&state)
            guard !state.isPublishing, !state.outbox.isEmpty else { return (result, false) }
            state.isPublishing = true
            return (result, true)
        }
        guard publish else { return result }
        while let next = state.withLock({ state -> Publication? in
            guard let next = state.outbox.popFirst() else {
                state.isPublishing = false
                return nil
            }
            return next
        }) {
            switch next {
            case .executing(let value): executingSubject.onNext(value)
            case .enabled(let value): enabledSubject.onNext(value)
            case .element(let element): elementsSubject.onNext(element)
            case .error(let error): errorsSubject.onNext(error)
            case .completion: completionsSubject.onNext(())
            case .execution(let observable): executionsSubject.onNext(observable)
            }
        }
        return result
    }
}

extension Action where Input == Void {
    /// Starts an execution (for actions without input).
    @discardableResult
    public func execute() -> Observable<Element> {
        execute(())
    }
}

extension Action {
    /// The errors of failed work (without `.notEnabled`).
    public var underlyingError: Observable<Swift.Error> {
        errors.compactMapUnderlying()
    }
}

extension Action where Element == Never {
    /// Emits once per execution that completes successfully.
    public var completions: Observable<Void> { completionsSubject.asObservable() }
}

/// An action without input or output, e.g. for a button.
public typealias CocoaAction = Action<Void, Void>

/// An action whose work only completes or fails.
public typealias CompletableAction<Input> = Action<Input, Never>

extension Observable where Element == ActionError {
    fileprivate func compactMapUnderlying() -> Observable<Swift.Error> {
        Observable<Swift.Error>.create { observer in
            self.subscribe { event in
                switch event {
                case .next(.underlyingError(let error)): observer.onNext(error)
                case .next(.notEnabled): break
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }
}

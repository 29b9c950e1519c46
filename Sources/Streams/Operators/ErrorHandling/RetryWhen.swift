extension ObservableType {
    /// Resubscribes to the source each time the notifier built from its errors emits an element.
    ///
    ///     source (1st): -a-#
    ///     source (2nd):        -a-b|
    ///     errors:          e
    ///     notifier:        ----x          (e.g. errors.delay(4))
    ///     output:       -a------a-b|
    ///
    /// `notificationHandler` is called once per subscription with the sequence of the source's
    /// errors of type `Error`; the sequence it returns is the notifier. The notifier answers a
    /// failure: while a failure waits for its answer, an element subscribes to the source again,
    /// and an error or completion ends the output the same way. A failure stays unanswered
    /// until the subscription its element asked for starts: when that subscription waits for
    /// the one being made (the source failed while being subscribed), a notifier that emits and
    /// then ends in the same call ends the output, as in RxSwift. Notifier events while no failure
    /// waits are not answers (as in RxSwift): elements are ignored, and a terminal event is kept
    /// as the answer to the next failure, so the source keeps running until it fails or
    /// completes. An error that is not an `Error` is forwarded as is. The source completing
    /// completes the output.
    /// - Parameter notificationHandler: Maps the errors to the resubscription triggers.
    /// - Returns: The source, resubscribed on every trigger.
    /// - Note: Resubscribes on the notifier's thread; resubscription is a loop, not a recursion,
    ///   so a notifier that triggers synchronously does not grow the stack. See <doc:ErrorHandling>.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> Observable<Element> {
        RetryWhenProducer(source: asObservable(), handler: { notificationHandler($0).asObservable().map { _ in () } })
    }

    /// Resubscribes to the source each time the notifier built from its errors emits an element.
    ///
    /// As `retry(when:)` for a typed error, with every error passed to the notifier.
    /// - Parameter notificationHandler: Maps the errors to the resubscription triggers.
    /// - Returns: The source, resubscribed on every trigger.
    /// - Note: Resubscribes on the notifier's thread. See <doc:ErrorHandling>.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> Observable<Element> {
        RetryWhenProducer(source: asObservable(), handler: { notificationHandler($0).asObservable().map { _ in () } })
    }

    /// Resubscribes when the notifier emits (renamed `retry(when:)`).
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }

    /// Resubscribes when the notifier emits (renamed `retry(when:)`).
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }
}

private struct RetryWhenState<Failure> {
    /// Numbers the source subscriptions; events of an older one are ignored.
    var generation = 0
    /// Failures waiting to be sent to the notifier (they are sent one at a time, in order).
    var pendingFailures = FIFOQueue<Failure>()
    /// The thread sending failures to the notifier (`currentThreadID()`), 0 when none.
    var sender: UInt = 0
    /// Who runs the resubscribe loop, and whether a trigger asked it to subscribe again.
    var loop = ResubscribeLoop()
    /// Whether a failure waits for the notifier's answer. A trigger element does not clear it:
    /// the failure stays unanswered until the subscription it asked for starts, so a notifier
    /// that emits and then ends before that (a resubscription queued behind the running loop)
    /// ends the output, as RxSwift's trigger observer does until its next attempt starts.
    var awaitingAnswer = false
    /// How the notifier ended while no failure waited: the answer to the next failure.
    var notifierEnd: NotifierEnd?
}

/// What a failed attempt of `retry(when:)` leads to.
private enum RetryWhenDecision {
    /// The attempt was already replaced.
    case ignore
    /// Another thread is sending failures to the notifier; this one was queued.
    case queued
    /// This thread sends the failures to the notifier.
    case send
    /// This thread is already sending a failure, and this one came from the subscription its
    /// answer made (synchronously): it is sent at once, nested, as RxSwift does.
    case sendNested
    /// The notifier has ended: its end is the answer.
    case end(NotifierEnd)
}

/// How a `retry(when:)` notifier ended.
private enum NotifierEnd {
    case completed
    case failed(Swift.Error)
}

final private class RetryWhenSink<Observer: ObserverType, Failure: Swift.Error>: SerializingSink<Observer, RetryWhenState<Failure>> {
    typealias Element = Observer.Element
    private let source: Observable<Element>
    private let errors = PublishSubject<Failure>()
    private let attempt = SerialDisposable()
    private let notifier = SingleAssignmentDisposable()

    init(source: Observable<Element>, observer: Observer, cancel: SinkDisposer) {
        self.source = source
        super.init(state: RetryWhenState(), observer: observer, cancel: cancel)
    }

    func run(_ handler: (Observable<Failure>) -> Observable<Void>) -> Disposable {
        let triggers = handler(errors.asObservable())
        notifier.setDisposable(
            triggers.subscribe(
                SinkForward<Void> { [self] event in
                    switch event {
                    case .next:
                        if withState({ $0.awaitingAnswer }) { resubscribe() }
                    case .error(let error): notifierEnded(.failed(error))
                    case .completed: notifierEnded(.completed)
                    }
                }))
        resubscribe()
        return Disposables.create(attempt, notifier)
    }

    private func onSource(_ event: Event<Element>, generation: Int, subscription: Disposable) {
        if case .error(let error) = event, let failure = error as? Failure {
            // The failed subscription is released at once; the notifier decides what comes next
            // (with no trigger the output just waits).
            subscription.dispose()
            notify(failure, generation: generation)
            return
        }
        synchronized { state, outbox in
            if state.generation == generation { outbox.send(event) }
        }
    }

    /// Ends the output with the notifier's terminal event if a failure waits for an answer, else
    /// keeps it as the answer to the next failure.
    private func notifierEnded(_ end: NotifierEnd) {
        synchronized { state, outbox in
            guard state.awaitingAnswer else {
                state.notifierEnd = end
                return
            }
            outbox.send(Self.event(for: end))
        }
    }

    private static func event(for end: NotifierEnd) -> Event<Element> {
        switch end {
        case .completed: return .completed
        case .failed(let error): return .error(error)
        }
    }

    /// Sends `failure` to the notifier's input (or answers it with the notifier's end). Attempts
    /// may fail on different threads, so the sends are serialized: a thread that finds another
    /// one sending just queues its failure. A failure on the sending thread itself (the attempt
    /// its answer subscribed failed at once) is sent nested, as RxSwift sends it.
    private func notify(_ failure: Failure, generation: Int) {
        let thread = currentThreadID()
        let decision = withState { state -> RetryWhenDecision in
            guard state.generation == generation else { return .ignore }
            if let end = state.notifierEnd { return .end(end) }
            state.awaitingAnswer = true
            if state.sender == thread { return .sendNested }
            state.pendingFailures.append(failure)
            if state.sender != 0 { return .queued }
            state.sender = thread
            return .send
        }
        switch decision {
        case .ignore, .queued:
            return
        case .sendNested:
            if !isDisposed { errors.onNext(failure) }
            return
        case .end(let end):
            synchronized { _, outbox in outbox.send(Self.event(for: end)) }
            return
        case .send:
            break
        }
        while true {
            let next = withState { state -> Failure? in
                if isDisposed || state.pendingFailures.isEmpty {
                    state.pendingFailures.removeAll()
                    state.sender = 0
                    return nil
                }
                return state.pendingFailures.popFirst()
            }
            guard let next else { return }
            errors.onNext(next)
        }
    }

    /// Disposes the current source subscription and subscribes again. A call made while the loop
    /// runs (on this thread or another) only flags the loop to go round once more.
    private func resubscribe() {
        guard withState({ $0.loop.request() }) else { return }
        while true {
            if isDisposed {
                withState { $0.loop.stop() }
                return
            }
            let generation = withState { state -> Int in
                state.awaitingAnswer = false
                state.generation += 1
                return state.generation
            }
            let subscription = SingleAssignmentDisposable()
            attempt.disposable = subscription
            subscription.setDisposable(
                source.subscribe(
                    SinkForward<Element> { [self] event in
                        onSource(event, generation: generation, subscription: subscription)
                    }))
            guard withState({ $0.loop.finishPass() }) else { return }
        }
    }

    override func dispose() {
        attempt.dispose()
        notifier.dispose()
        super.dispose()
    }
}

final private class RetryWhenProducer<Element, Failure: Swift.Error>: Producer<Element> {
    private let source: Observable<Element>
    private let handler: (Observable<Failure>) -> Observable<Void>

    init(source: Observable<Element>, handler: @escaping (Observable<Failure>) -> Observable<Void>) {
        self.source = source
        self.handler = handler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = RetryWhenSink<Observer, Failure>(source: source, observer: observer, cancel: cancel)
        let subscription = sink.run(handler)
        return (sink, subscription)
    }
}

extension ObservableConvertibleType {
    /// The closure an async `create` work closure sends its elements to.
    public typealias ElementObserver<Element> = (Element) -> Void

    /// Creates an ``Observable`` whose elements are sent by an `async` closure running in a `Task`.
    ///
    ///     Observable<Int>.create { observer in
    ///         for id in try await api.ids() { observer(id) }
    ///     }
    ///
    ///     work:   --observer(1)--observer(2)--return      --observer(1)--throw e
    ///     output: --1------------2------------|           --1------------#
    ///
    /// Each subscription starts `work` in its own task. Returning from `work` completes the
    /// sequence; a thrown error is sent as `.error`. Disposing the subscription cancels the
    /// task (`work` sees `Task.isCancelled` / gets `CancellationError` from cancellable awaits);
    /// elements sent after that are dropped.
    /// - Parameters:
    ///   - detached: `true` runs `work` in `Task.detached` (no inherited task-locals or priority).
    ///   - priority: The priority of the task; `nil` uses the default.
    ///   - work: Receives the observer closure; call it once per element, from the task only.
    /// - Returns: An ``Observable`` of the elements `work` sends.
    /// - Note: Events are delivered on the task's thread (the concurrency runtime's pool); use
    ///   ``ObservableType/observe(on:)`` to move them. See <doc:Concurrency>.
    @_disfavoredOverload
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        work: @Sendable @escaping (_ observer: ElementObserver<Element>) async throws -> Void
    ) -> Observable<Element> {
        Observable.create { observer in
            // Safety: the observer wraps this subscription's sink; only the task below sends to
            // it (the element closure is not Sendable, so `work` cannot hand it to other tasks),
            // and the sink's forwardOn tolerates a concurrent dispose.
            let target = UncheckedSendable(observer)
            let operation: @Sendable () async -> Void = {
                let observer = target.value
                do {
                    try await work { element in
                        guard !Task.isCancelled else { return }
                        observer.onNext(element)
                    }
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            let task =
                detached
                ? Task.detached(priority: priority, operation: operation)
                : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Creates a ``Single`` from the result of an `async` closure running in a `Task`.
    ///
    ///     let user = Single<User>.create { try await api.user(id) }
    ///
    ///     work:   ----return 1      ----throw e
    ///     output: ----1|            ----#
    ///
    /// Each subscription starts `work` in its own task. Returning succeeds with the value; a
    /// thrown error fails the ``Single``. Disposing the subscription cancels the task; a result
    /// arriving after that is dropped.
    /// - Parameters:
    ///   - detached: `true` runs `work` in `Task.detached` (no inherited task-locals or priority).
    ///   - priority: The priority of the task; `nil` uses the default.
    ///   - work: Produces the element.
    /// - Returns: A ``Single`` of `work`'s result.
    /// - Note: The event is delivered on the task's thread. See <doc:Concurrency>.
    @_disfavoredOverload
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        work: @Sendable @escaping () async throws -> Element
    ) -> Single<Element> {
        create { (single: @escaping SingleObserver) -> Disposable in
            // Safety: the closure forwards to this subscription's sink; only the task below calls
            // it, once, and the sink's forwardOn tolerates a concurrent dispose.
            let target = UncheckedSendable(single)
            let operation: @Sendable () async -> Void = {
                let single = target.value
                do {
                    let element = try await work()
                    single(.success(element))
                } catch {
                    single(.failure(error))
                }
            }
            let task =
                detached
                ? Task.detached(priority: priority, operation: operation)
                : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        }
    }
}

extension InfallibleType {
    /// Creates an ``Infallible`` whose elements are sent by a non-throwing `async` closure running
    /// in a `Task`; returning from the closure completes it.
    ///
    ///     work:   --observer(1)--observer(2)--return
    ///     output: --1------------2------------|
    ///
    /// Disposing the subscription cancels the task; elements sent after that are dropped.
    /// - Parameters:
    ///   - detached: `true` runs `work` in `Task.detached` (no inherited task-locals or priority).
    ///   - priority: The priority of the task; `nil` uses the default.
    ///   - work: Receives the observer closure; call it once per element, from the task only.
    /// - Note: Events are delivered on the task's thread. See <doc:Concurrency>.
    @_disfavoredOverload
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        work: @Sendable @escaping (_ observer: ElementObserver<Element>) async -> Void
    ) -> Infallible<Element> {
        Infallible(
            Observable<Element>.create(detached: detached, priority: priority) { observer in
                await work(observer)
            })
    }
}

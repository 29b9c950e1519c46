#if canImport(Observation)
import Observation

/// A stream's latest value as an `@Observable`-style object, for SwiftUI views and other
/// Observation clients.
///
///     @State private var results = StreamState(viewModel.results, initial: [])   // a Driver
///     var body: some View { List(results.value) { ... } }
///
/// Reading ``value``, ``error`` or ``isCompleted`` inside `withObservationTracking` (or a SwiftUI
/// body) tracks it; each new element is stored on the state's scheduler and reported as a change.
/// The subscription ends when the state is deinitialized, or when ``cancel()`` is called.
/// A failing source stops with its error in ``error``; the last value stays.
public final class StreamState<Value: Sendable>: Observation.Observable, Sendable {
    private struct Storage {
        var value: Value
        var error: (any Swift.Error)?
        var isCompleted = false
    }

    private let registrar = ObservationRegistrar()
    private let storage: LockedState<Storage>
    private let subscription = SingleAssignmentDisposable()

    /// The latest element (or the initial value, until the first element arrives).
    public var value: Value {
        registrar.access(self, keyPath: \.value)
        return storage.withLock { $0.value }
    }

    /// The error that ended the source, or `nil`.
    public var error: (any Swift.Error)? {
        registrar.access(self, keyPath: \.error)
        return storage.withLock { $0.error }
    }

    /// Whether the source has ended (completed or failed).
    public var isCompleted: Bool {
        registrar.access(self, keyPath: \.isCompleted)
        return storage.withLock { $0.isCompleted }
    }

    /// Follows `source`, storing each element on `scheduler` (the main thread by default).
    ///
    /// - Parameters:
    ///   - source: The sequence to follow.
    ///   - initial: The value until the first element.
    ///   - scheduler: Where elements are stored and changes reported.
    public init<Source: ObservableConvertibleType>(
        _ source: Source,
        initial: Value,
        scheduler: ImmediateSchedulerType = MainScheduler.instance
    ) where Source.Element == Value {
        storage = LockedState(Storage(value: initial))
        subscription.setDisposable(
            source.asObservable().observe(on: scheduler).subscribe { [weak self] event in
                self?.store(event)
            })
    }

    /// Follows a ``Driver`` (or ``Signal``), which already delivers on the main thread.
    public convenience init<Strategy: SharingStrategyProtocol>(_ shared: SharedSequence<Strategy, Value>, initial: Value) {
        self.init(shared.asObservable(), initial: initial, scheduler: CurrentThreadScheduler.instance)
    }

    /// Follows a relay, starting from its current value.
    public convenience init(_ relay: BehaviorRelay<Value>, scheduler: ImmediateSchedulerType = MainScheduler.instance) {
        self.init(relay.asObservable(), initial: relay.value, scheduler: scheduler)
    }

    deinit { subscription.dispose() }

    /// Stops following the source; the state keeps its last value.
    public func cancel() { subscription.dispose() }

    private func store(_ event: Event<Value>) {
        switch event {
        case .next(let element):
            registrar.withMutation(of: self, keyPath: \.value) { storage.withLock { $0.value = element } }
        case .error(let error):
            registrar.withMutation(of: self, keyPath: \.error) { storage.withLock { $0.error = error } }
            registrar.withMutation(of: self, keyPath: \.isCompleted) { storage.withLock { $0.isCompleted = true } }
        case .completed:
            registrar.withMutation(of: self, keyPath: \.isCompleted) { storage.withLock { $0.isCompleted = true } }
        }
    }
}
#endif

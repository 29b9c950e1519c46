/// An observer that binds elements to a target object on a scheduler: the binding rules of
/// RxSwift's ``Binder``.
///
/// - Elements are delivered to `binding` on `scheduler` (the main scheduler by default).
/// - The target is held weakly: once it is gone, elements are dropped.
/// - Completion is ignored; an error is reported to `Hooks.defaultErrorHandler` (with an empty
///   call stack; RxSwift raises a `fatalError` in debug builds instead), since a binding expects
///   a sequence that never fails.
///
///     let isLoading = Binder(spinner) { spinner, loading in spinner.isAnimating = loading }
///     viewModel.loading.bind(to: isLoading).disposed(by: bag)
///
/// See <doc:Subjects>.
public struct Binder<Value>: ObserverType {
    /// The element type: the bound value.
    public typealias Element = Value

    private let binding: (Event<Value>) -> Void

    /// Creates a binder that calls `binding` with `target` and each element, on `scheduler`.
    ///
    /// - Parameters:
    ///   - target: The object bound to; not retained.
    ///   - scheduler: Where `binding` runs (default: a ``MainScheduler``).
    ///   - binding: Applies an element to the target.
    /// - Note: `binding` runs on `scheduler`. See <doc:Subjects>.
    public init<Target: AnyObject>(_ target: Target, scheduler: ImmediateSchedulerType = MainScheduler(), binding: @escaping (Target, Value) -> Void) {
        weak let weakTarget = target
        self.binding = { event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(element) { element in
                    if let target = weakTarget {
                        binding(target, element)
                    }
                    return Disposables.create()
                }
            case .error(let error):
                Hooks.reportUnhandledError(error, subscriptionCallStack: nil)
            case .completed:
                break
            }
        }
    }

    /// Schedules the element's binding; ignores completion; reports an error as unhandled.
    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// Returns the binder as an ``AnyObserver``.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: binding)
    }
}

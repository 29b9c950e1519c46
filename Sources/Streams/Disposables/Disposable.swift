/// A resource that can be released: a subscription, scheduled work, a connection.
///
/// `dispose()` is idempotent for every disposable Streams creates, and may be called from any thread.
public protocol Disposable {
    /// Releases the resource. Calling it again has no effect.
    func dispose()
}

/// A disposable that reports whether it has been disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
}

/// Factories for the common disposables.
public enum Disposables {
    /// A disposable that does nothing.
    public static func create() -> Disposable { NopDisposable.shared }

    /// A disposable that runs `dispose` once, on the first call to `dispose()`.
    public static func create(with dispose: @escaping () -> Void) -> Cancelable {
        AnonymousDisposable(dispose)
    }

    /// A disposable that disposes both.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
        CompositeDisposable(disposable1, disposable2)
    }

    /// A disposable that disposes all three.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) -> Cancelable {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// A disposable that disposes all of them.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposables: Disposable...) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
    }

    /// A disposable that disposes all of them.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        CompositeDisposable(disposables: disposables)
    }
}

/// A disposable that does nothing.
final class NopDisposable: Disposable, Sendable {
    static let shared = NopDisposable()
    func dispose() {}
}

/// A disposable that does nothing, as a value: the placeholder of a `Disposable` slot that is
/// filled and emptied per subscription (`SinkDisposer`'s upstream, `flatMapLatest`'s inner).
/// Making one is two constant stores, where each read of `NopDisposable.shared` calls
/// `swift_initStaticObject` (~15 instructions).
struct EmptyDisposable: Disposable {
    func dispose() {}
}

/// Runs a closure once, on the first `dispose()`.
@usableFromInline
final class AnonymousDisposable: Cancelable, @unchecked Sendable {
    // Safety: `action` is taken out under the lock exactly once and then run outside it,
    // so it is never run twice nor read while being cleared.
    private let action: LockedState<(() -> Void)?>

    init(_ action: @escaping () -> Void) {
        self.action = LockedState(action)
    }

    @usableFromInline
    var isDisposed: Bool { action.withLock { $0 == nil } }

    @usableFromInline
    func dispose() {
        let taken = action.withLock { state -> (() -> Void)? in
            defer { state = nil }
            return state
        }
        taken?()
    }
}

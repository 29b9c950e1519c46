import Streams

/// A disposable that counts how often it is disposed and logs the order (thread-safe).
final class CountingTestDisposable: Cancelable, @unchecked Sendable {
    // Safety: `count` is only accessed under its lock; `log` is itself thread-safe.
    private let count = LockedState(0)
    private let name: String
    private let log: TestDisposalLog?

    init(_ name: String = "", log: TestDisposalLog? = nil) {
        self.name = name
        self.log = log
    }

    /// How many times `dispose()` was called.
    var disposeCount: Int { count.withLock { $0 } }

    var isDisposed: Bool { disposeCount > 0 }

    func dispose() {
        count.withLock { $0 += 1 }
        log?.append(name)
    }
}

/// The order in which `CountingTestDisposable`s were disposed.
final class TestDisposalLog: @unchecked Sendable {
    // Safety: `names` is only accessed under its lock.
    private let names = LockedState([String]())
    var entries: [String] { names.withLock { $0 } }
    func append(_ name: String) { names.withLock { $0.append(name) } }
}

/// Hands a thread-safe Streams object into a `@Sendable` closure.
struct DisposablesTestBox<Value>: @unchecked Sendable {
    // Safety: used only for Streams' disposables, which are thread-safe by contract (under test).
    let value: Value
    init(_ value: Value) { self.value = value }
}

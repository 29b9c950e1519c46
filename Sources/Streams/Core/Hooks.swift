import Foundation
import Synchronization

/// Global hooks for behaviour that has no observer to report to.
///
/// An error that reaches a closure-based subscription without an error handler
/// (`subscribe(onNext:…)` without `onError`, `Single.subscribe` without `onFailure`, ``Maybe`` and
/// ``Completable`` without `onError`, `bind(onNext:)`, `bind(to:)` relays, ``Binder``) takes one route:
///
///     defaultErrorHandler(subscriptionCallStack, error)     (RxSwift's hook; replace it to take over)
///       └─ by default: unhandledError(error)                (Streams' hook; by default prints)
///                      and prints the call stack if one was recorded
///
/// The call stack is captured with `customCaptureSubscriptionCallstack` when the subscription is
/// made, and only while `recordCallStackOnError` is `true`; otherwise it is `[]`.
/// All hooks can be read and replaced from any thread. Tests that replace one restore it
/// afterwards (other tests run in the same process). See <doc:Grammar>.
public enum Hooks {
    /// Handles an error that no error handler received, with the call stack of its subscription.
    public typealias DefaultErrorHandler = (_ subscriptionCallStack: [String], _ error: Swift.Error) -> Void

    /// Captures the call stack of a subscription being made.
    public typealias CustomCaptureSubscriptionCallstack = () -> [String]

    private struct Handlers {
        var defaultError: DefaultErrorHandler
        var captureCallStack: CustomCaptureSubscriptionCallstack
    }

    // Safety: the two closures are not `@Sendable`, as in RxSwift, so that ported test code
    // such as `Hooks.defaultErrorHandler = { _, error in loggedErrors.append(error) }` (which
    // mutates a captured local `var`) compiles in Swift 5 and Swift 6 mode. The lock makes reading
    // and replacing them thread-safe; a closure is copied out of the lock and called after it,
    // on the thread that delivers the error (or subscribes). A handler that captures mutable
    // state is responsible for that state if errors arrive on several threads, exactly as with an
    // `onError` closure.
    private static let handlers = LockedState(
        Handlers(
            defaultError: { subscriptionCallStack, error in
                Hooks.unhandledError(error)
                if !subscriptionCallStack.isEmpty {
                    print("Streams: subscription called from:\n" + subscriptionCallStack.joined(separator: "\n"))
                }
            },
            captureCallStack: {
                #if DEBUG
                return Thread.callStackSymbols
                #else
                return []
                #endif
            }
        ))

    private static let recordsCallStack = Atomic<Bool>(false)

    /// Whether closure-based subscriptions capture their call stack (for `defaultErrorHandler`);
    /// `false` by default.
    ///
    /// Capturing costs a stack walk per subscription without an error handler, so turn it on
    /// only while debugging.
    public static var recordCallStackOnError: Bool {
        get { recordsCallStack.load(ordering: .relaxed) }
        set { recordsCallStack.store(newValue, ordering: .relaxed) }
    }

    /// Called with an error that reached a closure-based subscription without an error handler,
    /// and the call stack captured when it subscribed (`[]` unless `recordCallStackOnError`).
    ///
    /// The default passes the error to `unhandledError` (which prints it) and prints the call
    /// stack if there is one. RxSwift's default prints in DEBUG builds only.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { handlers.withLock { $0.defaultError } }
        set { handlers.withLock { $0.defaultError = newValue } }
    }

    /// Captures the call stack of a subscription when `recordCallStackOnError` is `true`.
    ///
    /// The default returns `Thread.callStackSymbols` in DEBUG builds of Streams and `[]` in
    /// release builds (as RxSwift).
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { handlers.withLock { $0.captureCallStack } }
        set { handlers.withLock { $0.captureCallStack = newValue } }
    }

    private static let handler = LockedState<@Sendable (Swift.Error) -> Void>({ error in
        print("Streams: unhandled error in a subscription without an error handler: \(error)")
    })

    /// Called by the default `defaultErrorHandler` with an error that reached a closure-based
    /// subscription without an error handler (a Streams addition). The default prints it; tests
    /// may replace it to fail instead.
    ///
    /// Replacing `defaultErrorHandler` bypasses this hook.
    public static var unhandledError: @Sendable (Swift.Error) -> Void {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// The call stack to report if the subscription being made ends with an unhandled error:
    /// `customCaptureSubscriptionCallstack()` while `recordCallStackOnError`, else `nil` (which
    /// is reported as `[]`; an optional costs no retain per subscription).
    @usableFromInline
    static func subscriptionCallStack() -> [String]? {
        recordCallStackOnError ? customCaptureSubscriptionCallstack() : nil
    }

    /// Reports an error no handler received (through `defaultErrorHandler`).
    static func reportUnhandledError(_ error: Swift.Error, subscriptionCallStack: [String]?) {
        defaultErrorHandler(subscriptionCallStack ?? [], error)
    }

    private static let anomalyHandler = LockedState<@Sendable (String) -> Void>({ message in
        print("⚠️ Streams synchronization anomaly: \(message)")
    })

    /// Called (in DEBUG builds) when an operator's observer is entered by two threads at once,
    /// which breaks the Rx contract. The default prints a warning; tests may replace it to fail.
    public static var synchronizationAnomaly: @Sendable (String) -> Void {
        get { anomalyHandler.withLock { $0 } }
        set { anomalyHandler.withLock { $0 = newValue } }
    }

    static func reportSynchronizationAnomaly(_ message: String) {
        synchronizationAnomaly(message)
    }
}

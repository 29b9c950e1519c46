#if Inspector
import Foundation
import Synchronization

/// Whether the inspector records: `InspectorHook.off`, `.on`, or `.unread` until the environment
/// variable has been read (by the first subscription, or by `Inspector.start()`/`stop()`). A
/// constant initial value, so the global needs no lazy initialization: off, the only cost is
/// this relaxed load and a compare per subscription in the operators' `subscribe`, and events
/// never pass through the inspector.
@usableFromInline let inspectorState = Atomic<UInt8>(0)

/// What records the subscriptions and events of the chains while the inspector records: the
/// StreamsInspector module's registry, installed by `Inspector.start()` (or, with
/// `STREAMS_INSPECTOR=1`, as the process starts).
///
/// Streams itself only asks whether to record and hands the subscription over; everything the
/// inspector keeps, and its page, exports and call-site symbolication, live in StreamsInspector, a
/// product of its own, so an app that does not use it neither compiles nor links them.
package protocol InspectorRecorder: AnyObject, Sendable {
    /// Records a subscription to `source` and runs `body` with an observer that records the events
    /// `source` delivers to `observer`; returns the subscription's disposable.
    func subscribe<Source: AnyObject, Observer: ObserverType>(
        _ source: Source,
        _ observer: Observer,
        label: String?,
        redacts: Bool,
        _ body: (any ObserverType<Observer.Element>) -> Disposable
    ) -> Disposable
}

/// The hook the operators' and subjects' `subscribe` call while the inspector records.
@_spi(StreamsInspectorSupport) public enum InspectorHook {
    @usableFromInline static let unread: UInt8 = 0
    @usableFromInline static let off: UInt8 = 1
    @usableFromInline static let on: UInt8 = 2

    /// The recorder StreamsInspector installed, if it did.
    private static let recorder = LockedState<(any InspectorRecorder)?>(nil)

    /// Whether to record this subscription.
    @_spi(StreamsInspectorSupport) @inlinable @inline(__always)
    public static var isRecording: Bool {
        let state = inspectorState.load(ordering: .relaxed)
        return state != off && isRecordingSlowPath(state)
    }

    /// Reads the environment the first time; afterwards just says whether the state is `on`.
    @usableFromInline @inline(never)
    static func isRecordingSlowPath(_ state: UInt8) -> Bool {
        guard state == unread else { return state == on }
        let requested: UInt8 = environmentRequestsRecording && installedRecorder != nil ? on : off
        _ = inspectorState.compareExchange(expected: unread, desired: requested, ordering: .relaxed)
        return inspectorState.load(ordering: .relaxed) == on
    }

    /// Whether the environment variable `STREAMS_INSPECTOR` is `1`.
    package static var environmentRequestsRecording: Bool {
        ProcessInfo.processInfo.environment["STREAMS_INSPECTOR"] == "1"
    }

    /// Sets the state (`Inspector.start()`/`stop()`).
    package static func setRecording(_ recording: Bool) {
        inspectorState.store(recording ? on : off, ordering: .relaxed)
    }

    /// Installs `recorder` (StreamsInspector's registry); the first one installed stays.
    package static func install(_ recorder: any InspectorRecorder) {
        self.recorder.withLock { installed in
            if installed == nil { installed = recorder }
        }
    }

    /// The recorder installed, if any.
    static var installedRecorder: (any InspectorRecorder)? { recorder.withLock { $0 } }

    /// Records a subscription to `source` through the installed recorder, which runs `body` with
    /// an observer that records the events `source` delivers; without a recorder, runs `body`
    /// with `observer` itself.
    @inline(never)
    static func subscribe<Source: AnyObject, Observer: ObserverType>(
        _ source: Source,
        _ observer: Observer,
        label: String? = nil,
        redacts: Bool = false,
        _ body: (any ObserverType<Observer.Element>) -> Disposable
    ) -> Disposable {
        guard let recorder = installedRecorder else { return body(observer) }
        return recorder.subscribe(source, observer, label: label, redacts: redacts, body)
    }
}
#endif

#if !Inspector
// The package trait `Inspector` is off: the inspector is compiled out. The operators' and
// subjects' `subscribe` still ask `InspectorHook.isRecording`, now a constant `false`, so the
// optimizer removes the branch; `.named(_:)` is a plain label.

/// The inspector's hook with the inspector compiled out: never records.
enum InspectorHook {
    /// Always `false`: nothing is recorded without the `Inspector` trait.
    @inline(__always)
    static var isRecording: Bool { false }

    /// Subscribes through `body` with `observer` itself (never called: `isRecording` is `false`).
    @inline(__always)
    static func subscribe<Source: AnyObject, Observer: ObserverType>(
        _ source: Source,
        _ observer: Observer,
        label: String? = nil,
        redacts: Bool = false,
        _ body: (Observer) -> Disposable
    ) -> Disposable {
        body(observer)
    }
}
#endif

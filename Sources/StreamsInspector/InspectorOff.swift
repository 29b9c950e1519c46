#if !Inspector
// The package trait `Inspector` is off: the inspector is compiled out (Streams' hook is a
// constant `false`, see InspectorHookOff.swift there), and its API is unavailable, each member
// naming the trait rather than failing as an unknown member.
import Streams

/// The stream inspector, compiled out: enable the Streams package trait `Inspector` (a default
/// trait, so turned off only by `traits: []` or `--disable-default-traits`) to use it.
@available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
public enum Inspector {
    // The inspector's API, each member unavailable, so that a call names the trait rather than
    // failing as an unknown member.

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public struct Configuration {}

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static let environmentVariable = "STREAMS_INSPECTOR"

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static var isRecording: Bool { false }

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static func start(_ configuration: Configuration) {}

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static func start() {}

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static func stop() {}

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static func withRecordingPaused<Result>(_ body: () throws -> Result) rethrows -> Result { try body() }

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static func reset() {}

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static func snapshot() -> InspectorSnapshot { InspectorSnapshot() }

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static func events(ofChainNamed name: String) -> [InspectorEvent] { [] }

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static func events(labelled label: String) -> [InspectorEvent] { [] }

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static func events() -> [InspectorEvent] { [] }

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static func exportJSON() -> String { "" }

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public static func exportHTML(title: String = "Streams inspector") -> String { "" }
}

/// The inspector's snapshot, compiled out: enable the Streams package trait `Inspector`.
@available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
public struct InspectorSnapshot {}

/// An event the inspector logged, compiled out: enable the Streams package trait `Inspector`.
@available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
public struct InspectorEvent {}
#endif

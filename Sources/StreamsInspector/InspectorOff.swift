#if !Inspector
// The package trait `Inspector` is off: the inspector is compiled out (Streams' hook is a
// constant `false`, see InspectorHookOff.swift there), and its API is unavailable, each member
// naming the trait rather than failing as an unknown member.
@_spi(StreamsInspectorSupport) import Streams

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
///
/// Every member, read by name, is unavailable with the same message (a dynamic member), so code
/// that reads a snapshot says which trait to enable rather than "no member".
@available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
@dynamicMemberLookup
public struct InspectorSnapshot {
    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public subscript(dynamicMember member: String) -> Never { fatalError("the stream inspector is compiled out") }

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public struct Chain {}

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public struct Operator {}

    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public struct CallSite {}
}

/// An event the inspector logged, compiled out: enable the Streams package trait `Inspector`.
///
/// Every member, read by name, is unavailable with the same message (a dynamic member).
@available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
@dynamicMemberLookup
public struct InspectorEvent {
    /// Compiled out: enable the `Inspector` trait.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public subscript(dynamicMember member: String) -> Never { fatalError("the stream inspector is compiled out") }

    /// Compiled out: enable the `Inspector` trait.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    @available(*, unavailable, message: "the stream inspector is compiled out: enable the Streams package trait \"Inspector\"")
    public enum Kind {}
}
#endif

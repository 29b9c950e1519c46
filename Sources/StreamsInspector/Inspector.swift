#if Inspector
@_spi(StreamsInspectorSupport) import Streams
import Foundation

/// The stream inspector: an opt-in recorder of every subscription's operator chain and events.
///
///     Inspector.start()
///     let search = query.debounce(.milliseconds(300), scheduler: MainScheduler.instance)
///         .named("search")
///         .flatMapLatest { api.search($0) }
///     ...
///     print(Inspector.snapshot().liveChains)          // what is still subscribed, and where from
///     try Inspector.exportHTML().write(toFile: "streams.html", atomically: true, encoding: .utf8)
///
/// While it records, each subscription made through an operator or subject is recorded with its
/// place in its chain (its operator's name, an optional [`named(_:)`](/documentation/streams/observabletype/named(_:)) label, the
/// operator downstream of it), and each event that operator delivers is logged with its kind,
/// time, thread and its value: a small value with value semantics and no references (a number,
/// a short string, a small standard collection of them, a plain struct) is kept in the ring
/// buffer and described when read; any other (an object, a large value) is described when sent,
/// with bounded work whatever its size (a large value keeps its shape, its first elements and
/// its count). Either way at most ``Configuration/valueLength`` bytes of description are shown,
/// and objects are never retained. Each chain keeps its events in a ring buffer of
/// ``Configuration/eventsPerChain``; ended chains are forgotten beyond
/// ``Configuration/retainedEndedChains``, so memory stays bounded however long the app runs.
///
/// Off (the default), it costs one relaxed atomic load per subscription and nothing per event:
/// no observer is wrapped. It can also be started by the environment variable
/// `STREAMS_INSPECTOR=1`. Subscriptions made while it is off are not recorded later.
///
/// Chains are found by following subscriptions made on one thread while a subscription is being
/// made or an event delivered; a subscription a scheduler makes later (`subscribe(on:)`, a
/// retry after a delay) starts a chain of its own. See <doc:DebuggingStreams>.
public enum Inspector {
    /// How much the inspector keeps.
    public struct Configuration: Sendable, Equatable {
        /// Events kept per chain (the oldest are dropped first).
        public var eventsPerChain: Int
        /// Ended chains kept for their history (the oldest are forgotten first).
        public var retainedEndedChains: Int
        /// Bytes (UTF-8) of a value's description kept per event, 4096 by default. A longer
        /// string is cut between characters and ends in `…(truncated, N bytes)`, N being its
        /// whole size; a larger value's description is cut and ends in `…(truncated)`.
        public var valueLength: Int
        /// Whether a chain records the call stack of its first subscription (where it was made).
        public var capturesCallStacks: Bool

        /// A configuration; the defaults keep 512 events per chain, 64 ended chains and 4 KiB
        /// of each value's description.
        public init(eventsPerChain: Int = 512, retainedEndedChains: Int = 64, valueLength: Int = 4096, capturesCallStacks: Bool = true) {
            self.eventsPerChain = max(eventsPerChain, 0)
            self.retainedEndedChains = max(retainedEndedChains, 0)
            self.valueLength = max(valueLength, 1)
            self.capturesCallStacks = capturesCallStacks
        }
    }

    /// The environment variable that starts the inspector when set to `1`.
    public static let environmentVariable = "STREAMS_INSPECTOR"

    /// Whether the inspector is recording.
    public static var isRecording: Bool { InspectorHook.isRecording }

    /// Clears what was recorded and starts recording with `configuration`; times count from now.
    public static func start(_ configuration: Configuration = Configuration()) {
        InspectorHook.install(InspectorRegistry.shared)
        InspectorRegistry.shared.reset(configuration)
        InspectorHook.setRecording(true)
    }

    /// Stops recording new subscriptions and events; what was recorded stays readable.
    public static func stop() {
        InspectorHook.setRecording(false)
    }

    /// Runs `body` with recording paused, then resumes it if it was on; what was recorded stays.
    ///
    /// Subscriptions made meanwhile are never recorded, and events delivered meanwhile, on any
    /// thread, are not logged: use it to time code in an app that records (the group-comments
    /// demo times its listeners so, and prints the same figures with `--timeline` as without).
    ///
    /// - Parameter body: The code to run unrecorded.
    /// - Returns: What `body` returns.
    public static func withRecordingPaused<Result>(_ body: () throws -> Result) rethrows -> Result {
        let wasRecording = isRecording
        if wasRecording { InspectorHook.setRecording(false) }
        defer { if wasRecording { InspectorHook.setRecording(true) } }
        return try body()
    }

    /// Forgets everything recorded (recording goes on if it was on).
    public static func reset() {
        InspectorRegistry.shared.reset(InspectorRegistry.shared.configuration)
    }

    /// The chains recorded now: every live one and the most recently ended, with their operators.
    public static func snapshot() -> InspectorSnapshot {
        InspectorRegistry.shared.snapshot()
    }

    /// The events of every chain named `name` (by [`named(_:)`](/documentation/streams/observabletype/named(_:))), in order.
    public static func events(ofChainNamed name: String) -> [InspectorEvent] {
        let chains = Set(snapshot().chains.filter { $0.name == name }.map(\.id))
        return InspectorRegistry.shared.events().filter { chains.contains($0.chain) }
    }

    /// The events logged where `label` was given with [`named(_:)`](/documentation/streams/observabletype/named(_:)), in every chain.
    public static func events(labelled label: String) -> [InspectorEvent] {
        InspectorRegistry.shared.events().filter { $0.label == label }
    }

    /// Every recorded event, chain by chain.
    public static func events() -> [InspectorEvent] {
        InspectorRegistry.shared.events()
    }
}
#endif

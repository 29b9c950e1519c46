#if Inspector
@_spi(StreamsInspectorSupport) import Streams
/// What the stream inspector saw: every chain it recorded, with its operators and their live
/// subscription counts. See ``Inspector/snapshot()``.
public struct InspectorSnapshot: Sendable, Codable, Equatable {
    /// One subscription tree: the subscription your code made, and every subscription the
    /// operators of that chain made upstream to serve it.
    public struct Chain: Sendable, Codable, Equatable {
        /// An identifier, unique while the inspector runs.
        public var id: Int
        /// The first `named(_:)` label in the chain, or `nil`.
        public var name: String?
        /// The operators, the one your code subscribed to first, then each one's sources.
        public var operators: [Operator]
        /// Whether the chain's outermost subscription is still live (not disposed, not terminated).
        public var isLive: Bool
        /// Seconds from `Inspector.start()` to the chain's subscription.
        public var subscribedAt: Double
        /// The thread that subscribed: `main`, the dispatch queue's label, or the thread's name.
        public var thread: String
        /// Where the chain was subscribed: the call stack below Streams' own frames, the
        /// subscribing code first, as ``CallSite/description``s; empty when not captured.
        public var callStack: [String]
        /// The same call stack, each frame with its function, file and line where the binary has
        /// them (see ``CallSite``).
        public var callSites: [CallSite]
        /// How many events the chain's ring buffer holds now.
        public var recordedEvents: Int
        /// How many events were dropped from the ring buffer because it was full.
        public var droppedEvents: Int

        /// The number of live subscriptions in the chain.
        public var liveSubscriptions: Int { operators.reduce(0) { $0 + $1.liveSubscriptions } }
    }

    /// One frame of a chain's call stack, symbolicated when the snapshot is taken.
    ///
    /// The function comes from the binary's symbol table and the file and line from its debug
    /// information (DWARF): a debug build has both, a release build without `-g` only the
    /// function, a stripped binary neither. ``missing`` then says what was missing, and
    /// ``address`` is the only clue left.
    public struct CallSite: Sendable, Codable, Equatable, CustomStringConvertible {
        /// The demangled function, `StreamsDemos.LaunchDemo.run()`, or `nil` without symbols.
        public var function: String?
        /// The source file's path, from the debug information.
        public var file: String?
        /// The line in ``file``.
        public var line: Int?
        /// The binary or library the code is in.
        public var image: String?
        /// The return address, in hexadecimal.
        public var address: String?
        /// What symbolication could not find, and why (`no file and line: streams-demo has no
        /// debug info (build it with -g)`), or `nil` when nothing is missing.
        public var missing: String?

        /// A call site.
        public init(function: String?, file: String?, line: Int?, image: String?, address: String?, missing: String?) {
            self.function = function
            self.file = file
            self.line = line
            self.image = image
            self.address = address
            self.missing = missing
        }

        /// `LaunchDemo.swift:42`, the file's name and the line, or `nil`.
        public var fileAndLine: String? {
            guard let file, let line else { return nil }
            return "\(file.split(separator: "/").last.map(String.init) ?? file):\(line)"
        }

        /// `function at file:line`, or what there is and what is missing.
        public var description: String {
            var text = function ?? [image, address].compactMap { $0 }.joined(separator: " ")
            if let file, let line { text += " at \(file):\(line)" }
            if let missing { text += " — \(missing)" }
            return text
        }
    }

    /// One operator of a chain (all its subscriptions at one place in the chain).
    public struct Operator: Sendable, Codable, Equatable {
        /// An identifier, unique while the inspector runs.
        public var id: Int
        /// The operator's name (`map`, `flatMapLatest`, `PublishSubject`, …).
        public var name: String
        /// The `named(_:)` label given at this place, or `nil`.
        public var label: String?
        /// The operator downstream of this one (its subscriber), or `nil` for the chain's first.
        public var parent: Int?
        /// Subscriptions at this place that are live now.
        public var liveSubscriptions: Int
        /// Subscriptions at this place since the chain began (inner sequences of `flatMap`, retries).
        public var totalSubscriptions: Int
    }

    /// The chains, oldest first: every live one and the most recently ended ones.
    public var chains: [Chain]

    /// The chains that are still live.
    public var liveChains: [Chain] { chains.filter(\.isLive) }
}

/// One event the inspector recorded, at the output of one operator.
public struct InspectorEvent: Sendable, Codable, Equatable {
    /// What kind of event it was.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum Kind: String, Sendable, Codable {
        /// An element.
        case next
        /// An error.
        case error
        /// Completion.
        case completed
    }

    /// The chain it belongs to.
    public var chain: Int
    /// The operator that emitted it.
    public var operatorID: Int
    /// That operator's name.
    public var operatorName: String
    /// That operator's `named(_:)` label, or `nil`.
    public var label: String?
    /// The kind of event.
    public var kind: Kind
    /// Seconds from `Inspector.start()`.
    public var time: Double
    /// The delivering thread.
    public var thread: String
    /// The element's or error's description when it was delivered, at most
    /// `Inspector.Configuration.valueLength` bytes of UTF-8: a longer string ends in
    /// `…(truncated, N bytes)` with its whole size; a large value shows its shape, its first
    /// elements and its count (see the Debugging streams article's "Large values"); `nil` for
    /// completion, `<redacted>` in a chain marked by `redactedInInspector()`.
    public var value: String?
}
#endif

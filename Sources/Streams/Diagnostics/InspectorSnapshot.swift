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
        /// The thread that subscribed.
        public var thread: String
        /// The call stack of the subscription (innermost first), when captured.
        public var callStack: [String]
        /// How many events the chain's ring buffer holds now.
        public var recordedEvents: Int
        /// How many events were dropped from the ring buffer because it was full.
        public var droppedEvents: Int

        /// The number of live subscriptions in the chain.
        public var liveSubscriptions: Int { operators.reduce(0) { $0 + $1.liveSubscriptions } }
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
    /// The element's or error's description, cut to `Inspector.Configuration.valueLength`
    /// characters; `nil` for completion.
    public var value: String?
}

#if Inspector
@_spi(StreamsInspectorSupport) import Streams
import Dispatch
import Foundation
import Synchronization

/// The inspector's records: chains, the places (operators) in them, and each chain's ring buffer
/// of events. One lock guards the chains and places; each chain's events have their own (an
/// event takes only its chain's), taken after this one when both are. Nothing is called out
/// under either.
final class InspectorRegistry: Sendable {
    static let shared = InspectorRegistry()

    private struct Place {
        var id: Int
        var name: String
        var label: String?
        var parent: Int?
        var live = 0
        var total = 0
    }

    private struct Chain {
        var id: Int
        var name: String?
        var places: [Place] = []
        var placeIndex: [PlaceKey: Int] = [:]
        var live = 0
        var subscribedAt: Double
        var thread: String
        var callStack: CapturedCallStack?
        /// The chain's events, shared with its records so that logging one needs no lookup; it
        /// also holds whether the chain is redacted, which the records read before keeping or
        /// describing a value.
        let log: InspectorChainLog
    }

    private struct PlaceKey: Hashable {
        var parent: Int?
        var name: String
        var label: String?
    }

    private struct State {
        var configuration = Inspector.Configuration()
        var nextID = 1
        var chains: [Int: Chain] = [:]
        var ended: [Int] = []

        func newLog() -> InspectorChainLog {
            InspectorChainLog(capacity: configuration.eventsPerChain, valueLength: configuration.valueLength)
        }
    }

    private let state = LockedState(State())
    /// When the clock started (`reset`), in uptime nanoseconds: read on every logged event, so
    /// kept apart from the locked state.
    private let origin = Atomic<UInt64>(InspectorRegistry.uptime())

    /// Seconds since the inspector's origin.
    func now() -> Double {
        let origin = origin.load(ordering: .relaxed)
        let now = Self.uptime()
        return now >= origin ? Double(now - origin) / 1e9 : 0
    }

    /// Monotonic nanoseconds, the inspector's clock (a logged event keeps them, converted to
    /// seconds since the origin when read): `clock_gettime` directly, a third of
    /// `DispatchTime.now()`'s instructions.
    @inline(__always)
    static func uptime() -> UInt64 {
        #if canImport(Darwin)
        return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
        #else
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        #endif
    }

    var configuration: Inspector.Configuration { state.withLock { $0.configuration } }

    /// Clears every record and restarts the clock with `configuration`.
    func reset(_ configuration: Inspector.Configuration) {
        origin.store(Self.uptime(), ordering: .relaxed)
        let old = state.withLock { state -> State in
            var fresh = State()
            fresh.configuration = configuration
            swap(&state, &fresh)
            return fresh
        }
        _ = old  // released outside the lock
    }

    /// Records a subscription at `name` under `parent` (or as a new chain's first).
    func begin(
        name: String, label: String?, parent: InspectorRecord?, thread: String, redacts: Bool = false,
        callStack: @autoclosure () -> CapturedCallStack?
    ) -> InspectorRecord {
        let time = now()
        let stack = parent == nil && configuration.capturesCallStacks ? callStack() : nil
        return state.withLock { state -> InspectorRecord in
            let chainID: Int
            if let parent, state.chains[parent.chain] != nil {
                chainID = parent.chain
            } else {
                chainID = state.nextID
                state.nextID += 1
                state.chains[chainID] = Chain(
                    id: chainID, subscribedAt: time, thread: thread, callStack: stack, log: state.newLog())
            }
            let key = PlaceKey(parent: parent?.chain == chainID ? parent?.place : nil, name: name, label: label)
            var chain =
                state.chains.removeValue(forKey: chainID)
                ?? Chain(id: chainID, subscribedAt: time, thread: thread, callStack: stack, log: state.newLog())
            let index: Int
            if let existing = chain.placeIndex[key] {
                index = existing
            } else {
                index = chain.places.count
                chain.places.append(Place(id: state.nextID, name: name, label: label, parent: key.parent))
                chain.placeIndex[key] = index
                // The log's lock is taken under the registry's (never the other way round).
                let logIndex = chain.log.addPlace(InspectorChainLog.Place(id: state.nextID, name: name, label: label))
                assert(Int(logIndex) == index)
                state.nextID += 1
            }
            chain.places[index].live += 1
            chain.places[index].total += 1
            chain.live += 1
            if chain.name == nil, let label { chain.name = label }
            if redacts { chain.log.redaction.mark() }
            let placeID = chain.places[index].id
            state.chains[chainID] = chain
            state.ended.removeAll { $0 == chainID }
            return InspectorRecord(
                chain: chainID, place: placeID, placeIndex: Int32(index), name: name, label: label, parent: parent, log: chain.log)
        }
    }

    /// Records that a subscription ended (disposed or terminated); called once per record.
    func end(_ record: InspectorRecord) {
        let pruned = state.withLock { state -> [Chain] in
            var becameIdle = false
            withChain(record.chain, in: &state) { chain in
                if let index = chain.places.firstIndex(where: { $0.id == record.place }) {
                    chain.places[index].live -= 1
                }
                chain.live -= 1
                becameIdle = chain.live == 0
            }
            guard becameIdle else { return [] }
            state.ended.append(record.chain)
            var removed: [Chain] = []
            while state.ended.count > state.configuration.retainedEndedChains {
                let oldest = state.ended.removeFirst()
                if let chain = state.chains.removeValue(forKey: oldest) { removed.append(chain) }
            }
            return removed
        }
        _ = pruned  // released outside the lock
    }

    /// The chains now; their call stacks are symbolicated after the lock is released.
    func snapshot() -> InspectorSnapshot {
        let (snapshot, stacks) = state.withLock { state -> (InspectorSnapshot, [CapturedCallStack?]) in
            let chains = state.chains.values.sorted { $0.id < $1.id }
            let snapshot = InspectorSnapshot(
                chains: chains.map { chain in
                    let counts = chain.log.counts
                    return InspectorSnapshot.Chain(
                        id: chain.id, name: chain.name,
                        operators: chain.places.map {
                            InspectorSnapshot.Operator(
                                id: $0.id, name: $0.name, label: $0.label, parent: $0.parent,
                                liveSubscriptions: $0.live, totalSubscriptions: $0.total)
                        },
                        isLive: chain.live > 0, subscribedAt: chain.subscribedAt, thread: chain.thread,
                        callStack: [], callSites: [], recordedEvents: counts.recorded,
                        droppedEvents: counts.dropped)
                })
            return (snapshot, chains.map(\.callStack))
        }
        var symbolicated = snapshot
        for (index, sites) in CallSiteSymbolicator.callSites(of: stacks).enumerated() {
            symbolicated.chains[index].callSites = sites
            symbolicated.chains[index].callStack = sites.map(\.description)
        }
        return symbolicated
    }

    /// The events of every chain, oldest chain first, each in order; values kept to be
    /// described when read are described after the locks are released.
    func events() -> [InspectorEvent] {
        let logs = state.withLock { state in
            state.chains.values.sorted { $0.id < $1.id }.map { (id: $0.id, log: $0.log) }
        }
        let origin = origin.load(ordering: .relaxed)
        return logs.flatMap { $0.log.events(chain: $0.id, origin: origin) }
    }

    private func withChain(_ id: Int, in state: inout State, _ body: (inout Chain) -> Void) {
        guard var chain = state.chains.removeValue(forKey: id) else { return }
        body(&chain)
        state.chains[id] = chain
    }
}

/// A chain's events and the places they were logged at, shared by the chain's records: an event
/// is appended through its record, without looking its chain up, under the log's own lock (an
/// event never takes the registry's lock). A record outliving its chain (forgotten, or the
/// inspector reset) appends to a log nobody reads, freed with the record.
final class InspectorChainLog: Sendable {
    /// What an event's place index stands for, kept for the export.
    struct Place {
        var id: Int
        var name: String
        var label: String?
    }

    private struct State {
        var places: [Place] = []
        var ring = InspectorEventRing()
    }

    /// Events kept (the configuration's `eventsPerChain` when the chain began).
    let capacity: Int
    /// Bytes of a value's description kept (`valueLength`), for values described when read.
    let valueLength: Int
    /// Whether a `redactedInInspector()` point subscribed in this chain: its values and errors
    /// are then logged as ``InspectorValues/redacted``, never described or kept.
    let redaction = InspectorRedaction()
    private let state: LockedState<State>

    init(capacity: Int, valueLength: Int) {
        self.capacity = capacity
        self.valueLength = valueLength
        state = LockedState(State())
    }

    /// Adds a place (in the registry's order of the chain's places) and returns its index.
    func addPlace(_ place: Place) -> Int32 {
        state.withLock { state in
            state.places.append(place)
            return Int32(state.places.count - 1)
        }
    }

    /// Appends an event whose value, if any, the event holds (``InspectorLoggedEvent/ValueKind``),
    /// dropping the oldest when the ring is full: plain stores under the lock.
    @inline(__always)
    func append(_ event: InspectorLoggedEvent) {
        let capacity = capacity
        // A payload replaced when full is released under the lock: it holds a string or a value
        // without references, whose release runs no code of the app's.
        state.withLock { $0.ring.append(event, capacity: capacity) }
    }

    /// Appends an event whose value is `payload` (its `value` is `.payload`).
    func append(_ event: InspectorLoggedEvent, payload: InspectorLoggedValue) {
        let capacity = capacity
        state.withLock { $0.ring.append(event, payload: payload, capacity: capacity) }
    }

    /// How many events the ring holds, and how many were dropped.
    var counts: (recorded: Int, dropped: Int) {
        state.withLock { ($0.ring.count, $0.ring.dropped) }
    }

    /// The events, in order, as the public ``InspectorEvent``s of chain `chain`: copied under the
    /// lock, described after it (a value kept to be described when read is described here, on the
    /// reading thread; its description is the one it would have had when it was sent).
    func events(chain: Int, origin: UInt64) -> [InspectorEvent] {
        let (places, logged) = state.withLock { ($0.places, $0.ring.inOrder) }
        let redacted = redaction.isMarked
        let limit = valueLength
        let threads = InspectorThreads.names(logged.lazy.map(\.event.thread))
        return logged.compactMap { event, payload in
            guard Int(event.place) < places.count else { return nil }
            let place = places[Int(event.place)]
            let value: String?
            switch (event.value, payload) {
            case (.redacted, _): value = InspectorValues.redacted
            case (.bits, _):
                if redacted {
                    value = InspectorValues.redacted
                } else if let type = event.type {
                    value = InspectorValueDescriber.describe(Self.value(of: type, bits: event.bits), limit: limit)
                } else {
                    value = nil
                }
            case (.payload, .text(let text)?): value = text
            case (.payload, .kept(let kept)?): value = redacted ? InspectorValues.redacted : InspectorValueDescriber.describe(kept, limit: limit)
            case (.none, _), (.payload, nil): value = nil
            }
            return InspectorEvent(
                chain: chain, operatorID: place.id, operatorName: place.name, label: place.label, kind: event.kind,
                time: event.time >= origin ? Double(event.time - origin) / 1e9 : 0, thread: threads[event.thread] ?? "", value: value)
        }
    }
}

extension InspectorChainLog {
    /// The value of `type` whose bytes are `bits` (see ``InspectorLoggedEvent/ValueKind/bits``).
    static func value(of type: Any.Type, bits: UInt64) -> Any {
        func load<Value>(_: Value.Type) -> Any {
            withUnsafeBytes(of: bits) { $0.loadUnaligned(as: Value.self) }
        }
        return _openExistential(type, do: load)
    }
}

/// One logged event, as the ring keeps it: trivially copyable, so that appending one is plain
/// stores (no string copied, no value witness run). Its place and thread are small indexes
/// resolved when read, its time the raw uptime in nanoseconds, and its value, when it is a value
/// of at most 8 bytes without references, its bytes and type; any other value (a description, a
/// kept string or collection) is the ring's payload beside it (``InspectorEventRing``).
struct InspectorLoggedEvent {
    /// What the event's value is.
    enum ValueKind: UInt8 {
        /// Completion: no value.
        case none
        /// A value or error of a redacted chain: ``InspectorValues/redacted``.
        case redacted
        /// A value of at most 8 bytes without references (an `Int`, a `Double`, a plain enum):
        /// `bits` and `type`.
        case bits
        /// The ring's payload for this event (``InspectorLoggedValue``).
        case payload
    }

    /// The place in the chain's log (``InspectorChainLog/addPlace(_:)``).
    var place: Int32
    /// The delivering thread's name, as an ``InspectorThreads`` identifier.
    var thread: UInt32
    var kind: InspectorEvent.Kind
    var value: ValueKind
    /// Uptime nanoseconds.
    var time: UInt64
    /// `.bits`: the value's bytes.
    var bits: UInt64 = 0
    /// `.bits`: the value's type.
    var type: Any.Type?
}

/// An event's value that is not trivially copyable, kept beside its event.
enum InspectorLoggedValue {
    /// Described when sent (a reference, a large value, an error).
    case text(String)
    /// A copy of a value with value semantics that holds no references (a string, a standard
    /// collection of such values, a plain struct larger than 8 bytes): described when read.
    case kept(Any)
}

/// A chain's events: a fixed-capacity ring, the oldest event dropped when it is full. The events
/// are trivially copyable; the values that are not (``InspectorLoggedValue``) sit in a second
/// array at their event's index, which only chains that log such values allocate.
struct InspectorEventRing {
    private(set) var events: [InspectorLoggedEvent] = []
    private var payloads: [InspectorLoggedValue?] = []
    private var head = 0
    private(set) var dropped = 0

    /// How many events the ring holds.
    var count: Int { events.count }

    /// Appends `event`, whose value (if any) it holds itself: plain stores, unless it replaces
    /// an event that had a payload (which is then released).
    @inline(__always)
    mutating func append(_ event: InspectorLoggedEvent, capacity: Int) {
        let (index, replacedPayload) = put(event, capacity: capacity)
        if replacedPayload { payloads[index] = nil }
    }

    /// Appends `event`, whose value is `payload` (`event.value` is `.payload`).
    mutating func append(_ event: InspectorLoggedEvent, payload: InspectorLoggedValue, capacity: Int) {
        let (index, _) = put(event, capacity: capacity)
        guard index >= 0 else { return }
        if payloads.count <= index { payloads.append(contentsOf: repeatElement(nil, count: index + 1 - payloads.count)) }
        payloads[index] = payload
    }

    /// Stores `event` in the next slot, dropping the oldest when full: the slot's index (-1 when
    /// the capacity is 0), and whether the event it replaced had a payload.
    @inline(__always)
    private mutating func put(_ event: InspectorLoggedEvent, capacity: Int) -> (index: Int, replacedPayload: Bool) {
        guard capacity > 0 else {
            dropped += 1
            return (-1, false)
        }
        if events.count < capacity {
            events.append(event)
            return (events.count - 1, false)
        }
        let index = head
        let replacedPayload = events[index].value == .payload
        events[index] = event
        head = index + 1 == events.count ? 0 : index + 1
        dropped += 1
        return (index, replacedPayload)
    }

    /// The events, oldest first, each with its payload.
    var inOrder: [(event: InspectorLoggedEvent, payload: InspectorLoggedValue?)] {
        (Array(head..<events.count) + Array(0..<head)).map { index in
            (events[index], events[index].value == .payload && index < payloads.count ? payloads[index] : nil)
        }
    }
}

/// Whether a chain is redacted (`redactedInInspector()`): set once, read on every event.
final class InspectorRedaction: Sendable {
    private let marked = Atomic<Bool>(false)

    /// Whether the chain's values and errors are recorded as ``InspectorValues/redacted``.
    var isMarked: Bool { marked.load(ordering: .relaxed) }

    /// Marks the chain redacted, for good.
    func mark() { marked.store(true, ordering: .relaxed) }
}

/// One inspected subscription: where it sits, and whether it has ended.
final class InspectorRecord: Sendable {
    let chain: Int
    let place: Int
    /// The place's index in the chain's log.
    let placeIndex: Int32
    let name: String
    let label: String?
    /// The subscription downstream of this one, which receives its events.
    let parent: InspectorRecord?
    /// The chain's events, and whether it is redacted (then values are neither kept nor described).
    let log: InspectorChainLog
    private let hasEnded = AtomicFlag()

    init(chain: Int, place: Int, placeIndex: Int32, name: String, label: String?, parent: InspectorRecord?, log: InspectorChainLog) {
        self.chain = chain
        self.place = place
        self.placeIndex = placeIndex
        self.name = name
        self.label = label
        self.parent = parent
        self.log = log
    }

    /// Ends the record the first time it is called.
    func end() {
        if hasEnded.set() { InspectorRegistry.shared.end(self) }
    }
}
#endif

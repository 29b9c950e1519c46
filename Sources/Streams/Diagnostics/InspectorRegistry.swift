#if Inspector
import Dispatch
import Foundation
import Synchronization

/// The inspector's records: chains, the places (operators) in them, and each chain's ring buffer
/// of events. One lock guards it all; nothing is called out under it.
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
        /// The chain's events, shared with its records so that logging one needs no lookup.
        let log = InspectorChainLog()
        /// Whether a `redactedInInspector()` point subscribed in this chain: its values and
        /// errors are then logged as ``InspectorValues/redacted``, never described. Shared with
        /// the chain's records, which read it before describing a value.
        let redaction = InspectorRedaction()
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
    }

    private let state = LockedState(State())
    /// When the clock started (`reset`), in uptime nanoseconds: read on every logged event, so
    /// kept apart from the locked state.
    private let origin = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)

    /// Seconds since the inspector's origin.
    func now() -> Double {
        let origin = origin.load(ordering: .relaxed)
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= origin ? Double(now - origin) / 1e9 : 0
    }

    var configuration: Inspector.Configuration { state.withLock { $0.configuration } }

    /// Clears every record and restarts the clock with `configuration`.
    func reset(_ configuration: Inspector.Configuration) {
        origin.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
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
                state.chains[chainID] = Chain(id: chainID, subscribedAt: time, thread: thread, callStack: stack)
            }
            let key = PlaceKey(parent: parent?.chain == chainID ? parent?.place : nil, name: name, label: label)
            var chain = state.chains.removeValue(forKey: chainID) ?? Chain(id: chainID, subscribedAt: time, thread: thread, callStack: stack)
            let index: Int
            if let existing = chain.placeIndex[key] {
                index = existing
            } else {
                index = chain.places.count
                chain.places.append(Place(id: state.nextID, name: name, label: label, parent: key.parent))
                chain.placeIndex[key] = index
                state.nextID += 1
            }
            chain.places[index].live += 1
            chain.places[index].total += 1
            chain.live += 1
            if chain.name == nil, let label { chain.name = label }
            if redacts { chain.redaction.mark() }
            let placeID = chain.places[index].id
            state.chains[chainID] = chain
            state.ended.removeAll { $0 == chainID }
            return InspectorRecord(
                chain: chainID, place: placeID, name: name, label: label, parent: parent, valueLength: state.configuration.valueLength,
                redaction: chain.redaction, log: chain.log)
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

    /// Appends an event to its chain's ring buffer, `log` (the record's: no lookup). A redacted
    /// chain's values were replaced before they were described (`InspectingObserver`).
    func log(_ event: InspectorEvent, into log: InspectorChainLog) {
        state.withLock { state in
            log.ring.append(event, capacity: state.configuration.eventsPerChain)
        }
    }

    /// The chains now; their call stacks are symbolicated after the lock is released.
    func snapshot() -> InspectorSnapshot {
        let (snapshot, stacks) = state.withLock { state -> (InspectorSnapshot, [CapturedCallStack?]) in
            let chains = state.chains.values.sorted { $0.id < $1.id }
            let snapshot = InspectorSnapshot(
                chains: chains.map { chain in
                    InspectorSnapshot.Chain(
                        id: chain.id, name: chain.name,
                        operators: chain.places.map {
                            InspectorSnapshot.Operator(
                                id: $0.id, name: $0.name, label: $0.label, parent: $0.parent,
                                liveSubscriptions: $0.live, totalSubscriptions: $0.total)
                        },
                        isLive: chain.live > 0, subscribedAt: chain.subscribedAt, thread: chain.thread,
                        callStack: [], callSites: [], recordedEvents: chain.log.ring.storage.count,
                        droppedEvents: chain.log.ring.dropped)
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

    /// The events of every chain, oldest chain first, each in order.
    func events() -> [InspectorEvent] {
        state.withLock { state in
            state.chains.values.sorted { $0.id < $1.id }.flatMap(\.log.ring.inOrder)
        }
    }

    private func withChain(_ id: Int, in state: inout State, _ body: (inout Chain) -> Void) {
        guard var chain = state.chains.removeValue(forKey: id) else { return }
        body(&chain)
        state.chains[id] = chain
    }
}

/// A chain's ring buffer of events, shared by the chain's records: an event is appended through
/// its record, without looking its chain up. A record outliving its chain (forgotten, or the
/// inspector reset) appends to a ring nobody reads, freed with the record.
final class InspectorChainLog: @unchecked Sendable {
    // Safety: `ring` is read and written only under the registry's lock.
    var ring = EventRing()
}

/// A fixed-capacity ring of events; the oldest is dropped when it is full.
struct EventRing {
    var storage: [InspectorEvent] = []
    var head = 0
    var dropped = 0

    mutating func append(_ event: InspectorEvent, capacity: Int) {
        guard capacity > 0 else {
            dropped += 1
            return
        }
        if storage.count < capacity {
            storage.append(event)
        } else {
            storage[head] = event
            head = (head + 1) % storage.count
            dropped += 1
        }
    }

    var inOrder: [InspectorEvent] { Array(storage[head...] + storage[..<head]) }
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
    let name: String
    let label: String?
    /// The subscription downstream of this one, which receives its events.
    let parent: InspectorRecord?
    /// How many bytes of a value's description are kept.
    let valueLength: Int
    /// Whether the chain is redacted (then values are not described).
    let redaction: InspectorRedaction
    /// The chain's events.
    let log: InspectorChainLog
    private let hasEnded = AtomicFlag()

    init(
        chain: Int, place: Int, name: String, label: String?, parent: InspectorRecord?, valueLength: Int,
        redaction: InspectorRedaction = InspectorRedaction(), log: InspectorChainLog = InspectorChainLog()
    ) {
        self.chain = chain
        self.place = place
        self.name = name
        self.label = label
        self.parent = parent
        self.valueLength = valueLength
        self.redaction = redaction
        self.log = log
    }

    /// Ends the record the first time it is called.
    func end() {
        if hasEnded.set() { InspectorRegistry.shared.end(self) }
    }
}
#endif

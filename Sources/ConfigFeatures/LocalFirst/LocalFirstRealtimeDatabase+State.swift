import Foundation
import Streams

extension LocalFirstRealtimeDatabase {
    /// One normalized change of a write: where, the value (server values as placeholders), and
    /// the placeholders.
    struct Change {
        let location: RealtimeDatabasePath
        let value: JSONValue
        let placeholders: [RealtimeDatabaseServerValue.Placeholder]
    }

    /// A write issued and not yet acknowledged or rejected.
    struct PendingWrite {
        let id: UInt64
        /// What is sent to the server (server values as placeholders).
        let write: RealtimeDatabaseWrite
        /// What the cache shows: the changes with server values resolved locally.
        let overlay: [(location: RealtimeDatabasePath, value: JSONValue)]
        let hasServerValues: Bool
        /// Who learns the outcome; `nil` once the write's subscription is disposed.
        var observer: AnyObserver<Void>?
        /// On disk (or no persistence): it may be sent.
        var isDurable = true
        /// The server values of each overlay entry (positions relative to its location).
        var placeholders: [[RealtimeDatabaseServerValue.Placeholder]] = []
        /// Whether the server's data has shown this write (its echo) since it was last sent.
        var isEchoed = false

        /// Whether `server` holds this write: its values at every location it wrote, server
        /// values matched by position (any number there, as the server resolves them itself).
        func isHeld(by server: JSONValue) -> Bool {
            overlay.indices.allSatisfy { index in
                let (location, written) = overlay[index]
                var stored = RealtimeDatabaseTree.value(at: location.segments[...], in: server)
                for placeholder in placeholders.indices.contains(index) ? placeholders[index] : [] {
                    let resolved = placeholder.keys.isEmpty ? stored : RealtimeDatabaseTree.value(at: placeholder.keys[...], in: stored)
                    guard case .number = resolved else { return false }
                    let local = placeholder.keys.isEmpty ? written : RealtimeDatabaseTree.value(at: placeholder.keys[...], in: written)
                    if placeholder.keys.isEmpty { stored = local } else { RealtimeDatabaseTree.set(local, at: placeholder.keys[...], in: &stored) }
                }
                return stored == written
            }
        }
    }

    /// A location synced with the server (observed, or kept synced).
    struct Sync {
        let location: RealtimeDatabasePath
        /// Observers plus one when kept synced.
        var users = 1
        var subscription: Disposable?
        /// Counts subscriptions, so that events and disposables of an ended one are ignored.
        var generation: UInt64 = 0
        var isSubscribed = false
        var isLoaded = false
        var error: Error?
        /// `State.acknowledgements` when the current subscription was made: its first value is
        /// newer than the writes acknowledged before then.
        var subscribedAfter: UInt64 = 0
        /// Whether the current subscription has not delivered its first value yet.
        var awaitsFirstValue = false
    }

    /// Something to do after leaving the lock, in the order recorded.
    enum Effect {
        /// Store these values in the cache (one atomic update).
        case updateCache([(location: RealtimeDatabasePath, value: JSONValue)])
        case setInfo(String, JSONValue)
        /// Subscribe to the remote value of a sync.
        case subscribe(sync: UInt64, generation: UInt64, RealtimeDatabasePath)
        /// Send a pending write.
        case send(write: UInt64, RealtimeDatabaseWrite)
        case dispose(Disposable)
        /// Complete a write's observable (`nil`), or fail it.
        case finish(AnyObserver<Void>, Error?)
        /// Start the reconnection timer for the `attempt`-th consecutive failure.
        case retry(generation: UInt64, attempt: Int)
        /// Store a write on disk, then mark it durable (or fail it).
        case persistWrite(write: UInt64, RealtimeDatabaseWrite, issuedAt: Date)
        /// Forget a stored write (acknowledged or rejected).
        case settlePersistedWrite(UInt64)
        /// Store the server's value at a synced location on disk.
        case persistServerValue(RealtimeDatabasePath, JSONValue)
        /// A synced location gained its first user (`true`) or lost its last one.
        case persistUse(RealtimeDatabasePath, Bool)
        /// Start the timer that stops laying acknowledged write `number` over the server's data
        /// if its echo has not arrived by then (see `echoTimeout`).
        case expireEcho(number: UInt64)
    }

    /// How long an acknowledged write stays laid over the server's data waiting for its echo.
    /// The echo normally arrives within a round trip; a stream that skipped it (reconnected,
    /// with another client's change in between) would otherwise hide the server's data until
    /// the location is subscribed again.
    static let echoTimeout: RxTimeInterval = .seconds(60)

    /// Everything the database changes, changed only under its lock. The methods record the
    /// effects of each change in `effects` instead of calling out.
    struct State {
        /// The server's data, as last received (and writes acknowledged since).
        var server: JSONValue = .null
        /// `server` with the pending writes on top: the cache's content.
        var view: JSONValue = .null
        var pending: [PendingWrite] = []
        /// Writes the server acknowledged before its data showed them (the acknowledgement
        /// overtook the server's events): still laid over `server`, after which `pending`, until
        /// the server's data has them (see `echoed`).
        var acknowledged: [(write: PendingWrite, number: UInt64)] = []
        /// How many acknowledgements have arrived.
        var acknowledgements: UInt64 = 0
        /// The `echoTimeout` timers of the `acknowledged` writes, by number.
        var echoTimers: [UInt64: Disposable] = [:]
        var nextWriteID: UInt64 = 0
        /// The write being sent (always the first pending one) and its request.
        var sendingID: UInt64?
        var sending: Disposable?
        var syncs: [UInt64: Sync] = [:]
        var syncIDs: [RealtimeDatabasePath: UInt64] = [:]
        var keptSynced: [RealtimeDatabasePath: UInt64] = [:]
        var nextSyncID: UInt64 = 0
        /// After `goOffline()`.
        var isOffline = false
        /// After a request failed because the server could not be reached.
        var isUnreachable = false
        var publishedConnected = true
        var publishedPendingCount = 0
        let policy: BackoffPolicy
        var failures = 0
        var retryTimer: Disposable?
        var retryGeneration: UInt64 = 0
        var effects = FIFOQueue<Effect>()
        var isRunningEffects = false
        /// Whether writes and server data are stored on disk.
        var persists = false

        init(backoff: ReconnectBackoff) {
            policy = backoff.policy
        }

        // MARK: Syncs

        /// Counts a user of `location`'s sync, creating it if needed; `cached` when the disk
        /// cache holds its data (in `server` since launch), which observers then read at once.
        mutating func acquireSync(_ location: RealtimeDatabasePath, cached: Bool = false) -> UInt64 {
            let id: UInt64
            if let existing = syncIDs[location] {
                id = existing
                syncs[id]?.users += 1
            } else {
                id = nextSyncID
                nextSyncID += 1
                syncs[id] = Sync(location: location)
                syncIDs[location] = id
                if persists { effects.append(.persistUse(location, true)) }
                if !isOffline { subscribe(id) }
            }
            if cached, syncs[id]?.isLoaded == false, syncs[id]?.error == nil {
                syncs[id]?.isLoaded = true
                effects.append(.setInfo(InfoPath.sync(id), "loaded"))
            }
            return id
        }

        mutating func releaseSync(_ id: UInt64) {
            guard var sync = syncs[id] else { return }
            sync.users -= 1
            guard sync.users == 0 else {
                syncs[id] = sync
                return
            }
            syncs[id] = nil
            syncIDs[sync.location] = nil
            if persists { effects.append(.persistUse(sync.location, false)) }
            if let subscription = sync.subscription { effects.append(.dispose(subscription)) }
            effects.append(.setInfo(InfoPath.sync(id), .null))
            // Acknowledged writes no subscription will deliver any more are stored as written
            // (the cache shows them already), as when none was subscribed at acknowledgement.
            let synced = syncs.values.map(\.location)
            let orphans = forgetAcknowledged { entry in
                !entry.write.overlay.allSatisfy { written in synced.contains { $0.isAncestor(ofOrEqualTo: written.location) } }
            }
            for write in orphans {
                for (location, value) in write.overlay {
                    RealtimeDatabaseTree.set(value, at: location.segments[...], in: &server)
                }
            }
        }

        mutating func keepSynced(_ location: RealtimeDatabasePath, _ enabled: Bool) {
            if enabled, keptSynced[location] == nil {
                keptSynced[location] = acquireSync(location)
            } else if !enabled, let id = keptSynced.removeValue(forKey: location) {
                releaseSync(id)
            }
        }

        private mutating func subscribe(_ id: UInt64) {
            guard var sync = syncs[id], !sync.isSubscribed, sync.error == nil else { return }
            sync.generation += 1
            sync.isSubscribed = true
            sync.subscribedAfter = acknowledgements
            sync.awaitsFirstValue = true
            syncs[id] = sync
            effects.append(.subscribe(sync: id, generation: sync.generation, sync.location))
        }

        private mutating func unsubscribe(_ id: UInt64) {
            guard var sync = syncs[id] else { return }
            if let subscription = sync.subscription { effects.append(.dispose(subscription)) }
            sync.subscription = nil
            sync.isSubscribed = false
            sync.generation += 1
            syncs[id] = sync
        }

        /// Keeps the remote subscription of a sync; `false` when it ended meanwhile (dispose it).
        mutating func keepSubscription(_ subscription: Disposable, sync id: UInt64, generation: UInt64) -> Bool {
            guard syncs[id]?.generation == generation, syncs[id]?.isSubscribed == true else { return false }
            syncs[id]?.subscription = subscription
            return true
        }

        mutating func remoteEvent(_ event: Event<JSONValue>, sync id: UInt64, generation: UInt64) {
            guard let sync = syncs[id], sync.generation == generation, sync.isSubscribed else { return }
            switch event {
            case .next(let value):
                if sync.awaitsFirstValue {
                    syncs[id]?.awaitsFirstValue = false
                    // A subscription made after an acknowledgement starts from data newer than
                    // that write: stop laying it over the server's data below this location.
                    forgetAcknowledged { entry in
                        entry.number <= sync.subscribedAfter && entry.write.overlay.allSatisfy { sync.location.isAncestor(ofOrEqualTo: $0.location) }
                    }
                }
                serverValue(value, at: sync.location)
                if persists { effects.append(.persistServerValue(sync.location, value)) }
                if !sync.isLoaded {
                    syncs[id]?.isLoaded = true
                    effects.append(.setInfo(InfoPath.sync(id), "loaded"))
                }
                reachable()
            case .error(let error) where LocalFirstRealtimeDatabase.isUnreachable(error):
                unsubscribe(id)
                unreachable()
            case .error(let error):
                unsubscribe(id)
                syncs[id]?.error = error
                effects.append(.setInfo(InfoPath.sync(id), "failed"))
            case .completed:
                unsubscribe(id)
            }
        }

        /// The server's `value` at `location` (an observation's value, or a transaction's
        /// result): store it, and show it under the pending writes.
        mutating func serverValue(_ value: JSONValue, at location: RealtimeDatabasePath) {
            let shownBefore = RealtimeDatabaseTree.value(at: location.segments[...], in: view)
            RealtimeDatabaseTree.set(value, at: location.segments[...], in: &server)
            let touched: (PendingWrite) -> Bool = { write in
                write.overlay.contains { location.isAncestor(ofOrEqualTo: $0.location) || $0.location.isAncestor(ofOrEqualTo: location) }
            }
            for index in pending.indices where !pending[index].isEchoed && touched(pending[index]) {
                pending[index].isEchoed = pending[index].isHeld(by: server)
            }
            // Echoed acknowledged writes are no longer laid on top; the locations they wrote
            // outside `location` show the server's data from now on too.
            let data = server
            let echoed = forgetAcknowledged { touched($0.write) && $0.write.isHeld(by: data) }
            let changes = recompute([location] + echoed.flatMap { $0.overlay.map(\.location) })
            // The server's echo of what the cache already shows changes nothing: skip storing
            // the location again (for a large location, most of an echo's cost).
            if changes.count == 1, changes[0].0 == location, changes[0].1 == shownBefore { return }
            effects.append(.updateCache(changes))
        }

        /// The values at `locations` recomputed, as one update of disjoint locations (an
        /// ancestor's value covers its descendants).
        private mutating func recompute(_ locations: [RealtimeDatabasePath]) -> [(location: RealtimeDatabasePath, value: JSONValue)] {
            var disjoint: [RealtimeDatabasePath] = []
            for candidate in locations.sorted(by: { $0.segments.count < $1.segments.count })
            where !disjoint.contains(where: { $0.isAncestor(ofOrEqualTo: candidate) }) {
                disjoint.append(candidate)
            }
            return disjoint.map { ($0, recompute($0)) }
        }

        /// Removes the acknowledged writes matching `predicate` (and their timers); returns them.
        @discardableResult
        private mutating func forgetAcknowledged(where predicate: ((write: PendingWrite, number: UInt64)) -> Bool) -> [PendingWrite] {
            var forgotten: [PendingWrite] = []
            acknowledged.removeAll { entry in
                guard predicate(entry) else { return false }
                forgotten.append(entry.write)
                if let timer = echoTimers.removeValue(forKey: entry.number) { effects.append(.dispose(timer)) }
                return true
            }
            return forgotten
        }

        /// Keeps the `echoTimeout` timer of acknowledged write `number`; `false` when the write
        /// is no longer waiting (dispose the timer).
        mutating func keepEchoTimer(_ timer: Disposable, number: UInt64) -> Bool {
            guard acknowledged.contains(where: { $0.number == number }) else { return false }
            echoTimers[number] = timer
            return true
        }

        /// The echo of acknowledged write `number` did not arrive in time: show the server's
        /// data without it.
        mutating func echoExpired(number: UInt64) {
            echoTimers[number] = nil
            let expired = forgetAcknowledged { $0.number == number }
            guard !expired.isEmpty else { return }
            effects.append(.updateCache(recompute(expired.flatMap { $0.overlay.map(\.location) })))
        }

        /// The value at `location` of the server's data with the pending writes applied in
        /// order; stored in `view`.
        private mutating func recompute(_ location: RealtimeDatabasePath) -> JSONValue {
            var value = RealtimeDatabaseTree.value(at: location.segments[...], in: server)
            let depth = location.segments.count
            func layer(_ overlay: [(location: RealtimeDatabasePath, value: JSONValue)]) {
                for (written, writtenValue) in overlay {
                    if written.isAncestor(ofOrEqualTo: location) {
                        value = RealtimeDatabaseTree.value(at: location.segments[written.segments.count...], in: writtenValue)
                    } else if location.isAncestor(ofOrEqualTo: written) {
                        RealtimeDatabaseTree.set(writtenValue, at: written.segments[depth...], in: &value)
                    }
                }
            }
            // Acknowledged writes are older than the pending ones (no copy of either list).
            for index in acknowledged.indices { layer(acknowledged[index].write.overlay) }
            for index in pending.indices { layer(pending[index].overlay) }
            RealtimeDatabaseTree.set(value, at: location.segments[...], in: &view)
            return value
        }

        // MARK: Writes

        /// Applies and queues a write; `restored` when it was read back from disk at launch.
        mutating func issue(_ write: RealtimeDatabaseWrite, _ changes: [Change], observer: AnyObserver<Void>?, now: Date, restored: Bool = false) -> UInt64 {
            let id = nextWriteID
            nextWriteID += 1
            // Server values resolve against the cache as it is now (the estimated server time,
            // the cached number), in the same critical section as the write.
            let overlay = changes.map { change -> (location: RealtimeDatabasePath, value: JSONValue) in
                var value = change.value
                RealtimeDatabaseServerValue.resolve(change.placeholders, in: &value, writtenAt: change.location, root: view, now: now)
                return (change.location, value)
            }
            for (location, value) in overlay {
                RealtimeDatabaseTree.set(value, at: location.segments[...], in: &view)
            }
            let hasServerValues = changes.contains { !$0.placeholders.isEmpty }
            let isDurable = !persists || restored
            pending.append(
                PendingWrite(
                    id: id, write: write, overlay: overlay, hasServerValues: hasServerValues, observer: observer,
                    isDurable: isDurable, placeholders: changes.map(\.placeholders)))
            effects.append(.updateCache(overlay))
            if !isDurable { effects.append(.persistWrite(write: id, write, issuedAt: now)) }
            publishPendingCount()
            sendNext()
            return id
        }

        /// Forgets the observer of a write whose subscription was disposed (the write goes on).
        /// - Complexity: O(log p) for p pending writes (they are in issue order, so by ID).
        mutating func detach(_ id: UInt64) {
            var low = pending.startIndex
            var high = pending.endIndex
            while low < high {
                let middle = (low + high) / 2
                if pending[middle].id < id { low = middle + 1 } else { high = middle }
            }
            if low < pending.endIndex, pending[low].id == id { pending[low].observer = nil }
        }

        mutating func sendNext() {
            guard !isOffline, !isUnreachable, sendingID == nil, pending.first?.isDurable == true else { return }
            send()
        }

        /// Sends the first pending write. Whether the server's data already shows it starts over
        /// from the data as seen now, so an echo is one that arrives after this send (or the
        /// data already holds the write, and storing it changes nothing).
        mutating func send() {
            pending[0].isEchoed = pending[0].isHeld(by: server)
            sendingID = pending[0].id
            effects.append(.send(write: pending[0].id, pending[0].write))
        }

        /// Keeps the request of the write being sent; `false` when it ended meanwhile.
        mutating func keepSending(_ request: Disposable, write id: UInt64) -> Bool {
            guard sendingID == id else { return false }
            sending = request
            return true
        }

        mutating func sendEvent(_ event: Event<Void>, write id: UInt64, isUnreachable: Bool) {
            guard sendingID == id, let first = pending.first, first.id == id else { return }
            switch event {
            case .next:
                return
            case .completed:
                sendingID = nil
                sending = nil
                pending.removeFirst()
                acknowledge(first)
                settle(first, error: nil)
                reachable()
            case .error where isUnreachable:
                sendingID = nil
                sending = nil
                unreachable()
            case .error(let error):
                sendingID = nil
                sending = nil
                pending.removeFirst()
                settle(first, error: error)
            }
            sendNext()
        }

        /// Decides how an acknowledged write stays shown. The server's events and its
        /// acknowledgements travel separately (over REST, a stream and a request), so either
        /// may come first: when the server's data has already shown the write, its data is
        /// current; when a subscription will deliver it, the write stays laid over the server's
        /// data until it does, so an older value arriving meanwhile (a snapshot taken before
        /// the write, another client's earlier change) does not hide it; otherwise it is
        /// stored as written (or, holding server values, waits for the server's values).
        private mutating func acknowledge(_ write: PendingWrite) {
            acknowledgements += 1
            if write.isEchoed { return }
            let awaited = write.overlay.allSatisfy { written in
                syncs.values.contains { $0.isSubscribed && $0.location.isAncestor(ofOrEqualTo: written.location) }
            }
            if awaited {
                acknowledged.append((write, acknowledgements))
                effects.append(.expireEcho(number: acknowledgements))
            } else if !write.hasServerValues {
                for (location, value) in write.overlay {
                    RealtimeDatabaseTree.set(value, at: location.segments[...], in: &server)
                }
            }
        }

        /// Shows the cache without `write` (acknowledged, or rejected) and tells its observer.
        mutating func settle(_ write: PendingWrite, error: Error?) {
            effects.append(.updateCache(write.overlay.map { ($0.location, recompute($0.location)) }))
            if persists, write.isDurable { effects.append(.settlePersistedWrite(write.id)) }
            if let observer = write.observer { effects.append(.finish(observer, error)) }
            publishPendingCount()
        }

        // MARK: Connection

        mutating func goOffline() {
            guard !isOffline else { return }
            isOffline = true
            for id in syncs.keys.sorted() { unsubscribe(id) }
            if let sending { effects.append(.dispose(sending)) }
            sendingID = nil
            sending = nil
            cancelRetry()
            publishConnected()
        }

        mutating func goOnline() {
            guard isOffline else { return }
            isOffline = false
            isUnreachable = false
            failures = 0
            publishConnected()
            resume()
        }

        /// A request reached the server.
        private mutating func reachable() {
            failures = 0
            guard isUnreachable else { return }
            isUnreachable = false
            cancelRetry()
            publishConnected()
            resume()
        }

        /// A request failed because the server could not be reached: retry after a backoff.
        private mutating func unreachable() {
            if !isUnreachable {
                isUnreachable = true
                publishConnected()
            }
            guard !isOffline, retryTimer == nil else { return }
            failures += 1
            guard policy.allowsAttempt(failures) else { return }
            retryGeneration += 1
            retryTimer = Disposables.create()
            effects.append(.retry(generation: retryGeneration, attempt: failures))
        }

        mutating func keepRetryTimer(_ timer: Disposable, generation: UInt64) -> Bool {
            guard retryGeneration == generation, retryTimer != nil else { return false }
            retryTimer = timer
            return true
        }

        mutating func retryFired(generation: UInt64) {
            guard retryGeneration == generation, retryTimer != nil else { return }
            retryTimer = nil
            guard isUnreachable, !isOffline else { return }
            let probes = syncs.values.contains { !$0.isSubscribed && $0.error == nil } || !pending.isEmpty
            guard probes else {
                // Nothing to try the server with: assume it is back; the next request tells.
                reachable()
                return
            }
            for id in syncs.keys.sorted() { subscribe(id) }
            if sendingID == nil, pending.first?.isDurable == true { send() }
        }

        private mutating func cancelRetry() {
            retryGeneration += 1
            if let retryTimer { effects.append(.dispose(retryTimer)) }
            retryTimer = nil
        }

        /// Resubscribes every sync (its first value reconciles the cache) and sends the queue.
        private mutating func resume() {
            for id in syncs.keys.sorted() { subscribe(id) }
            sendNext()
        }

        private mutating func publishConnected() {
            let connected = !isOffline && !isUnreachable
            guard connected != publishedConnected else { return }
            publishedConnected = connected
            effects.append(.setInfo(InfoPath.connected, .bool(connected)))
        }

        private mutating func publishPendingCount() {
            guard pending.count != publishedPendingCount else { return }
            publishedPendingCount = pending.count
            effects.append(.setInfo(InfoPath.pendingWriteCount, .number(Double(pending.count))))
        }
    }
}

/// The paths of a ``LocalFirstRealtimeDatabase``'s `info` database.
enum InfoPath {
    static let connectedPath = ".info/connected"
    static let connected = "connected"
    static let pendingWriteCount = "pendingWriteCount"
    static func sync(_ id: UInt64) -> String { "syncs/s\(id)" }
}

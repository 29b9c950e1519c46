import ConfigFeatures
import Foundation
import Streams

/// The local-first database's workloads (issue 31): the cost of one write issued through a
/// `LocalFirstRealtimeDatabase` whose cache holds a tree of 1,000 or 100,000 children, with 10
/// observers of other children or 100 observers of the written child, offline (the local part
/// alone: cache, observers, queue) or online (sent to an in-memory server, acknowledged and
/// echoed back). All on a `HistoricalScheduler`, drained after each write.
///
/// The unit is one write; the cost per write is best read as the difference between two
/// `--size` runs (each run also builds the tree). The offline workloads keep every write
/// queued, so their peak RSS between two sizes gives the memory per pending write.
func localFirstWorkloads() -> [Workload] {
    [
        localFirstWrite(name: "localfirst_write_offline_tree1k", tree: 1_000, observers: 10, onLeaf: false, online: false),
        localFirstWrite(name: "localfirst_write_offline_tree100k", tree: 100_000, observers: 10, onLeaf: false, online: false),
        localFirstWrite(name: "localfirst_write_offline_100observers", tree: 1_000, observers: 100, onLeaf: true, online: false),
        localFirstWrite(name: "localfirst_write_online_tree1k", tree: 1_000, observers: 10, onLeaf: false, online: true),
        localFirstWrite(name: "localfirst_write_online_tree100k", tree: 100_000, observers: 10, onLeaf: false, online: true),
        localFirstDrain(),
    ]
}

/// `n` writes queued offline (`q/k<i> = i`, nothing observed), then `goOnline()`: the queue
/// is sent, one write at a time, until every write is acknowledged. The checksum is the sum of
/// the acknowledged writes' values.
private func localFirstDrain() -> Workload {
    Workload(name: "localfirst_drain_queue", unit: "write", baseSize: 20_000, events: { $0 }, expected: triangular) { n in
        let sum = Tally()
        defer { sum.free() }
        let scheduler = HistoricalScheduler()
        let database = LocalFirstRealtimeDatabase(remote: InMemoryRealtimeDatabase(scheduler: scheduler), scheduler: scheduler)
        database.goOffline()
        let writes = (0..<n).map { i in
            database.setValue(.number(Double(i)), at: "q/k\(i)").subscribe(onCompleted: { sum.add(i) })
        }
        scheduler.start()
        database.goOnline()
        scheduler.start()
        writes.forEach { $0.dispose() }
        return sum.value
    }
}

/// `n` writes `g/k<i % tree> = i` (or `g/k0 = i` when `onLeaf`) through a local-first
/// database whose cache syncs `g` (`tree` children, all 0). `observers` observe `g/k0`…
/// `g/k<observers-1>` (or all `g/k0` when `onLeaf`); the checksum is the sum of what they saw.
private func localFirstWrite(name: String, tree: Int, observers: Int, onLeaf: Bool, online: Bool) -> Workload {
    let key: (Int) -> Int = { onLeaf ? 0 : $0 % tree }
    return Workload(
        name: name, unit: "write", baseSize: 100_000, events: { $0 },
        expected: { n in
            // Each observer sees the first value (0), then every write to its child that
            // changes it (all of them but a first write of 0, which adds nothing).
            var sum = 0
            for i in 0..<n where key(i) < observers { sum &+= i }
            return onLeaf ? observers &* sum : sum
        }
    ) { n in
        let sum = Tally()
        defer { sum.free() }
        let scheduler = HistoricalScheduler()
        let seed = JSONValue.object(Dictionary(uniqueKeysWithValues: (0..<tree).map { ("k\($0)", JSONValue.number(0)) }))
        guard let server = try? InMemoryRealtimeDatabase(scheduler: scheduler, value: ["g": seed]) else {
            fatalError("\(name): the seed tree is invalid")
        }
        let database = LocalFirstRealtimeDatabase(remote: server, scheduler: scheduler)
        database.keepSynced("g", true)
        let subscriptions = (0..<observers).map { index in
            database.observeValue(at: "g/k\(onLeaf ? 0 : index)").subscribe(onNext: { value in
                if case .number(let number) = value { sum.add(Int(number)) }
            })
        }
        scheduler.start()
        if !online { database.goOffline() }
        var writes: [Disposable] = []
        writes.reserveCapacity(n)
        for i in 0..<n {
            writes.append(database.setValue(.number(Double(i)), at: "g/k\(key(i))").subscribe())
            scheduler.start()
        }
        // Offline, the writes are still queued: disposing them lets go of their observers.
        writes.forEach { $0.dispose() }
        subscriptions.forEach { $0.dispose() }
        database.keepSynced("g", false)
        scheduler.start()
        return sum.value
    }
}

import Foundation
import Streams

/// One benchmark: a pipeline built the way an app builds it, pumped `size` times.
///
/// `run` performs the work once and returns a checksum of everything the final observer saw;
/// `expected` computes the same checksum with plain loops (no Streams), so a wrong or dropped
/// delivery fails the run instead of producing a fast but meaningless number. A workload
/// without such a model (`expected: nil`, e.g. `throttle_virtual_time`) is reported as
/// "unchecked"; its runs must still agree with each other.
public struct Workload {
    /// The name used by `--filter` and in the reports (as in issues 6 and 12).
    public let name: String
    /// What one counted "event" is ("event", "delivery", "chain").
    public let unit: String
    /// The size at scale 1 (what a run receives is this times the scale, at least 1).
    public let baseSize: Int
    private let eventsForSize: (Int) -> Int
    private let expectedForSize: ((Int) -> Int)?
    private let runForSize: (Int) -> Int

    init(name: String, unit: String, baseSize: Int, events: @escaping (Int) -> Int,
         expected: ((Int) -> Int)?, run: @escaping (Int) -> Int) {
        self.name = name
        self.unit = unit
        self.baseSize = baseSize
        self.eventsForSize = events
        self.expectedForSize = expected
        self.runForSize = run
    }

    /// The size a run at `scale` uses: `baseSize` times `scale`, rounded, at least 1.
    public func size(at scale: Double) -> Int {
        max(1, Int((Double(baseSize) * scale).rounded()))
    }

    /// How many units a run of size `size` performs (the divisor for ns per event).
    public func events(size: Int) -> Int { eventsForSize(size) }

    /// How many units a run at `scale` performs.
    public func events(at scale: Double) -> Int { eventsForSize(size(at: scale)) }

    /// Whether the workload has a plain-loop checksum model (false: reported as "unchecked").
    public var isChecked: Bool { expectedForSize != nil }

    /// The checksum a correct run of size `size` produces (computed with plain loops); nil
    /// when the workload has no model.
    public func expected(size: Int) -> Int? { expectedForSize?(size) }

    /// The checksum a correct run at `scale` produces; nil when the workload has no model.
    public func expected(at scale: Double) -> Int? { expectedForSize?(size(at: scale)) }

    /// Runs the workload once at size `size` and returns its checksum.
    public func run(size: Int) -> Int { runForSize(size) }

    /// Runs the workload once at `scale` and returns its checksum.
    public func run(at scale: Double) -> Int { runForSize(size(at: scale)) }
}

/// A wrapping running sum behind a pointer: the cheapest possible observer body (a captured
/// `var` would add a dynamic exclusivity check per call, which is not the library's cost).
struct Tally {
    private let pointer: UnsafeMutablePointer<Int>
    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: 0)
    }
    @inline(__always) func add(_ value: Int) { pointer.pointee &+= value }
    var value: Int { pointer.pointee }
    func free() { pointer.deallocate() }
}

/// Sum of `0..<n` with wrapping arithmetic (the checksum of most pumps).
func triangular(_ n: Int) -> Int {
    var sum = 0
    for i in 0..<n { sum &+= i }
    return sum
}

/// Holds a closure where the optimizer cannot see it, for the `direct_closure` floor.
final class ClosureBox {
    let call: (Int) -> Void
    init(_ call: @escaping (Int) -> Void) { self.call = call }
}

@inline(never)
func makeBox(_ call: @escaping (Int) -> Void) -> ClosureBox { ClosureBox(call) }

/// Every workload of issue 6, plus the `direct_closure` floor, in report order.
public func allWorkloads() -> [Workload] {
    let million = 1_000_000
    return [
        // The floor: a loop calling a stored closure (what one delivery cannot beat).
        Workload(name: "direct_closure", unit: "event", baseSize: 10 * million, events: { $0 }, expected: triangular) { n in
            let sum = Tally()
            defer { sum.free() }
            let box = makeBox { sum.add($0) }
            for i in 0..<n { box.call(i) }
            return withExtendedLifetime(box) { sum.value }
        },

        // PublishSubject -> one subscriber.
        Workload(name: "publish_subject_pump", unit: "event", baseSize: 10 * million, events: { $0 }, expected: triangular) { n in
            let sum = Tally()
            defer { sum.free() }
            let subject = PublishSubject<Int>()
            let subscription = subject.subscribe(onNext: { sum.add($0) })
            for i in 0..<n { subject.onNext(i) }
            subscription.dispose()
            return sum.value
        },

        // PublishSubject -> 100 subscribers; counted per delivery.
        Workload(name: "publish_subject_pump_100subs", unit: "delivery", baseSize: 100_000, events: { $0 * 100 }, expected: { 100 &* triangular($0) }) { n in
            let sum = Tally()
            defer { sum.free() }
            let subject = PublishSubject<Int>()
            let subscriptions = (0..<100).map { _ in subject.subscribe(onNext: { sum.add($0) }) }
            for i in 0..<n { subject.onNext(i) }
            subscriptions.forEach { $0.dispose() }
            return sum.value
        },

        // PublishSubject -> map -> filter -> map -> subscribe.
        Workload(name: "map_filter_pump", unit: "event", baseSize: 10 * million, events: { $0 }, expected: mapFilterModel) { n in
            let sum = Tally()
            defer { sum.free() }
            let subject = PublishSubject<Int>()
            let subscription = subject
                .map { $0 &* 2 }
                .filter { $0 % 3 == 0 }
                .map { $0 &+ 1 }
                .subscribe(onNext: { sum.add($0) })
            for i in 0..<n { subject.onNext(i) }
            subscription.dispose()
            return sum.value
        },

        // Observable.range -> map -> filter (the source loops synchronously on subscribe).
        Workload(name: "range_map_filter", unit: "event", baseSize: million, events: { $0 }, expected: rangeModel) { n in
            let sum = Tally()
            defer { sum.free() }
            var completed = 0
            let subscription = Observable.range(start: 0, count: n)
                .map { $0 &* 2 }
                .filter { $0 % 3 == 0 }
                .subscribe(onNext: { sum.add($0) }, onCompleted: { completed += 1 })
            subscription.dispose()
            return completed == 1 ? sum.value : -1
        },

        // PublishSubject -> scan (running sum) -> subscribe.
        Workload(name: "scan_pump", unit: "event", baseSize: 10 * million, events: { $0 }, expected: scanModel) { n in
            let sum = Tally()
            defer { sum.free() }
            let subject = PublishSubject<Int>()
            let subscription = subject
                .scan(0) { $0 &+ $1 }
                .subscribe(onNext: { sum.add($0) })
            for i in 0..<n { subject.onNext(i) }
            subscription.dispose()
            return sum.value
        },

        // Two subjects, alternately fed (even i -> a, odd i -> b), combined by addition.
        Workload(name: "combineLatest_pump", unit: "event", baseSize: 5 * million, events: { $0 }, expected: combineLatestModel) { n in
            let sum = Tally()
            defer { sum.free() }
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            let subscription = Observable.combineLatest(a, b) { $0 &+ $1 }
                .subscribe(onNext: { sum.add($0) })
            for i in 0..<n {
                if i & 1 == 0 { a.onNext(i) } else { b.onNext(i) }
            }
            subscription.dispose()
            return sum.value
        },

        // a.withLatestFrom(b), alternately fed (even i -> a, odd i -> b).
        Workload(name: "withLatestFrom_pump", unit: "event", baseSize: 5 * million, events: { $0 }, expected: withLatestFromModel) { n in
            let sum = Tally()
            defer { sum.free() }
            let a = PublishSubject<Int>()
            let b = PublishSubject<Int>()
            let subscription = a.withLatestFrom(b) { $0 &+ $1 }
                .subscribe(onNext: { sum.add($0) })
            for i in 0..<n {
                if i & 1 == 0 { a.onNext(i) } else { b.onNext(i) }
            }
            subscription.dispose()
            return sum.value
        },

        // Each outer element -> Observable.just(element), merged.
        Workload(name: "flatMap_pump", unit: "event", baseSize: million, events: { $0 }, expected: triangular) { n in
            let sum = Tally()
            defer { sum.free() }
            let subject = PublishSubject<Int>()
            let subscription = subject
                .flatMap { Observable.just($0) }
                .subscribe(onNext: { sum.add($0) })
            for i in 0..<n { subject.onNext(i) }
            subscription.dispose()
            return sum.value
        },

        // Each outer element -> a new BehaviorSubject(value: element); the previous inner is dropped.
        Workload(name: "flatMapLatest_pump", unit: "event", baseSize: million, events: { $0 }, expected: triangular) { n in
            let sum = Tally()
            defer { sum.free() }
            let subject = PublishSubject<Int>()
            let subscription = subject
                .flatMapLatest { BehaviorSubject(value: $0) }
                .subscribe(onNext: { sum.add($0) })
            for i in 0..<n { subject.onNext(i) }
            subscription.dispose()
            return sum.value
        },

        // Per chain: create a subject, subscribe subject -> map -> filter, dispose. Checksum:
        // chains built; the run fails if any resource outlives its chain (Resources.total).
        Workload(name: "subscribe_dispose_churn", unit: "chain", baseSize: million, events: { $0 }, expected: { $0 }) { n in
            let baseline = Resources.total
            var chains = 0
            var delivered = 0
            for _ in 0..<n {
                let subject = PublishSubject<Int>()
                let subscription = subject
                    .map { $0 &+ 1 }
                    .filter { $0 & 1 == 0 }
                    .subscribe(onNext: { delivered &+= $0 })
                subscription.dispose()
                chains += 1
            }
            return Resources.total == baseline && delivered == 0 ? chains : -1
        },

        // BehaviorRelay.accept with one subscriber (which first receives the initial 0).
        Workload(name: "behavior_relay_accept", unit: "event", baseSize: 10 * million, events: { $0 }, expected: triangular) { n in
            let sum = Tally()
            defer { sum.free() }
            let relay = BehaviorRelay(value: 0)
            let subscription = relay.subscribe(onNext: { sum.add($0) })
            for i in 0..<n { relay.accept(i) }
            subscription.dispose()
            return sum.value
        },

        // PublishSubject -> observe(on: serial dispatch queue) -> subscribe; the producer pumps
        // as fast as it can, then completes and waits for the queue to drain.
        Workload(name: "observeOn_serial_queue", unit: "event", baseSize: million, events: { $0 }, expected: triangular) { n in
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "streams-bench.observeOn")
            let done = DispatchSemaphore(value: 0)
            // Written on the scheduler's queue only; read after `done` is signalled.
            let sum = Tally()
            defer { sum.free() }
            let subject = PublishSubject<Int>()
            let subscription = subject
                .observe(on: scheduler)
                .subscribe(onNext: { sum.add($0) }, onCompleted: { done.signal() })
            for i in 0..<n { subject.onNext(i) }
            subject.onCompleted()
            done.wait()
            subscription.dispose()
            return sum.value
        },

        // 100 subjects merged; fed round-robin, 100 events each per "size" unit.
        Workload(name: "merge_100", unit: "event", baseSize: 100_000, events: { $0 * 100 }, expected: { 100 &* triangular($0) }) { n in
            let sum = Tally()
            defer { sum.free() }
            let subjects = (0..<100).map { _ in PublishSubject<Int>() }
            let subscription = Observable.merge(subjects.map { $0.asObservable() })
                .subscribe(onNext: { sum.add($0) })
            for i in 0..<n {
                for subject in subjects { subject.onNext(i) }
            }
            subscription.dispose()
            return sum.value
        },
    ]
}

// MARK: - Reference models (plain loops computing each workload's checksum)

func mapFilterModel(_ n: Int) -> Int {
    var sum = 0
    for i in 0..<n {
        let doubled = i &* 2
        if doubled % 3 == 0 { sum &+= doubled &+ 1 }
    }
    return sum
}

func rangeModel(_ n: Int) -> Int {
    var sum = 0
    for i in 0..<n {
        let doubled = i &* 2
        if doubled % 3 == 0 { sum &+= doubled }
    }
    return sum
}

func scanModel(_ n: Int) -> Int {
    var sum = 0
    var running = 0
    for i in 0..<n {
        running &+= i
        sum &+= running
    }
    return sum
}

func combineLatestModel(_ n: Int) -> Int {
    var sum = 0
    var a: Int?
    var b: Int?
    for i in 0..<n {
        if i & 1 == 0 { a = i } else { b = i }
        if let a, let b { sum &+= a &+ b }
    }
    return sum
}

func withLatestFromModel(_ n: Int) -> Int {
    var sum = 0
    var b: Int?
    for i in 0..<n {
        if i & 1 == 0 {
            if let b { sum &+= i &+ b }
        } else {
            b = i
        }
    }
    return sum
}

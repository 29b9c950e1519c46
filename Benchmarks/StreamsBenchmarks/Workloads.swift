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
    /// What one counted "event" is ("event", "delivery", "chain", "subscription", "element").
    public let unit: String
    /// The size at scale 1 (what a run receives is this times the scale, at least 1).
    public let baseSize: Int
    private let eventsForSize: (Int) -> Int
    private let expectedForSize: ((Int) -> Int)?
    private let prepareForSize: (Int) -> () -> Int

    init(
        name: String, unit: String, baseSize: Int, events: @escaping (Int) -> Int,
        expected: ((Int) -> Int)?, run: @escaping (Int) -> Int
    ) {
        self.init(name: name, unit: unit, baseSize: baseSize, events: events, expected: expected, prepare: { size in { run(size) } })
    }

    /// A workload whose untimed `prepare` (a seeded database, a first snapshot) returns the timed
    /// part of a run.
    init(
        name: String, unit: String, baseSize: Int, events: @escaping (Int) -> Int,
        expected: ((Int) -> Int)?, prepare: @escaping (Int) -> () -> Int
    ) {
        self.name = name
        self.unit = unit
        self.baseSize = baseSize
        self.eventsForSize = events
        self.expectedForSize = expected
        self.prepareForSize = prepare
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
    public func run(size: Int) -> Int { prepareForSize(size)() }

    /// Runs the workload once at `scale` and returns its checksum.
    public func run(at scale: Double) -> Int { run(size: size(at: scale)) }

    /// Does the untimed part of a run at size `size` (most workloads have none) and returns the
    /// timed part, which returns the checksum.
    public func prepare(size: Int) -> () -> Int { prepareForSize(size) }
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

/// Runs `body(index)` for `index` in `0..<count`, each on its own new thread, all released at
/// once by a start gate, and returns when every thread has ended (joined, having released
/// `body`, so nothing it captured outlives the call).
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let gate = DispatchSemaphore(value: 0)
    let threads = (0..<count).map { index in
        guard
            let thread = startThread({
                gate.wait(); body(index)
            })
        else {
            fatalError("runOnThreads: could not start thread \(index) of \(count)")
        }
        return thread
    }
    for _ in 0..<count { gate.signal() }
    for thread in threads { joinThread(thread) }
}

/// Every workload of issue 6, plus the `direct_closure` floor, then those of issue 12, then the
/// local-first database's (issue 31, in LocalFirstWorkloads.swift), in report order.
public func allWorkloads() -> [Workload] {
    issue6Workloads() + issue12Workloads() + localFirstWorkloads() + rulesWorkloads() + inspectorWorkloads()
}

/// The 14 workloads of issue 6 (the `direct_closure` floor first).
func issue6Workloads() -> [Workload] {
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
        Workload(name: "map_filter_pump", unit: "event", baseSize: 10 * million, events: { $0 }, expected: mapFilterModel, run: mapFilterPump),

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
            let subscription =
                subject
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
            let subscription =
                subject
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
            let subscription =
                subject
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
                let subscription =
                    subject
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
            return pumpObservedOn(scheduler, n)
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

/// The workloads of issue 12 ("Performance, measured honestly"): what apps do that the issue-6
/// set does not cover. Same names, pipelines, sizes and checksum models as the team's
/// cross-library harness (which compiles them against RxSwift too).
func issue12Workloads() -> [Workload] {
    let million = 1_000_000
    return [
        // share(replay: 1) on a hot subject, 10 subscribers; counted per delivery.
        Workload(
            name: "share_replay1_10subs", unit: "delivery", baseSize: million, events: { $0 * 10 },
            expected: { 10 &* triangular($0) }
        ) { n in
            let sum = Tally()
            defer { sum.free() }
            let subject = PublishSubject<Int>()
            let shared = subject.share(replay: 1)
            let subscriptions = (0..<10).map { _ in shared.subscribe(onNext: { sum.add($0) }) }
            for i in 0..<n { subject.onNext(i) }
            subscriptions.forEach { $0.dispose() }
            return sum.value
        },

        // subject -> 20 x map { $0 + 1 } -> subscribe.
        Workload(
            name: "deep_chain_20maps", unit: "event", baseSize: 2 * million, events: { $0 },
            expected: { triangular($0) &+ 20 &* $0 }
        ) { n in
            let sum = Tally()
            defer { sum.free() }
            let subject = PublishSubject<Int>()
            var chain = subject.asObservable()
            for _ in 0..<20 { chain = chain.map { $0 &+ 1 } }
            let subscription = chain.subscribe(onNext: { sum.add($0) })
            for i in 0..<n { subject.onNext(i) }
            subscription.dispose()
            return sum.value
        },

        // subject -> observe(on: a concurrent dispatch queue) -> subscribe; the producer pumps,
        // completes and waits for the completion to arrive.
        Workload(
            name: "observeOn_concurrent_queue", unit: "event", baseSize: million, events: { $0 },
            expected: triangular
        ) { n in
            let queue = DispatchQueue(label: "streams-bench.observeOn.concurrent", attributes: .concurrent)
            let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
            return pumpObservedOn(scheduler, n)
        },

        // Observable.from(array) -> toArray (a Single) -> the observer sums the array (and adds
        // its count). The array is built inside the timed run.
        Workload(
            name: "from_array_toArray", unit: "element", baseSize: million, events: { $0 },
            expected: { triangular($0) &+ $0 }
        ) { n in
            let array = Array(0..<n)
            let sum = Tally()
            defer { sum.free() }
            let subscription = Observable.from(array).toArray()
                .subscribe(onSuccess: { elements in
                    sum.add(elements.count)
                    for x in elements { sum.add(x) }
                })
            subscription.dispose()
            return sum.value
        },

        // ReplaySubject(bufferSize: 100) fed 200 elements (holds 100..<200): per unit, subscribe
        // (100 replayed) and dispose.
        Workload(
            name: "replay100_subscribe_churn", unit: "subscription", baseSize: 100_000, events: { $0 },
            expected: { $0 &* (100..<200).reduce(0, +) }
        ) { n in
            let sum = Tally()
            defer { sum.free() }
            let subject = ReplaySubject<Int>.create(bufferSize: 100)
            for i in 0..<200 { subject.onNext(i) }
            for _ in 0..<n {
                let subscription = subject.subscribe(onNext: { sum.add($0) })
                subscription.dispose()
            }
            return sum.value
        },

        // combineLatest of 8 subjects (summed), fed round-robin: i -> subject i % 8.
        Workload(
            name: "combineLatest8_pump", unit: "event", baseSize: 2 * million, events: { $0 },
            expected: combineLatest8Model
        ) { n in
            let sum = Tally()
            defer { sum.free() }
            let s = (0..<8).map { _ in PublishSubject<Int>() }
            let subscription = Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) {
                $0 &+ $1 &+ $2 &+ $3 &+ $4 &+ $5 &+ $6 &+ $7
            }
            .subscribe(onNext: { sum.add($0) })
            for i in 0..<n { s[i & 7].onNext(i) }
            subscription.dispose()
            return sum.value
        },

        // debounce(10 ms) on a HistoricalScheduler (virtual time): groups of 4 events 1 ms
        // apart, then a 20 ms gap, advancing the clock after each event, so the 4th of each
        // group is emitted.
        Workload(
            name: "debounce_virtual_time", unit: "event", baseSize: 200_000, events: { $0 },
            expected: debounceModel
        ) { n in
            let sum = Tally()
            defer { sum.free() }
            return burstTimeline(n, into: sum) { $0.debounce(.milliseconds(10), scheduler: $1) }
        },

        // throttle(10 ms, latest: true) on a HistoricalScheduler, same timeline as debounce.
        // No plain-loop model (the cross-library harness cross-checks it against RxSwift):
        // reported as unchecked; every run must produce the same checksum.
        Workload(
            name: "throttle_virtual_time", unit: "event", baseSize: 200_000, events: { $0 },
            expected: nil
        ) { n in
            let sum = Tally()
            defer { sum.free() }
            return burstTimeline(n, into: sum) { $0.throttle(.milliseconds(10), latest: true, scheduler: $1) }
        },

        // 4 threads, each pumping n elements into its own subject; the 4 are merged (the
        // contract: calls into one subject are serialized, so each thread has its own).
        Workload(
            name: "merge4_threads", unit: "event", baseSize: million, events: { $0 * 4 },
            expected: { 4 &* triangular($0) }
        ) { n in
            let sum = Tally()
            defer { sum.free() }
            let subjects = (0..<4).map { _ in PublishSubject<Int>() }
            let subscription = Observable.merge(subjects.map { $0.asObservable() })
                .subscribe(onNext: { sum.add($0) })
            runOnThreads(4) { index in
                let subject = subjects[index]
                for i in 0..<n { subject.onNext(i) }
            }
            subscription.dispose()
            return sum.value
        },

        // A one-shot request-style pipeline per element: Single.just -> map -> subscribe, dispose.
        Workload(
            name: "single_just_map_churn", unit: "chain", baseSize: million, events: { $0 },
            expected: { triangular($0) &+ $0 }
        ) { n in
            let sum = Tally()
            defer { sum.free() }
            for i in 0..<n {
                let subscription = Single.just(i).map { $0 &+ 1 }.subscribe(onSuccess: { sum.add($0) })
                subscription.dispose()
            }
            return sum.value
        },

        // n subscribers on one subject, one element, then disposed newest first (removal from
        // a large observer list), then one more element (reaching nobody). Counted per
        // subscription (subscribe + dispose); the cost per unit grows with n (see `--size`).
        Workload(
            name: "many_subs_dispose_lifo", unit: "subscription", baseSize: 20_000, events: { $0 },
            expected: { $0 }
        ) { n in
            let sum = Tally()
            defer { sum.free() }
            let subject = PublishSubject<Int>()
            let subscriptions = (0..<n).map { _ in subject.subscribe(onNext: { sum.add($0) }) }
            subject.onNext(1)
            for subscription in subscriptions.reversed() { subscription.dispose() }
            subject.onNext(1)
            return sum.value
        },

        // n subscribers on one subject in a DisposeBag, one element, then disposed by releasing
        // the bag (insertion order), then one more element (reaching nobody).
        Workload(
            name: "many_subs_disposebag", unit: "subscription", baseSize: 20_000, events: { $0 },
            expected: { $0 }
        ) { n in
            let sum = Tally()
            defer { sum.free() }
            let subject = PublishSubject<Int>()
            var bag = DisposeBag()
            for _ in 0..<n { subject.subscribe(onNext: { sum.add($0) }).disposed(by: bag) }
            subject.onNext(1)
            bag = DisposeBag()
            subject.onNext(1)
            return withExtendedLifetime(bag) { sum.value }
        },
    ]
}

// MARK: - Reference models (plain loops computing each workload's checksum)

/// `map_filter_pump`'s pipeline (also run with the inspector recording): n elements through
/// PublishSubject -> map -> filter -> map -> subscribe.
func mapFilterPump(_ n: Int) -> Int {
    let sum = Tally()
    defer { sum.free() }
    let subject = PublishSubject<Int>()
    let subscription =
        subject
        .map { $0 &* 2 }
        .filter { $0 % 3 == 0 }
        .map { $0 &+ 1 }
        .subscribe(onNext: { sum.add($0) })
    for i in 0..<n { subject.onNext(i) }
    subscription.dispose()
    return sum.value
}

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

func combineLatest8Model(_ n: Int) -> Int {
    var latest = [Int?](repeating: nil, count: 8)
    var sum = 0
    for i in 0..<n {
        latest[i & 7] = i
        if latest.allSatisfy({ $0 != nil }) { sum &+= latest.reduce(0) { $0 &+ $1! } }
    }
    return sum
}

func debounceModel(_ n: Int) -> Int {
    var sum = 0
    for i in 0..<n where i & 3 == 3 { sum &+= i }
    return sum
}

/// Runs `n` events through `stage` on a `HistoricalScheduler`: groups of 4 events 1 ms apart,
/// then a 20 ms gap, advancing the clock after each event; returns the checksum.
func burstTimeline(_ n: Int, into sum: Tally, _ stage: (Observable<Int>, HistoricalScheduler) -> Observable<Int>) -> Int {
    let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
    let subject = PublishSubject<Int>()
    let subscription = stage(subject.asObservable(), scheduler).subscribe(onNext: { sum.add($0) })
    var milliseconds = 0
    for i in 0..<n {
        subject.onNext(i)
        milliseconds += i & 3 == 3 ? 20 : 1
        scheduler.advanceTo(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
    subscription.dispose()
    return sum.value
}

/// Pumps `n` elements through `observe(on: scheduler)`, completes, and waits until the
/// completion has been delivered; returns the checksum. The sum is written by the deliveries
/// (serialized by `observe(on:)`) and read after the completion.
func pumpObservedOn(_ scheduler: ImmediateSchedulerType, _ n: Int) -> Int {
    let done = DispatchSemaphore(value: 0)
    let sum = Tally()
    defer { sum.free() }
    let subject = PublishSubject<Int>()
    let subscription =
        subject
        .observe(on: scheduler)
        .subscribe(onNext: { sum.add($0) }, onCompleted: { done.signal() })
    for i in 0..<n { subject.onNext(i) }
    subject.onCompleted()
    done.wait()
    subscription.dispose()
    return sum.value
}

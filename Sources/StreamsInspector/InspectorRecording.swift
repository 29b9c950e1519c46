#if Inspector
import Foundation
@_spi(StreamsInspectorSupport) import Streams

extension InspectorRegistry: InspectorRecorder {
    /// Records a subscription to `source` and runs `body` with an observer that records the
    /// events `source` delivers, and with this subscription as the parent of the ones `body` makes.
    @inline(never)
    func subscribe<Source: AnyObject, Observer: ObserverType>(
        _ source: Source,
        _ observer: Observer,
        label: String?,
        redacts: Bool,
        _ body: (any ObserverType<Observer.Element>) -> Disposable
    ) -> Disposable {
        let record = begin(
            name: InspectorNames.operatorName(of: type(of: source)), label: label, parent: InspectorContext.current,
            thread: InspectorThreads.current(), redacts: redacts, callStack: CapturedCallStack.capture())
        let inspecting = InspectingObserver(observer: observer, record: record, keeping: .forElement)
        let subscription = InspectorContext.with(record) { body(inspecting) }
        return InspectedSubscription(subscription, record: record)
    }
}

/// Forwards events to the subscriber, logging each in the chain's ring buffer first.
///
/// Logging an event takes the chain's own lock (not the registry's), reads the clock and the
/// thread's name identifier, and keeps the element (when ``InspectorKeeping`` allows: a
/// number, a small string or collection of them) or a description bounded in work and size: its
/// cost does not depend on the value's size.
struct InspectingObserver<Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element
    let observer: Observer
    let record: InspectorRecord
    /// The record's log and parent, unretained (the record holds them, and this observer the
    /// record): read per event without a retain and release.
    private let log: Unmanaged<InspectorChainLog>
    private let parent: Unmanaged<InspectorRecord>?
    /// Whether elements are kept (``InspectorKeeping``), and when `keepIfSmall`, the check.
    let keeping: InspectorKeepingMode
    let fits: ((Element, Int) -> Bool)?

    init(observer: Observer, record: InspectorRecord, keeping: InspectorKeeping<Element>) {
        self.observer = observer
        self.record = record
        log = Unmanaged.passUnretained(record.log)
        parent = record.parent.map { Unmanaged.passUnretained($0) }
        switch keeping {
        case .describe:
            self.keeping = .describe
            fits = nil
        case .keep:
            // Trivially copyable (`.keep` holds no references): at most 8 bytes are kept as
            // their bits, in the event itself.
            self.keeping = MemoryLayout<Element>.size <= 8 ? .keepBits : .keep
            fits = nil
        case .keepIfSmall(let check):
            self.keeping = .keepIfSmall
            fits = check
        }
    }

    // `onNext` and `onCompleted` are the library's fast paths (no `Event` is built: a metadata
    // lookup in this generic code); `on` dispatches to them.

    func onNext(_ element: Element) {
        // The thread's object, looked up once for the event's thread name and its context (and
        // not in a closure capturing `self`, whose context would need this generic type's
        // metadata on every event).
        let local = InspectorThreads.locals.withCurrent { Unmanaged.passUnretained($0) }
        if InspectorHook.isRecording { logNext(element, thread: local._withUnsafeGuaranteedRef { $0.threadID() }) }
        // Subscriptions the subscriber makes while handling the event (flatMap's inner ones)
        // belong under it.
        InspectorContext.with(parent, in: local) { observer.onNext(element) }
    }

    func onCompleted() {
        if InspectorHook.isRecording { record.log.append(event(.completed, .none)) }
        InspectorContext.with(record.parent) { observer.onCompleted() }
        record.end()
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            if InspectorHook.isRecording {
                // A redacted chain's errors are never described (they may hold secrets).
                let chainLog = record.log
                if chainLog.redaction.isMarked {
                    chainLog.append(self.event(.error, .redacted))
                } else {
                    let value = InspectorValueDescriber.describe(error, limit: chainLog.valueLength)
                    chainLog.append(self.event(.error, .payload), payload: .text(value))
                }
            }
            InspectorContext.with(record.parent) { observer.on(event) }
            record.end()
        case .completed:
            onCompleted()
        }
    }

    /// Logs an element: its bytes, kept, or described now (see ``InspectorKeeping``); in a
    /// redacted chain, neither kept nor described (its description may hold secrets).
    private func logNext(_ element: Element, thread: UInt32) {
        // Not in a closure (`_withUnsafeGuaranteedRef`): one capturing `self` would need this
        // generic type's metadata on every event.
        let log = log.takeUnretainedValue()
        if log.redaction.isMarked { return log.append(event(.next, .redacted, thread: thread)) }
        switch keeping {
        case .keepBits:
            var bits: UInt64 = 0
            withUnsafeMutableBytes(of: &bits) { $0.storeBytes(of: element, as: Element.self) }
            var event = event(.next, .bits, thread: thread)
            event.bits = bits
            event.type = Element.self
            log.append(event)
        case .keep:
            log.append(event(.next, .payload, thread: thread), payload: .kept(element))
        case .keepIfSmall where fits?(element, log.valueLength) == true:
            log.append(event(.next, .payload, thread: thread), payload: .kept(element))
        case .keepIfSmall, .describe:
            let text = InspectorValueDescriber.describe(element, limit: log.valueLength)
            log.append(event(.next, .payload, thread: thread), payload: .text(text))
        }
    }

    /// An event of this place, now, on this thread (its value's bits still to be filled in).
    @inline(__always)
    private func event(
        _ kind: InspectorEvent.Kind, _ value: InspectorLoggedEvent.ValueKind, thread: UInt32 = InspectorThreads.currentID()
    ) -> InspectorLoggedEvent {
        InspectorLoggedEvent(place: record.placeIndex, thread: thread, kind: kind, value: value, time: InspectorRegistry.uptime())
    }
}

/// A recorded subscription's disposable: disposing it ends the record.
private final class InspectedSubscription: Disposable, @unchecked Sendable {
    // Safety: both properties are immutable; disposables are thread-safe to dispose, and the
    // record ends once (its flag is atomic).
    private let subscription: Disposable
    private let record: InspectorRecord

    init(_ subscription: Disposable, record: InspectorRecord) {
        self.subscription = subscription
        self.record = record
    }

    func dispose() {
        subscription.dispose()
        record.end()
    }
}

/// The subscription being made or served on this thread, so that the subscriptions it makes are
/// recorded as its children.
enum InspectorContext {
    /// The current record of this thread, or `nil` outside any inspected subscription.
    static var current: InspectorRecord? { InspectorThreads.locals.withCurrent { $0.record?.takeUnretainedValue() } }

    /// Runs `body` with `record` as this thread's current record, then restores the previous one.
    /// The caller keeps `record` alive meanwhile.
    @inline(__always)
    static func with<Result>(_ record: InspectorRecord?, _ body: () -> Result) -> Result {
        // Borrowed: the thread's object lives as long as its thread, and is only used on it.
        // Kept alive in a `defer`, not around `body`: a frame of the standard library's
        // `withExtendedLifetime` would otherwise stand between Streams and the user's code, and
        // be taken for the call site.
        defer { withExtendedLifetime(record) {} }
        return with(
            record.map { Unmanaged.passUnretained($0) }, in: InspectorThreads.locals.withCurrent { Unmanaged.passUnretained($0) }, body)
    }

    /// ``with(_:_:)`` with the thread's object already looked up (it lives as long as its
    /// thread, and is only used on it), and `record` unretained (the caller holds it).
    @inline(__always)
    static func with<Result>(
        _ record: Unmanaged<InspectorRecord>?, in local: Unmanaged<InspectorThreads.Local>, _ body: () -> Result
    ) -> Result {
        let previous = local._withUnsafeGuaranteedRef { $0.record }
        local._withUnsafeGuaranteedRef { $0.record = record }
        defer { local._withUnsafeGuaranteedRef { $0.record = previous } }
        return body()
    }
}

/// Operator and thread names for the inspector.
enum InspectorNames {
    private static let special: [String: String] = [
        "AnonymousObservable": "create", "Array": "from", "Sequence": "from", "Optional": "from(optional:)",
        "SkipCount": "skip", "TakeCount": "take", "TakeUntil": "take(until:)", "TakeUntilPredicate": "take(until:)",
        "MergeArray": "merge", "CombineLatestArity": "combineLatest", "CombineLatestCollection": "combineLatest",
        "ZipArity": "zip", "ZipCollection": "zip", "Switch": "flatMapLatest", "Concatenation": "concat",
        "DefaultIfEmpty": "ifEmpty", "SwitchIfEmpty": "ifEmpty", "JustObservable": "just", "NeverObservable": "never",
        "TerminalObservable": "empty/error", "ShareObservable": "share", "ShareReplaySubject": "share(replay:)",
        "NamedObservable": "named", "RedactedObservable": "redactedInInspector", "Catch": "catch", "CatchSequence": "catch(sequence:)",
        "FilterNil": "filterNil",
    ]
    private static let cache = LockedState([ObjectIdentifier: String]())

    /// `map` for `MapProducer<Int, Int>`, `PublishSubject` for `PublishSubject<Int>`.
    static func operatorName(of type: Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let known = cache.withLock({ $0[id] }) { return known }
        var name = String(describing: type)
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        let result: String
        if let special = special[name] {
            result = special
        } else if name.hasSuffix("Producer") {
            let base = String(name.dropLast("Producer".count))
            result = special[base] ?? (base.prefix(1).lowercased() + base.dropFirst())
        } else {
            result = name
        }
        cache.withLock { $0[id] = result }
        return result
    }
}

/// Value descriptions as the inspector keeps them.
enum InspectorValues {
    /// What a chain marked by `redactedInInspector()` logs in place of each value and error.
    static let redacted = "<redacted>"

    /// `text` whole when it fits in `limit` bytes of UTF-8; otherwise its first `limit` bytes (at
    /// most, cut between characters) and `…(truncated, N bytes)`, N being the whole text's size.
    static func bounded(_ text: String, to limit: Int) -> String {
        let size = text.utf8.count
        guard size > limit else { return text }
        let utf8 = text.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) { utf8.formIndex(before: &end) }
        return String(text[..<end]) + "…(truncated, \(size) bytes)"
    }
}
#endif

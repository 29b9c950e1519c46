// `map` followed by `map`, fused into one stage when the chain is built (as RxSwift 4's
// `composeMap` did): a chain of n `map`s makes one sink and one `SinkDisposer` per subscription
// instead of n of each, and an element crosses one sink, which calls the n transforms in turn. See
// Sources/Streams/Streams.docc/Performance.md, "Operator fusion".

/// One `map` of a fused chain, applied in place to the chain's buffer: moves the previous
/// value (or the source element) out of `buffer` and stores its own result there, or with
/// `discard` only destroys that value.
///
/// Each stage after the first is built by `map` where it is inlined into the caller's code
/// (`mapChainStage(_:)`), where its two element types are concrete: a stage of `Int`s loads,
/// calls its transform and stores, with no value-witness calls. A class, so that the sink can
/// call a stage through an unretained reference (no retain and release of the closure's context
/// per stage and element), and so that an array of stages holds the closure as it is, not
/// behind a reabstraction thunk.
@usableFromInline
final class MapChainStage {
    /// Applies the stage to `buffer` (see the type's summary).
    @usableFromInline let run: (_ buffer: UnsafeMutableRawPointer, _ discard: Bool) throws -> Void

    /// A stage that runs `run`.
    @inlinable
    init(_ run: @escaping (_ buffer: UnsafeMutableRawPointer, _ discard: Bool) throws -> Void) {
        self.run = run
    }
}

/// `transform` as one stage of a fused chain of `map`s (see `MapChainStage`).
@inlinable
func mapChainStage<Element, Result>(_ transform: @escaping (Element) throws -> Result) -> MapChainStage {
    MapChainStage { buffer, discard in
        let element = buffer.assumingMemoryBound(to: Element.self).move()
        if discard { return }
        buffer.initializeMemory(as: Result.self, to: try transform(element))
    }
}

/// The size and alignment of a buffer that holds any value of a fused chain of `map`s (the
/// source element and every result).
struct MapChainLayout {
    private(set) var byteCount: Int
    private(set) var alignment: Int

    /// The layout of a chain of `Source` and `Result`s.
    init<Source, Result>(_ source: Source.Type, _ result: Result.Type) {
        byteCount = max(1, MemoryLayout<Source>.size, MemoryLayout<Result>.size)
        alignment = max(MemoryLayout<Source>.alignment, MemoryLayout<Result>.alignment)
    }

    /// This layout, also holding `Result`s.
    func adding<Result>(_ result: Result.Type) -> MapChainLayout {
        var layout = self
        layout.byteCount = max(byteCount, MemoryLayout<Result>.size)
        layout.alignment = max(alignment, MemoryLayout<Result>.alignment)
        return layout
    }
}

/// The stages of a fused chain of `map`s, in order, with the layout of their buffer; built once
/// per chain and shared by its subscriptions.
final class MapChain {
    /// The stages (which keep them alive).
    let stages: [MapChainStage]
    /// The same stages, unretained, in memory this chain owns: what the sink calls, with no
    /// retain and release per element (of an array buffer) or per stage (of a closure context).
    let unretained: UnsafeMutableBufferPointer<Unmanaged<MapChainStage>>
    let layout: MapChainLayout

    init(stages: [MapChainStage], layout: MapChainLayout) {
        self.stages = stages
        unretained = .allocate(capacity: stages.count)
        _ = unretained.initialize(from: stages.lazy.map { Unmanaged.passUnretained($0) })
        self.layout = layout
    }

    deinit {
        unretained.deallocate()
    }

    /// This chain followed by `stage`, which makes `Result`s.
    func appending<Result>(_ stage: MapChainStage, result: Result.Type) -> MapChain {
        MapChain(stages: stages + [stage], layout: layout.adding(Result.self))
    }
}

/// The sink of a fused chain of `map`s: runs the stages in turn on a buffer on the stack and
/// forwards the last result, exactly as the unfused sinks would.
final private class MapMapSink<Source, Result, Observer: ObserverType>: StageSink<Source, Observer>, ObserverType where Observer.Element == Result {
    typealias Element = Source
    /// Keeps `stages` alive.
    private let chain: MapChain
    // The chain's stages and layout in one stored property (see `MapFilterSink`).
    private let stages: (list: UnsafeMutableBufferPointer<Unmanaged<MapChainStage>>, layout: MapChainLayout)

    init(chain: MapChain, observer: Observer, cancel: SinkDisposer) {
        self.chain = chain
        stages = (chain.unretained, chain.layout)
        super.init(observer: observer, cancel: cancel)
    }

    /// Subscribes this sink to `source` (see `MapSink.subscribeSelf(to:)`).
    func subscribeSelf(to source: Observable<Source>) -> Disposable {
        source.subscribe(self)
    }

    /// Receives an element from the subject it is registered in (as its own node).
    override __consuming func receiveNext(_ element: Source) { onNext(element) }

    @inline(__always)  // into its protocol witness: one call frame per stage (see `Sink.forwardNext`)
    func onNext(_ element: Source) {
        // A buffer per element, not per sink: a transform may send into the source again.
        let (list, layout) = stages
        withUnsafeTemporaryAllocation(byteCount: layout.byteCount, alignment: layout.alignment) { raw in
            let buffer = raw.baseAddress.unsafelyUnwrapped
            buffer.initializeMemory(as: Source.self, to: element)
            let completed: Bool
            do {
                completed = try runStages(list, on: buffer)
            } catch {
                forwardError(error)
                return
            }
            // Stopped between two stages: the buffer is empty.
            guard completed else { return }
            forwardNext(buffer.assumingMemoryBound(to: Result.self).move())
        }
    }

    /// Runs `list` in turn on `buffer`; returns `false` when the sink was stopped between two
    /// stages (the value in flight is destroyed: the buffer is empty).
    @inline(__always)
    private func runStages(_ list: UnsafeMutableBufferPointer<Unmanaged<MapChainStage>>, on buffer: UnsafeMutableRawPointer) throws -> Bool {
        try list[0]._withUnsafeGuaranteedRef { try $0.run(buffer, false) }
        var index = 1
        while index < list.count {
            // Unfused, each `map` sink forwards to the next only while it is not disposed: a
            // transform that disposes the subscription never reaches the transforms after it.
            if isDisposed {
                try list[index]._withUnsafeGuaranteedRef { try $0.run(buffer, true) }
                return false
            }
            try list[index]._withUnsafeGuaranteedRef { try $0.run(buffer, false) }
            index &+= 1
        }
        return true
    }

    /// Completes without building an ``Event`` (a metadata lookup in this generic code).
    func onCompleted() {
        forwardCompleted()
    }

    func on(_ event: Event<Source>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            forwardError(error)
        case .completed:
            forwardCompleted()
        }
    }
}

/// A chain of two or more `map`s as one producer (built by `MapProducer.mapStage(_:)`, and by its
/// own `mapStage(_:)` for each further `map`): `source` mapped by every transform in order.
///
/// While the inspector records, a subscription goes through the chain as written instead (the
/// last `map` applied to `upstream`, which unfuses itself in turn), so that the inspector shows
/// every `map`.
final class MapMapProducer<Source, Middle, Result>: Producer<Result> {
    private let source: Observable<Source>
    private let chain: MapChain
    /// The chain before the last `map`, as written (a `MapProducer` or another `MapMapProducer`).
    private let upstream: Observable<Middle>
    private let last: (Middle) throws -> Result

    /// `upstream.map(last)` on `source`, where `chain` is all of the chain's `map`s.
    init(source: Observable<Source>, chain: MapChain, upstream: Observable<Middle>, last: @escaping (Middle) throws -> Result) {
        self.source = source
        self.chain = chain
        self.upstream = upstream
        self.last = last
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Result {
        if InspectorHook.isRecording { return unfused().subscribe(observer) }
        return super.subscribe(observer)
    }

    /// The chain as written: the last `map` applied to the chain before it.
    @inline(never)
    private func unfused() -> Observable<Result> {
        MapProducer(source: upstream, transform: last)
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Result {
        // The sink's type from the cache, and subscribed by its own method (see `MapProducer.run`).
        let sinkType = MetatypeCache.type(owner: type(of: self), observer: Observer.self) {
            MapMapSink<Source, Result, Observer>.self
        }
        let sink = unsafeBitCast(sinkType, to: MapMapSink<Source, Result, Observer>.Type.self)
            .init(chain: chain, observer: observer, cancel: cancel)
        // A subject takes the sink as its own node (see `StageSink`); anything else gets it as an observer.
        if let subscription = source.register(stage: sink) { return (sink, subscription) }
        return (sink, sink.subscribeSelf(to: source))
    }

    /// `map` after this chain: one more stage in the same sink.
    override func mapStage<Next>(_ next: @escaping (Result) throws -> Next, stage: () -> MapChainStage) -> Observable<Next>? {
        let producerType = MetatypeCache.stageType(owner: type(of: self), result: Next.self) {
            MapMapProducer<Source, Result, Next>.self
        }
        return unsafeBitCast(producerType, to: MapMapProducer<Source, Result, Next>.Type.self)
            .init(source: source, chain: chain.appending(stage(), result: Next.self), upstream: self, last: next)
    }
}

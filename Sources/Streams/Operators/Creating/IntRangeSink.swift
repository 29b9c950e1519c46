/// `RangeSink` for a range of `Int` (the default element type of `Observable.range`), already
/// checked for overflow: counts in concrete `Int` arithmetic and hands each element to the
/// observer in place, where `RangeSink`, unspecialized, calls the integer protocols' witnesses
/// and looks up their metadata for every element. See Sources/Streams/Streams.docc/Performance.md, "range".
///
/// Built only when `Observer.Element` is `Int` (checked by `RangeProducer.run`).
final class IntRangeSink<Observer: ObserverType>: SteppingSink<Observer> {
    private let start: Int
    private let count: Int
    // Only the step being run touches it (steps of one subscription never overlap).
    @exclusivity(unchecked) private var index = 0

    init(start: Int, count: Int, observer: Observer, cancel: SinkDisposer) {
        precondition(Observer.Element.self == Int.self, "IntRangeSink needs an observer of Int")
        self.start = start
        self.count = count
        super.init(observer: observer, cancel: cancel)
    }

    override func step() -> Bool {
        guard index < count else {
            forwardCompleted()
            return false
        }
        var value = start &+ index
        index &+= 1
        // `Observer.Element` is `Int` (checked in `init`): the element is forwarded from where it lies.
        withUnsafePointer(to: &value) { pointer in
            UnsafeRawPointer(pointer).withMemoryRebound(to: Observer.Element.self, capacity: 1) { element in
                forwardNext(element.pointee)
            }
        }
        return true
    }
}

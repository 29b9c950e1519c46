// Fuzzes the marble strings of the test kit (`StreamsTest`, public): `MarbleDiagram.init`
// (`Marbles.parse`), `recordedEvents`, drawing events back (`Marbles.string(from:)`),
// `Marbles.mismatch`, and hot and cold observables on a `TestScheduler`.
//
// Input: the marble text. Checks: a diagram's events match its own text (`mismatch` is nil),
// and drawing them gives a diagram with the same events (drawing is the inverse of parsing).
import FuzzSupport
import StreamsTest

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let marbles = FuzzInput(data, size).text
    let diagram: MarbleDiagram
    do {
        diagram = try Marbles.parse(marbles)
    } catch {
        _ = error.description
        return 0
    }
    let frameSize: TestTime = 10
    let origin: TestTime = 200
    let events: [Recorded<Event<String>>]
    do {
        events = try diagram.recordedEvents(frameSize: frameSize, origin: origin)
    } catch {
        _ = error.description
        return 0
    }
    require(Marbles.mismatch(events, marbles, frameSize: frameSize, origin: origin) == nil, "events of \(marbles.debugDescription) do not match it")

    if let drawn = try? Marbles.string(from: events, frameSize: frameSize, origin: origin) {
        let redrawn = try? Marbles.parse(drawn).recordedEvents(values: [Character: String](), frameSize: frameSize, origin: origin)
        // Values read back as drawn, except that non-ASCII ones get invented characters when one
        // would merge with its neighbour (a lone combining mark after a value).
        func sameShape(_ lhs: Recorded<Event<String>>, _ rhs: Recorded<Event<String>>) -> Bool {
            guard lhs.time == rhs.time else { return false }
            switch (lhs.value, rhs.value) {
            case let (.next(drawn), .next(original)): return drawn == original || !original.allSatisfy(\.isASCII)
            case (.completed, .completed): return true
            case let (.error(a), .error(b)): return "\(a)" == "\(b)"
            default: return false
            }
        }
        let readsBack = redrawn.map { $0.count == events.count && zip($0, events).allSatisfy(sameShape) } ?? false
        require(readsBack, "\(marbles.debugDescription) drawn as \(drawn.debugDescription), which reads back differently")
    }

    let scheduler = TestScheduler(initialClock: 0)
    if diagram.subscriptionPosition == nil, let cold = try? scheduler.createColdObservable(marbles) {
        _ = scheduler.start { cold.asObservable() }
    } else if let hot = try? scheduler.createHotObservable(marbles) {
        _ = scheduler.start { hot.asObservable() }
    }
    return 0
}

import Foundation
import Streams
import StreamsTest

/// A spec run on a `TestScheduler` with the inputs of its doc diagram.
public struct DiagramRun {
    /// The diagram read from the doc comment.
    public let diagram: DocDiagram
    /// The doc comment's output line this run is compared with.
    public let documentedOutput: String
    /// The output drawn as marbles from the events the expression really produced.
    public let actualOutput: String
    /// The picture: the inputs, with their subscriptions, and the output.
    public let svg: String

    /// Why a spec could not be run.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, naming the spec.
        public var description: String
    }

    /// Reads `spec`'s diagram from its file under `root` and runs the expression.
    public init(_ spec: DiagramSpec, root: URL) throws(Failure) {
        let url = root.appendingPathComponent(spec.file)
        let source: String
        do {
            source = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw Failure(description: "\(spec.name): cannot read \(spec.file): \(error)")
        }
        let diagram: DocDiagram
        do {
            diagram = try DocDiagram.read(from: source, before: spec.declaration, file: spec.file)
        } catch {
            throw Failure(description: "\(spec.name): \(error)")
        }
        let inputs = diagram.inputs
        guard inputs.count == spec.inputs.count else {
            throw Failure(description: "\(spec.name): the diagram has \(inputs.count) input lane(s), the spec \(spec.inputs.count)")
        }
        guard diagram.outputs.indices.contains(spec.outputIndex) else {
            throw Failure(description: "\(spec.name): the diagram has no output line \(spec.outputIndex)")
        }

        let scheduler = TestScheduler(initialClock: 0)
        var observables: [TestableObservable<String>] = []
        for (lane, kind) in zip(inputs, spec.inputs) {
            do {
                switch kind {
                case .hot: observables.append(try scheduler.createHotObservable(lane.marbles))
                case .cold: observables.append(try scheduler.createColdObservable(lane.marbles))
                }
            } catch {
                throw Failure(description: "\(spec.name): lane \(lane.label): \(error)")
            }
        }
        let sources = observables.map { $0.asObservable() }
        let result = scheduler.start { spec.build(sources, scheduler) }
        let drawn: String
        do {
            drawn = try scheduler.marbles(from: result.events)
        } catch {
            throw Failure(description: "\(spec.name): the output cannot be drawn as marbles: \(error)")
        }
        self.diagram = diagram
        documentedOutput = diagram.outputs[spec.outputIndex].marbles
        actualOutput = drawn
        var lanes = zip(inputs, observables).map { lane, observable in observable.marbleLane(lane.label) }
        lanes.append(result.marbleLane("output"))
        svg = MarblePicture.svg(lanes, caption: spec.caption)
    }

    /// Whether the documented output says what the expression does. Trailing `-` and `…` (time
    /// running on with nothing drawn) are not compared: a drawing ends at its last event.
    public var documentationIsRight: Bool {
        Self.trimmed(documentedOutput) == Self.trimmed(actualOutput)
    }

    private static func trimmed(_ marbles: String) -> Substring {
        var text = Substring(marbles)
        while let last = text.last, last == "-" || last == "…" { text = text.dropLast() }
        return text
    }
}

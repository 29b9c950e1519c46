import Foundation
import Streams
import StreamsTimeline

/// One stream in a marble picture: its recorded events and, optionally, its subscriptions.
///
///     let lanes = [xs.marbleLane("xs"), res.marbleLane("map")]
///     try MarblePicture.svg(lanes).write(toFile: "map.svg", atomically: true, encoding: .utf8)
public struct MarbleLane: Sendable {
    var lane: MarbleTimeline.Lane

    /// The lane's name, drawn at its left.
    public var title: String {
        get { lane.title }
        set { lane.title = newValue }
    }

    /// The number of events on the lane (elements, errors and completions).
    public var eventCount: Int { lane.marks.count }

    /// A lane of `events` (at their recorded times) and `subscriptions` (as spans under the lane).
    ///
    /// - Parameters:
    ///   - title: The lane's name.
    ///   - events: The events; they are drawn in their order, at their times.
    ///   - subscriptions: Subscription spans; `Subscription.infinity` draws a span that is still open.
    ///   - describe: The label of an element, cut to 16 characters when drawn.
    public init<Element>(
        _ title: String,
        events: [Recorded<Event<Element>>],
        subscriptions: [Subscription] = [],
        describe: (Element) -> String = { String(describing: $0) }
    ) {
        let marks = events.map { recorded in
            let time = Double(recorded.time)
            switch recorded.value {
            case .next(let element): return MarbleTimeline.Mark(time: time, kind: .next(describe(element)))
            case .error(let error): return MarbleTimeline.Mark(time: time, kind: .error(String(describing: error)))
            case .completed: return MarbleTimeline.Mark(time: time, kind: .completed)
            }
        }
        let spans = subscriptions.map { subscription in
            MarbleTimeline.Span(
                start: Double(subscription.subscribe),
                end: subscription.unsubscribe == Subscription.infinity ? nil : Double(subscription.unsubscribe))
        }
        lane = MarbleTimeline.Lane(title: title, marks: marks, spans: spans)
    }

    /// This lane with its event at `index` drawn as a difference (if there is one).
    func highlighting(_ index: Int) -> MarbleLane {
        var copy = self
        if copy.lane.marks.indices.contains(index) { copy.lane.marks[index].isHighlighted = true }
        return copy
    }
}

/// Draws marble diagrams of recorded events as SVG pictures.
///
/// Each lane is one stream: elements are labelled marbles (`<circle>`s) at their virtual times,
/// a completion is a bar, an error a cross, and subscriptions are spans under the lane. Events at
/// the same time line up across lanes; labels never overlap; long quiet runs are compressed and
/// drawn with a break. See <doc:Testing>.
public enum MarblePicture {
    /// The environment variable naming the folder where failed marble assertions write pictures.
    public static let directoryEnvironmentVariable = "STREAMS_MARBLES_DIR"

    /// An SVG document drawing `lanes`, top to bottom, under an optional caption.
    public static func svg(_ lanes: [MarbleLane], caption: String? = nil) -> String {
        MarbleTimelineSVG.render(MarbleTimeline(lanes: lanes.map(\.lane), caption: caption))
    }

    /// An SVG document comparing `expected` with `actual`, their first difference highlighted.
    public static func svg<Element: Equatable>(
        expected: [Recorded<Event<Element>>],
        actual: [Recorded<Event<Element>>],
        caption: String? = nil
    ) -> String {
        svg(comparing: expected, actual, titles: ("expected", "actual"), caption: caption)
    }

    static func svg<Element: Equatable>(
        comparing expected: [Recorded<Event<Element>>],
        _ actual: [Recorded<Event<Element>>],
        titles: (expected: String, actual: String),
        caption: String?
    ) -> String {
        let difference = firstDifference(expected, actual)
        let lanes = [
            MarbleLane(titles.expected, events: expected),
            MarbleLane(titles.actual, events: actual),
        ]
        return svg(difference.map { index in lanes.map { $0.highlighting(index) } } ?? lanes, caption: caption)
    }

    /// The index of the first event where the lists differ (or where the shorter one ends).
    static func firstDifference<Element: Equatable>(_ lhs: [Recorded<Event<Element>>], _ rhs: [Recorded<Event<Element>>]) -> Int? {
        if let index = zip(lhs, rhs).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset { return index }
        return lhs.count == rhs.count ? nil : min(lhs.count, rhs.count)
    }

    /// Writes the comparison picture for a failed assertion when `STREAMS_MARBLES_DIR` is set and
    /// returns the line to add to the failure message (and prints it), or `nil` when it is not set.
    ///
    /// The file is named after the assertion's source file and line, so the next failure of the
    /// same assertion replaces it.
    static func reportFailure<Element: Equatable>(
        expected: [Recorded<Event<Element>>],
        actual: [Recorded<Event<Element>>],
        titles: (expected: String, actual: String) = ("expected", "actual"),
        caption: String,
        file: StaticString,
        line: UInt,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        guard let directory = environment[directoryEnvironmentVariable], !directory.isEmpty else { return nil }
        let source = URL(fileURLWithPath: "\(file)").deletingPathExtension().lastPathComponent
        let url = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent("\(source)-\(line).svg")
        let report: String
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let picture = svg(comparing: expected, actual, titles: titles, caption: caption)
            try picture.write(to: url, atomically: true, encoding: .utf8)
            report = "marble picture: \(url.path)"
        } catch {
            report = "marble picture not written to \(url.path): \(error)"
        }
        print(report)
        return report
    }
}

extension TestableObserver {
    /// A marble lane of the events this observer recorded.
    public func marbleLane(_ title: String = "result", describe: (Element) -> String = { String(describing: $0) }) -> MarbleLane {
        MarbleLane(title, events: events, describe: describe)
    }
}

extension TestableObservable {
    /// A marble lane of this observable's events and its subscriptions.
    ///
    /// A cold observable's events are recorded relative to each subscription; they are drawn
    /// from its first subscription (or from time 0 when it was never subscribed).
    public func marbleLane(_ title: String, describe: (Element) -> String = { String(describing: $0) }) -> MarbleLane {
        let subscriptions = self.subscriptions
        var events = recordedEvents
        if self is ColdObservable<Element>, let first = subscriptions.first {
            events = events.map { Recorded(time: $0.time + first.subscribe, value: $0.value) }
        }
        return MarbleLane(title, events: events, subscriptions: subscriptions, describe: describe)
    }
}

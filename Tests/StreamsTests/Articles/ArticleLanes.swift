import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The lanes of one article block (`label:  marbles   (remark)`), for the article tests that play
/// them: each lane's first run of marbles and its column (time 0 at the block's leftmost marble,
/// one column per tick). A trailing `…` (the lane goes on) is not an event.
struct ArticleLanes {
    let block: [String]
    let lanes: [String: (column: Int, marbles: String)]
    let all: [String: [(column: Int, marbles: String)]]

    init(_ article: Article, _ anchor: String) throws {
        try self.init(block: article.codeBlock(containing: anchor))
    }

    init(block: [String]) {
        self.block = block
        var lanes: [String: (column: Int, marbles: String)] = [:]
        var all: [String: [(column: Int, marbles: String)]] = [:]
        for lane in Article.lanes(of: block) {
            if let first = lane.segments.first { lanes[lane.label] = first }
            all[lane.label] = lane.segments
        }
        self.lanes = lanes
        self.all = all
    }

    func lane(_ label: String) throws -> (column: Int, marbles: String) {
        try XCTUnwrap(lanes[label], "no lane \(label) in \(block)")
    }

    /// The lane's events at their columns.
    func tokens(_ label: String) throws -> [ArticleToken] {
        let lane = try lane(label)
        return ArticleToken.tokens(lane.marbles.replacingOccurrences(of: "…", with: ""), column: lane.column)
    }

    /// The lane's events to play, at their columns.
    func events(_ label: String) throws -> [Recorded<Event<String>>] {
        ArticleToken.recordedEvents(try tokens(label))
    }

    /// The lane's events relative to its first column (a sequence subscribed at that column).
    func relativeEvents(_ label: String) throws -> [Recorded<Event<String>>] {
        ArticleToken.recordedEvents(ArticleToken.tokens(try lane(label).marbles.replacingOccurrences(of: "…", with: "")))
    }
}

/// Recorded events drawn as an article draws them (one column per tick from time 0).
func articleDrawing(_ events: [Recorded<Event<String>>], origin: TestTime = 0, ticksPerColumn: TestTime = 1) -> [ArticleToken] {
    ArticleToken.tokens(of: events, origin: origin, ticksPerColumn: ticksPerColumn) { $0 }
}

/// A "step" block of synchronous sources (`step:    1  2  3`, then `a:       1     2     |`):
/// each lane's events by trampoline step, the step read from the column of the `step:` line above it.
func articleSteps(_ block: [String]) throws -> [String: [String]] {
    let lanes = Article.lanes(of: block)
    let steps = try XCTUnwrap(lanes.first { $0.label == "step" }).segments
    var columnToStep: [Int: String] = [:]
    for step in steps { columnToStep[step.column] = step.marbles }
    var found: [String: [String]] = [:]
    for lane in lanes where lane.label != "step" {
        found[lane.label] = lane.segments.map { "\(columnToStep[$0.column] ?? "?col\($0.column)"):\($0.marbles)" }
    }
    return found
}

/// Records synchronous events by step: every event of a source is one step; an output event
/// belongs to the step of the source event that caused it.
final class StepLog {
    private(set) var step = 0
    private(set) var lanes: [String: [String]] = [:]

    func source<Element>(_ label: String, _ observable: Observable<Element>) -> Observable<Element> {
        observable.do(
            onNext: { self.record(label, "\($0)", newStep: true) }, onError: { _ in self.record(label, "#", newStep: true) },
            onCompleted: { self.record(label, "|", newStep: true) })
    }

    func output(_ label: String, _ event: Event<String>) {
        switch event {
        case .next(let text): record(label, text, newStep: false)
        case .error: record(label, "#", newStep: false)
        case .completed: record(label, "|", newStep: false)
        }
    }

    private func record(_ label: String, _ text: String, newStep: Bool) {
        if newStep { step += 1 }
        lanes[label, default: []].append("\(step):\(text)")
    }
}

import Foundation
import XCTest

import Streams
@testable import StreamsTimeline
@testable import StreamsTest

#if canImport(FoundationXML)
import FoundationXML
#endif

final class MarblePictureTests: XCTestCase {
    func testSVG_drawsOneLanePerStreamAndOneMarblePerElement() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("-a-b-c-|", values: ["a": 1, "b": 2, "c": 3])
        let res = scheduler.start { xs.map { $0 * 10 } }
        let svg = MarblePicture.svg([xs.marbleLane("xs"), res.marbleLane("map")], caption: "map")

        XCTAssertEqual(occurrences(of: "<g class=\"lane\"", in: svg), 2)
        XCTAssertEqual(occurrences(of: "<circle class=\"marble\"", in: svg), 6)
        XCTAssertEqual(occurrences(of: "class=\"completed\"", in: svg), 2)
        XCTAssertTrue(svg.contains("data-title=\"xs\""))
        XCTAssertTrue(svg.contains("data-title=\"map\""))
        XCTAssertTrue(svg.contains(">30</text>"))
        XCTAssertEqual(occurrences(of: "<rect class=\"subscription\"", in: svg), 1, "the hot observable's subscription")
        try assertWellFormed(svg)
    }

    func testSVG_positionsGrowWithTimeAndLineUpAcrossLanes() {
        let first = MarbleLane("first", events: [.next(210, 1), .next(220, 2), .next(400, 3), .completed(410)] as [Recorded<Event<Int>>])
        let second = MarbleLane("second", events: [.next(220, 20), .next(300, 30)] as [Recorded<Event<Int>>])
        let svg = MarblePicture.svg([first, second])

        let marks = placedMarks(in: svg)
        XCTAssertEqual(marks.count, 6)
        for lane in ["first", "second"] {
            let xs = marks.filter { $0.lane == lane }.map(\.x)
            XCTAssertEqual(xs, xs.sorted(), "positions grow with time on \(lane)")
            XCTAssertEqual(Set(xs).count, xs.count)
        }
        let at220 = marks.filter { $0.time == 220 }.map(\.x)
        XCTAssertEqual(at220.count, 2)
        XCTAssertEqual(at220.first, at220.last, "events at the same time line up across lanes")
    }

    func testLayout_labelsNeverOverlap() {
        let long = String(repeating: "x", count: 40)
        let lane = MarbleTimeline.Lane(
            title: "labels",
            marks: [
                .init(time: 0, kind: .next(long)), .init(time: 1, kind: .next(long)), .init(time: 1, kind: .next("b")),
                .init(time: 2, kind: .error(long)), .init(time: 2, kind: .completed),
            ])
        let layout = MarbleTimelineLayout(MarbleTimeline(lanes: [lane]))

        XCTAssertEqual(layout.marks.count, 5)
        XCTAssertTrue(layout.marks.allSatisfy { $0.label.count <= MarbleTimelineLayout.Metrics.maximumLabelLength })
        XCTAssertTrue(layout.marks[0].label.hasSuffix("…"))
        func width(_ mark: MarbleTimelineLayout.PlacedMark) -> Double {
            mark.label.isEmpty ? 12 : max(24, Double(mark.label.count) * 7.2)
        }
        let sorted = layout.marks.sorted { $0.x < $1.x }
        for (left, right) in zip(sorted, sorted.dropFirst()) {
            XCTAssertGreaterThanOrEqual(right.x - left.x, (width(left) + width(right)) / 2, "\(left.label) and \(right.label) overlap")
        }
    }

    func testLayout_longQuietRunsAreCompressed() {
        let lane = MarbleTimeline.Lane(
            title: "sparse", marks: [.init(time: 0, kind: .next("a")), .init(time: 10, kind: .next("b")), .init(time: 100_000, kind: .completed)])
        let layout = MarbleTimelineLayout(MarbleTimeline(lanes: [lane]))

        XCTAssertEqual(layout.compressedGaps, [1])
        XCTAssertLessThanOrEqual(layout.columns[2] - layout.columns[1], MarbleTimelineLayout.Metrics.maximumGap)
        XCTAssertLessThan(layout.width, 400)
        XCTAssertTrue(MarbleTimelineSVG.render(MarbleTimeline(lanes: [lane])).contains("class=\"break\""))
    }

    func testSVG_errorsSubscriptionsAndEscaping() throws {
        let events: [Recorded<Event<String>>] = [.next(210, "<a & \"b\">"), .error(250, MarbleError("boom"))]
        let lane = MarbleLane("s<1>", events: events, subscriptions: [Subscription(200, 250), Subscription(300)])
        let svg = MarblePicture.svg([lane], caption: "a & b")

        XCTAssertEqual(occurrences(of: "<g class=\"error\"", in: svg), 1)
        XCTAssertTrue(svg.contains("&lt;a &amp; &quot;b&quot;&gt;"))
        XCTAssertTrue(svg.contains("data-title=\"s&lt;1&gt;\""))
        XCTAssertFalse(svg.contains("<a &"))
        XCTAssertEqual(occurrences(of: "<rect class=\"subscription\"", in: svg), 2)
        XCTAssertTrue(svg.contains("data-start=\"300\" data-end=\"\""), "an open subscription runs to the right edge")
        try assertWellFormed(svg)
    }

    func testSVG_emptyAndNeverLanesDrawOnlyTheAxis() throws {
        let svg = MarblePicture.svg([MarbleLane("never", events: [] as [Recorded<Event<Int>>]), MarbleLane("empty", events: [.completed(200, Int.self)])])
        XCTAssertEqual(occurrences(of: "<g class=\"lane\"", in: svg), 2)
        XCTAssertEqual(occurrences(of: "<circle", in: svg), 0)
        XCTAssertEqual(occurrences(of: "class=\"completed\"", in: svg), 1)
        try assertWellFormed(svg)
        try assertWellFormed(MarblePicture.svg([]))
    }

    func testMarbleLane_coldObservableIsDrawnFromItsFirstSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        _ = scheduler.start { xs.asObservable() }
        let marks = placedMarks(in: MarblePicture.svg([xs.marbleLane("cold")]))
        XCTAssertEqual(marks.map(\.time), [210, 220])
    }

    func testComparison_highlightsTheFirstDifference() {
        let expected: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .completed(230)]
        let actual: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 3), .completed(230)]
        let svg = MarblePicture.svg(expected: expected, actual: actual)

        XCTAssertEqual(occurrences(of: "class=\"next difference\"", in: svg), 2)
        XCTAssertEqual(occurrences(of: "class=\"guide\"", in: svg), 2)
        XCTAssertEqual(MarblePicture.firstDifference(expected, actual), 1)
        XCTAssertEqual(MarblePicture.firstDifference(expected, Array(expected.prefix(2))), 2)
        XCTAssertNil(MarblePicture.firstDifference(expected, expected))
    }

    func testReportFailure_writesThePictureIntoTheFolderNamedByTheEnvironment() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marbles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected: [Recorded<Event<Int>>] = [.next(210, 1), .completed(230)]
        let actual: [Recorded<Event<Int>>] = [.next(210, 2), .completed(230)]

        let report = MarblePicture.reportFailure(
            expected: expected, actual: actual, caption: "test", file: "Tests/MapTests.swift", line: 42,
            environment: [MarblePicture.directoryEnvironmentVariable: folder.path])

        let file = folder.appendingPathComponent("MapTests-42.svg")
        XCTAssertEqual(report, "marble picture: \(file.path)")
        let svg = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(svg.contains("data-title=\"expected\""))
        XCTAssertTrue(svg.contains("data-title=\"actual\""))
        XCTAssertTrue(svg.contains("difference"))
        XCTAssertNil(MarblePicture.reportFailure(expected: expected, actual: actual, caption: "", file: "F.swift", line: 1, environment: [:]))
    }

    func testReportFailure_unwritableFolderIsReportedNotThrown() throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("marbles-file-\(UUID().uuidString)")
        try Data("x".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let report = MarblePicture.reportFailure(
            expected: [.completed(200, Int.self)], actual: [], caption: "", file: "F.swift", line: 1,
            environment: [MarblePicture.directoryEnvironmentVariable: blocker.appendingPathComponent("sub").path])
        XCTAssertEqual(report?.hasPrefix("marble picture not written to"), true)
    }

    func testLeaks_drawingRetainsNothing() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            let res = scheduler.start { xs.map { $0 + 1 } }
            XCTAssertFalse(MarblePicture.svg([xs.marbleLane("xs"), res.marbleLane()]).isEmpty)
        }
    }

    // MARK: - Helpers

    private struct Mark {
        var lane: String
        var time: Double
        var x: Double
    }

    /// The marks of every lane, in document order, read back from the SVG's data attributes.
    private func placedMarks(in svg: String) -> [Mark] {
        var marks: [Mark] = []
        for laneChunk in svg.components(separatedBy: "<g class=\"lane\" data-title=\"").dropFirst() {
            let title = String(laneChunk.prefix { $0 != "\"" })
            for markChunk in laneChunk.components(separatedBy: "data-time=\"").dropFirst() {
                let time = Double(markChunk.prefix { $0 != "\"" }) ?? .nan
                let afterX = markChunk.components(separatedBy: "data-x=\"")[1]
                marks.append(Mark(lane: title, time: time, x: Double(afterX.prefix { $0 != "\"" }) ?? .nan))
            }
        }
        return marks
    }

    private func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    private func assertWellFormed(_ svg: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let parser = XMLParser(data: Data(svg.utf8))
        XCTAssertTrue(parser.parse(), "not well-formed XML: \(String(describing: parser.parserError))", file: file, line: line)
    }
}

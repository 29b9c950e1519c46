import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time examples of the Time article (Sources/Streams/Streams.docc/Time.md), run and
/// compared with the article's text: one column per tick (a frame is one second, one tick), cold
/// sources subscribed at 0. (debounce, throttle, the first delay and timeout blocks are drawn from
/// their doc comments and checked by ArticleDiagramsTests.)
final class TimeArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/Time.md", testFile: #filePath) }

    /// Runs `build` subscribed at 0 until the column after the lane's last one (its last one for a lane that goes on, `…`).
    private func check(
        _ anchor: String, output label: String = "output", file: StaticString = #filePath, line: UInt = #line,
        _ build: (TestScheduler, ArticleLanes) throws -> Observable<String>
    ) throws {
        let lanes = try ArticleLanes(article(), anchor)
        let scheduler = TestScheduler(initialClock: 0)
        let output = try lanes.lane(label)
        let drawn = output.marbles.replacingOccurrences(of: "…", with: "")
        let end = output.column + drawn.count - (output.marbles.contains("…") ? 1 : 0)
        let observable = try build(scheduler, lanes)
        let res = scheduler.start(created: 0, subscribed: 0, disposed: TestTime(max(end, 1))) { observable }
        XCTAssertEqual(try lanes.tokens(label), articleDrawing(res.events), "\(anchor): \(label)", file: file, line: line)
    }

    /// interval: every 3 frames, the first after one period.
    func testInterval() throws {
        try check("Observable<Int>.interval(3 frames)") { scheduler, _ in Observable<Int>.interval(.seconds(3), scheduler: scheduler).map { "\($0)" } }
        let scheduler = TestScheduler(initialClock: 0)
        let times = scheduler.start { Observable<Int>.interval(.seconds(-1), scheduler: scheduler).take(3) }.events.filter { $0.value.element != nil }
        let listed = times.map { "\($0.time)" }.joined(separator: ", ")
        XCTAssertTrue(try article().says("(`interval(.seconds(-1)).take(3)` on a `TestScheduler` subscribed at 200: \(listed))"), listed)
    }

    /// timer: once, and with a period.
    func testTimer() throws {
        try check("timer(3, period: 2):", output: "timer(3)") { scheduler, _ in Observable<Int>.timer(.seconds(3), scheduler: scheduler).map { "\($0)" } }
        try check("timer(3, period: 2):", output: "timer(3, period: 2)") { scheduler, _ in
            Observable<Int>.timer(.seconds(3), period: .seconds(2), scheduler: scheduler).map { "\($0)" }
        }
    }

    /// delay: errors are not delayed; and the sentence on a zero rest delay.
    func testDelay() throws {
        try check("(errors are not delayed)") { scheduler, lanes in
            scheduler.createColdObservable(try lanes.events("source")).delay(.seconds(3), scheduler: scheduler)
        }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(250, "x"), .completed(250)])
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        let list = ArticleToken.eventList(res.events) { $0 }.dropFirst().dropLast().replacingOccurrences(of: ".", with: "")
        XCTAssertTrue(try article().says("`next(250, x), completed(250)` delayed by 100 gives `\(list)`"), list)
    }

    /// timeout: continuing with `other`, subscribed when the timer fires.
    func testTimeoutOther() throws {
        var other: TestableObservable<String>?
        var otherColumn = 0
        try check("(timeout(5, other:))") { scheduler, lanes in
            other = scheduler.createColdObservable(try lanes.relativeEvents("other"))
            otherColumn = try lanes.lane("other").column
            return scheduler.createColdObservable(try lanes.events("source")).timeout(.seconds(5), other: other!, scheduler: scheduler)
        }
        XCTAssertEqual(other?.subscriptions.first?.subscribe, TestTime(otherColumn), "other is drawn from its subscription")
    }

    /// observe(on:): the block, and events queued in the same tick arriving one tick apart.
    func testObserveOn() throws {
        try check("(any thread)") { scheduler, lanes in scheduler.createColdObservable(try lanes.events("source")).observe(on: scheduler) }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(210, 2)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        let list = ArticleToken.eventList(res.events) { "\($0)" }.dropFirst().dropLast().replacingOccurrences(of: ".", with: "")
        XCTAssertTrue(try article().says("(`next(210, 1), next(210, 2)` observed on the scheduler gives `\(list)`)"), list)
    }

    /// subscribe(on:): the hot source's events and its subscription, as the block lists them.
    func testSubscribeOn_block() throws {
        let block = try article().codeBlock(containing: "start { xs.subscribe(on: scheduler) }")
        let source = try XCTUnwrap(block.first { $0.contains("xs = hot [") })
        let eventsLine = try XCTUnwrap(block.first { $0.contains("events:") })
        let subscriptionsLine = try XCTUnwrap(block.first { $0.contains("subscriptions:") })
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(try Article.recordedEvents(String(source.prefix { $0 != ";" })) { Int($0) })
        XCTAssertEqual(xs.recordedEvents.count, 2)
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(try Article.recordedEvents(eventsLine) { Int($0) }, res.events)
        let drawn = xs.subscriptions.map { "(\($0.subscribe) : \($0.unsubscribe))" }.joined(separator: ", ")
        XCTAssertEqual(subscriptionsLine.replacingOccurrences(of: "subscriptions:", with: "").trimmingCharacters(in: .whitespaces), drawn)
    }

    /// delaySubscription: the cold source is subscribed after 3 frames.
    func testDelaySubscription() throws {
        var source: TestableObservable<String>?
        try check("source (cold): -a-b|") { scheduler, lanes in
            source = scheduler.createColdObservable(try lanes.events("source (cold)"))
            return source!.delaySubscription(.seconds(3), scheduler: scheduler)
        }
        XCTAssertEqual(source?.subscriptions.first?.subscribe, 3)
    }
}

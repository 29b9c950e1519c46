import Foundation
import Streams
import StreamsDiagrams
import XCTest

// Swift Testing: the article's snippet, run here as it is written (the XCTest
// `testSwiftTestingSnippet` below compares it with the article's block).
// article:begin swift-testing
import Testing
import StreamsTest

@Test func mapDoubles() throws {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = try scheduler.createColdObservable("-a-b-|", values: ["a": 1, "b": 2])
    let res = scheduler.start { xs.map { $0 * 2 } }
    #expect(res.events == [.next(210, 2), .next(230, 4), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
    #expect(try scheduler.marbles(from: res.events, values: ["A": 2, "B": 4]) == "-A-B-|")
    #expect(Marbles.mismatch(res.events, "-A-B-|", values: ["A": 2, "B": 4]) == nil)  // shows the diff on failure
    #expect(throws: RxError.noElements) { try Observable<Int>.empty().toBlocking().single() }
}
// article:end swift-testing

/// The virtual-time examples of the Testing article (Sources/StreamsTest/StreamsTest.docc/Testing.md),
/// run and compared with the article's text: editing the article or the test kit without the other fails.
final class TestingArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/StreamsTest/StreamsTest.docc/Testing.md", testFile: #filePath) }
    private func snippet(_ name: String) throws -> String { Article.compact(try Article.testSnippet(in: #filePath, named: name)) }
    private func list<Element>(_ events: [Recorded<Event<Element>>]) -> String { ArticleToken.eventList(events) { "\($0)" } }
    /// `a @ 170, | @ 290`, as the article's remarks write events.
    private func remark(_ events: [Recorded<Event<String>>]) -> String {
        events.map { recorded in
            switch recorded.value {
            case .next(let value): "\(value) @ \(recorded.time)"
            case .completed: "| @ \(recorded.time)"
            case .error: "# @ \(recorded.time)"
            }
        }
        .joined(separator: ", ")
    }

    /// Overview: the MapTests example.
    func testOverviewSnippet() throws {
        XCTAssertNoLeaks {
            // article:begin overview
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
            let res = scheduler.start { xs.map { $0 * 10 } }
            XCTAssertEqual(res.events, [.next(210, 20), .completed(300)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
            // article:end overview
        }
        let block = Article.compact(try article().codeBlock(containing: "final class MapTests"))
        XCTAssertTrue(block.contains(try snippet("overview")), "the article's MapTests is not the test's copy")
    }

    /// Overview: "The same test with marbles".
    func testOverviewMarblesSnippet() throws {
        let scheduler = TestScheduler(initialClock: 0)
        // article:begin marbles
        let xs = try scheduler.createHotObservable("-x-^-a--|", values: ["x": 1, "a": 2])
        let res = scheduler.start { xs.map { $0 * 10 } }
        XCTAssertMarbles(res, "--A--|", values: ["A": 20])
        // article:end marbles
        let block = try article().codeBlock(containing: "XCTAssertMarbles(res, \"--A--|\"")
        XCTAssertEqual(Article.compact(block), try snippet("marbles"))
    }

    /// TestScheduler vocabulary, Times and the processing delay: the cold block.
    func testTimes_coldBlock() throws {
        let block = try article().codeBlock(containing: "start { cold }")
        let coldLine = try XCTUnwrap(block.first { $0.contains("cold:") })
        let eventsLine = try XCTUnwrap(block.first { $0.contains("events:") })
        let scheduler = TestScheduler(initialClock: 0)
        let cold = scheduler.createColdObservable(try Article.recordedEvents(coldLine) { Int($0) })
        XCTAssertEqual(cold.recordedEvents.count, 2)
        let res = scheduler.start { cold }
        XCTAssertEqual(try Article.recordedEvents(eventsLine) { Int($0) }, res.events)
    }

    /// TestScheduler vocabulary, Times and the processing delay: the sentences with times.
    func testTimes_sentences() throws {
        let text = try article()
        // Hot: an observer subscribed at 200 misses events at 150 and at 200.
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(200, 2), .next(210, 3)])
            XCTAssertEqual(scheduler.start { xs }.events, [.next(210, 3)])
            XCTAssertTrue(text.says("An observer subscribed at 200 misses events at 150 *and* at 200"))
        }
        // start(created: 0, subscribed: 0, disposed: 100) subscribes at 0.
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1)])
            _ = scheduler.start(created: 0, subscribed: 0, disposed: 100) { xs }
            let subscribed = try XCTUnwrap(xs.subscriptions.first?.subscribe)
            XCTAssertTrue(text.says("`start(created: 0, subscribed: 0, disposed: 100)` subscribes at \(subscribed)."))
        }
        // just(42, scheduler:) started at 200.
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.just(42, scheduler: scheduler) }
            XCTAssertTrue(text.says("`just(42, scheduler: s)` started at 200 gives `\(list(res.events))`"), list(res.events))
        }
        // subscribe(on:) on a hot source completing at 300.
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            _ = scheduler.start { xs.subscribe(on: scheduler) }
            let subscription = try XCTUnwrap(xs.subscriptions.first)
            XCTAssertTrue(
                text.says(
                    "`subscribe(on: s)` on a hot source completing at 300 records `Subscription(\(subscription.subscribe), \(subscription.unsubscribe))`"),
                "\(subscription)")
        }
        // Synchronous sources emit within the tick of the subscription.
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable.of(1, 2) }
            XCTAssertTrue(text.says("`start { Observable.of(1, 2) }` records `\(list(res.events))`"), list(res.events))
        }
        // Disposing a cold subscription cancels its remaining events: start() does not move the clock to them.
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .next(900, 2)])
            _ = scheduler.start(disposed: 300) { xs }
            XCTAssertEqual(scheduler.clock, 300)
            XCTAssertEqual(scheduler.pendingCount, 0)
            XCTAssertTrue(text.says("Disposing a cold subscription cancels its remaining events, so they leave the queue"))
        }
    }

    /// Marbles, "Where marble time 0 is": the hot / cold / expected block and its remarks.
    func testMarbles_linedUpBlock() throws {
        let block = try article().codeBlock(containing: "expected:      ---b--c--|")
        func lane(_ label: String) throws -> (marbles: String, remark: String) {
            let line = try XCTUnwrap(block.first { $0.hasPrefix(label + ":") })
            let match = try XCTUnwrap(line.firstMatch(of: /:\s+(\S+)\s+(?:subscribed at 200: )?(.*)$/))
            return (String(match.1), String(match.2))
        }
        let scheduler = TestScheduler(initialClock: 0)
        let hot = try lane("hot")
        let xs = try scheduler.createHotObservable(hot.marbles)
        XCTAssertEqual(hot.remark, remark(xs.recordedEvents))
        let cold = try lane("cold")
        let ys = try scheduler.createColdObservable(cold.marbles)
        let expected = try lane("expected")
        let res = scheduler.start { xs }
        XCTAssertEqual(expected.remark, remark(try scheduler.parseEvents(expected.marbles)))
        XCTAssertEqual(res.events, try scheduler.parseEvents(expected.marbles), "the result lines up with the expected marbles")
        let coldScheduler = TestScheduler(initialClock: 0)
        let zs = try coldScheduler.createColdObservable(cold.marbles)
        XCTAssertEqual(cold.remark, remark(coldScheduler.start { zs }.events))
        XCTAssertEqual(ys.recordedEvents.map(\.time), [20, 50], "relative to the subscription")
    }

    /// Marbles: "`start { cold("(a|)") }` records `a` and `|` at 200 … `observe(on: scheduler)` … at 201".
    func testMarbles_coldGroupAndProcessingDelay() throws {
        let text = try article()
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { try! scheduler.createColdObservable("(a|)") }
        XCTAssertEqual(Set(res.events.map(\.time)).count, 1)
        let time = try XCTUnwrap(res.events.first?.time)
        XCTAssertTrue(text.says("`start { cold(\"(a|)\") }` records `a` and `|` at \(time), as `\"(a|)\"` draws"), "\(res.events)")
        let delayed = TestScheduler(initialClock: 0)
        let observed = delayed.start { try! delayed.createColdObservable("(a|)").observe(on: delayed) }
        XCTAssertEqual(observed.events.count, 2)
        let (element, completion) = (observed.events[0].time, observed.events[1].time)
        XCTAssertTrue(
            text.says("`start { cold(\"(a|)\").observe(on: scheduler) }` records `a` at \(element) and `|` at \(completion) (`observe(on:)`"),
            "\(observed.events)")
    }

    /// Marbles, API: the results the block's comments state.
    func testMarbles_apiComments() throws {
        let block = try article().codeBlock(containing: "let expected = try scheduler.parseEvents")
        func comment(_ anchor: String) throws -> String {
            let line = try XCTUnwrap(block.first { $0.contains(anchor) }, anchor)
            return try XCTUnwrap(line.range(of: "// ").map { String(line[$0.upperBound...]).trimmingCharacters(in: .whitespaces) })
        }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("--a--^--b--|", values: ["a": 1, "b": 2])
        let res = scheduler.start { xs }
        let expected = try scheduler.parseEvents("---b--|", values: ["b": 2])
        XCTAssertEqual(try comment("let expected = try scheduler.parseEvents(\"---b--|\""), list(expected))
        XCTAssertEqual(res.events, expected)
        let drawn = try scheduler.marbles(from: res.events, values: ["b": 2])
        XCTAssertEqual(try comment("try scheduler.marbles(from: res.events"), "\"\(drawn)\"")
        XCTAssertEqual(try Marbles.string(from: res.events, values: ["b": 2], frameSize: 10, origin: 200), drawn)
        XCTAssertMarbles(res.events, "---b--|", values: ["b": 2])
        XCTAssertMarbles(res, "---b--|", values: ["b": 2])
        XCTAssertNil(Marbles.mismatch(res.events, "---b--|", values: ["b": 2]))
        let diagram = try MarbleDiagram("--a--^--b--|")
        let entries = diagram.entries.enumerated().map { index, entry -> String in
            let token: String
            switch entry.token {
            case .value(let character): token = String(character)
            case .completed: token = "completed"
            case .error: token = "error"
            }
            return "(\(index == 0 ? "frame " : "")\(entry.frame), \(token))"
        }
        XCTAssertEqual(try comment("let diagram = try MarbleDiagram(\"--a--^--b--|\")"), "entries: " + entries.joined(separator: ", "))
        let events: [Recorded<Event<Int>>] = try diagram.recordedEvents(values: ["a": 1, "b": 2], frameSize: 10, origin: 200)
        XCTAssertEqual(events, xs.recordedEvents)
    }

    /// Marbles, API: the failure message of `XCTAssertMarbles` shown after the block.
    func testMarbles_mismatchMessage() throws {
        let block = try article().codeBlock(containing: "XCTAssertMarbles: events do not match")
        let scheduler = TestScheduler(initialClock: 0)
        let values: [Character: Int] = ["a": 1, "b": 2, "c": 3]
        let res = scheduler.start { try! scheduler.createHotObservable("--a--c--|", values: values) }
        let message = try XCTUnwrap(Marbles.mismatch(res.events, "--a--b--|", values: values))
        let shown = block.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let produced = message.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        XCTAssertEqual(Array(produced.prefix(shown.count)), shown.map { $0.replacingOccurrences(of: "XCTAssertMarbles: ", with: "") })
    }

    /// Leak checks: the XCTAssertNoPendingWork example (a cold source, so its own events are cancelled too).
    func testLeakChecks_noPendingWorkSnippet() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable([.next(2, 1), .next(20, 2), .completed(30)])
        let observer = scheduler.createObserver(Int.self)
        // article:begin no-pending-work
        let subscription = source.delay(.seconds(10), scheduler: scheduler).subscribe(observer)  // any timer-based chain
        scheduler.advanceTo(5)
        subscription.dispose()
        XCTAssertNoPendingWork(scheduler)
        // article:end no-pending-work
        XCTAssertEqual(observer.events, [], "disposed before the delayed element was due")
        let block = try article().codeBlock(containing: "XCTAssertNoPendingWork(scheduler)")
        XCTAssertEqual(Article.compact(block), try snippet("no-pending-work"))
    }

    /// Leak checks, Lifetimes and leak checks: a hot test observable held by nothing but its subscription.
    func testLifetimesSnippet() throws {
        let text = try article()
        var times: [TestTime] = []
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            // article:begin lifetimes
            let relay = PublishRelay<Int>()
            relay.bind(to: observer).disposed(by: bag)
            // No local reference to the hot observable: its events still play at 210 and 220.
            scheduler.createHotObservable([.next(210, 1), .next(220, 2)]).bind(to: relay).disposed(by: bag)
            scheduler.start()
            // article:end lifetimes
            XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2)])
            times = observer.events.map(\.time)
        }
        XCTAssertEqual(times.count, 2)
        XCTAssertTrue(text.says("its events still play at \(times[0]) and \(times[1])."))
        let block = try text.codeBlock(containing: "let relay = PublishRelay<Int>()")
        XCTAssertEqual(Article.compact(block), try snippet("lifetimes"))
    }

    /// Swift Testing: `mapDoubles` at the top of this file is the article's block.
    func testSwiftTestingSnippet() throws {
        let block = try article().codeBlock(containing: "@Test func mapDoubles()")
        XCTAssertEqual(Article.compact(block), try snippet("swift-testing"))
    }

    /// The Blocking article's warning: a sequence on a TestScheduler is run with `start`, not
    /// `toBlocking()`; the article's snippet, run here.
    func testBlockingArticleTestSchedulerSnippet() throws {
        // article:begin blocking-virtual-time
        let scheduler = TestScheduler(initialClock: 0)
        // Observable<Int>.timer(.seconds(5), scheduler: scheduler).toBlocking().first() never returns
        let res = scheduler.start { Observable<Int>.timer(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(205, 0), .completed(205)])
        // article:end blocking-virtual-time
        let inArticle = try Article("Sources/StreamsBlocking/StreamsBlocking.docc/Blocking.md", testFile: #filePath)
            .codeBlock(containing: "toBlocking().first() never returns")
        XCTAssertEqual(Article.compact(inArticle), Article.compact(try Article.testSnippet(in: #filePath, named: "blocking-virtual-time")))
    }
}

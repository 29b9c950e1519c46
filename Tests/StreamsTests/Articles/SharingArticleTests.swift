import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time examples of the Sharing article (Sources/Streams/Streams.docc/Sharing.md), run
/// and compared with the article's blocks: one column per tick, time 0 at the block's leftmost
/// marble; on an observer's lane `^` is its subscription and `!` its disposal (without `^`, the
/// observer subscribes at the lane's first column); `…` ends a lane that goes on.
final class SharingArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/Sharing.md", testFile: #filePath) }

    private struct Lane {
        var subscribed: TestTime
        var disposed: TestTime?
        var events: [ArticleToken]
        var goesOn: Bool
    }

    /// The lanes of the block containing `anchor`, by label.
    private func lanes(_ anchor: String) throws -> [String: Lane] {
        var found: [String: Lane] = [:]
        for lane in Article.lanes(of: try article().codeBlock(containing: anchor)) {
            let first = try XCTUnwrap(lane.segments.first, "lane \(lane.label) of the block with \(anchor)")
            let tokens = ArticleToken.tokens(first.marbles, column: first.column)
            found[lane.label] = Lane(
                subscribed: tokens.first { $0.text == "^" }?.time ?? TestTime(first.column),
                disposed: tokens.first { $0.text == "!" }?.time,
                events: tokens.filter { !["^", "!", "…"].contains($0.text) }.map {
                    ArticleToken(time: $0.time, text: $0.text.replacingOccurrences(of: ",", with: ""))
                },
                goesOn: tokens.last?.text == "…")
        }
        return found
    }

    private func lane(_ lanes: [String: Lane], _ label: String) throws -> Lane { try XCTUnwrap(lanes[label], "no lane \(label)") }

    private func drawn(_ events: [Recorded<Event<String>>]) -> [ArticleToken] { ArticleToken.tokens(of: events) { $0 } }

    /// Subscribes `observer` to `source` at the lane's `^` (or first column) and disposes it at its `!`.
    private func observe(_ source: Observable<String>, _ lane: Lane, _ scheduler: TestScheduler) -> TestableObserver<String> {
        let observer = scheduler.createObserver(String.self)
        let subscription = SerialDisposable()
        scheduler.scheduleAt(lane.subscribed) { subscription.disposable = source.subscribe(observer) }
        if let disposed = lane.disposed { scheduler.scheduleAt(disposed) { subscription.dispose() } }
        return observer
    }

    /// multicast(makeSubject:): an observer of the first connection's subject sees nothing of the second.
    func testMulticastMakeSubject() throws {
        let block = try lanes("connect/dispose:")
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable(ArticleToken.recordedEvents(try lane(block, "source").events))
        let connectable = source.multicast(makeSubject: { PublishSubject<String>() })
        let connections = try XCTUnwrap(Article.lanes(of: try article().codeBlock(containing: "connect/dispose:")).first { $0.label == "connect/dispose" })
        let marks = connections.segments.flatMap { ArticleToken.tokens($0.marbles, column: $0.column) }
        XCTAssertEqual(marks.map(\.text), ["^", "!", "^", "!"])
        let connection = SerialDisposable()
        for mark in marks {
            // Replacing the serial disposable's connection disposes it.
            scheduler.scheduleAt(mark.time) { connection.disposable = mark.text == "^" ? connectable.connect() : Disposables.create() }
        }
        let a = observe(connectable.asObservable(), try lane(block, "a (before 1st)"), scheduler)
        let b = observe(connectable.asObservable(), try lane(block, "b (after 1st)"), scheduler)
        scheduler.start()
        XCTAssertEqual(try lane(block, "a (before 1st)").events, drawn(a.events))
        XCTAssertEqual(try lane(block, "b (after 1st)").events, drawn(b.events))
        connection.dispose()
    }

    /// multicast(_:selector:): one source subscription per subscription, however often the selector uses it.
    func testMulticastSelector() throws {
        let block = try lanes("selector: { Observable.merge($0, $0.map { $0 * 10 }) }")
        XCTAssertTrue(try article().says("selector: { Observable.merge($0, $0.map { $0 * 10 }) }"))
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable(ArticleToken.recordedEvents(try lane(block, "source").events))
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            source.map { Int($0)! }.multicast({ PublishSubject<Int>() }, selector: { Observable.merge($0, $0.map { $0 * 10 }) }).map { "\($0)" }
        }
        XCTAssertEqual(try lane(block, "output").events, drawn(res.events))
        XCTAssertEqual(source.subscriptions, [Subscription(0, 18)])
    }

    /// publish: an early and a late observer of a connection made at 0.
    func testPublish() throws {
        let block = try lanes("early:    --1--2--3--|")
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable(ArticleToken.recordedEvents(try lane(block, "source").events))
        let connectable = source.publish()
        let connectAt = try lane(block, "connect").subscribed
        let connection = SerialDisposable()
        scheduler.scheduleAt(connectAt) { connection.disposable = connectable.connect() }
        let early = observe(connectable.asObservable(), try lane(block, "early"), scheduler)
        let late = observe(connectable.asObservable(), try lane(block, "late"), scheduler)
        scheduler.start()
        XCTAssertEqual(try lane(block, "early").events, drawn(early.events))
        XCTAssertEqual(try lane(block, "late").events, drawn(late.events))
        XCTAssertTrue(try article().says("late:           --3--|      (subscribed after 2)"))
    }

    /// replay(2): a late observer gets the last two elements, then the live ones.
    func testReplay() throws {
        let block = try lanes("(replay(2), connected at 0, subscribed at 6, after 2)")
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable(ArticleToken.recordedEvents(try lane(block, "source").events))
        let connectable = source.replay(2)
        let connection = SerialDisposable()
        scheduler.scheduleAt(0) { connection.disposable = connectable.connect() }
        let late = observe(connectable.asObservable(), try lane(block, "late"), scheduler)
        scheduler.start()
        XCTAssertEqual(try lane(block, "late").subscribed, 6)
        XCTAssertEqual(try lane(block, "late").events, drawn(late.events))
    }

    /// refCount (over publish()): connects for the first observer, disconnects when the last leaves, connects again.
    func testRefCount() throws {
        let block = try lanes("(last to leave: disconnect)")
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable(ArticleToken.recordedEvents(try lane(block, "source").events))
        let shared = source.publish().refCount()
        let observers = try ["a", "b", "c"].map { label in (label, observe(shared, try lane(block, label), scheduler)) }
        scheduler.start()
        for (label, observer) in observers {
            let drawnLane = try lane(block, label)
            let recorded = drawn(observer.events)
            // A lane that goes on (`…`) draws the beginning of what the observer gets.
            XCTAssertEqual(drawnLane.events, drawnLane.goesOn ? Array(recorded.prefix(drawnLane.events.count)) : recorded, "observer \(label)")
        }
        let (b, c) = (try lane(block, "b"), try lane(block, "c"))
        let completion = try XCTUnwrap(try lane(block, "source").events.last { $0.text == "|" }?.time)
        // The second connection runs the cold source again from c's subscription to its completion.
        XCTAssertEqual(source.subscriptions, [Subscription(0, try XCTUnwrap(b.disposed)), Subscription(c.subscribed, c.subscribed + completion)])
    }

    /// share(replay: 1): a late observer gets the last element at once.
    func testShare() throws {
        let block = try lanes("(replay: 1, subscribed at 6, after 2: the replayed 2 at once)")
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable(ArticleToken.recordedEvents(try lane(block, "source").events))
        let shared = source.share(replay: 1)
        let a = observe(shared, try lane(block, "a"), scheduler)
        let b = observe(shared, try lane(block, "b"), scheduler)
        scheduler.start()
        XCTAssertEqual(try lane(block, "a").events, drawn(a.events))
        XCTAssertEqual(try lane(block, "b").events, drawn(b.events))
        XCTAssertEqual(source.subscriptions, [Subscription(0, 11)])
    }

    /// Synchronous sources: `Observable.merge(shared, shared)` over `of(1, 2)`, with share(replay: 1)
    /// and publish().refCount().
    func testSynchronousSources() throws {
        let line = try XCTUnwrap(
            try article().codeBlock(containing: "Observable.merge(shared, shared):").first { $0.contains("Observable.merge(shared, shared):") })
        let documented = try XCTUnwrap(line.firstMatch(of: /:\s+(.+?)\s{2,}/)).1
        XCTAssertTrue(try article().says("let shared = Observable.of(1, 2).share(replay: 1)"))
        XCTAssertTrue(line.contains("(same with publish().refCount())"))
        for shared in [Observable.of(1, 2).share(replay: 1), Observable.of(1, 2).publish().refCount()] {
            var received: [String] = []
            _ = Observable.merge(shared, shared).subscribe(onNext: { received.append("\($0)") }, onCompleted: { received.append("|") })
            XCTAssertEqual(received.joined(separator: " "), String(documented))
        }
    }
}

import Foundation
import Streams
import StreamsDiagrams
import StreamsTest
import XCTest

/// The virtual-time examples of the ErrorHandling article (Sources/Streams/Streams.docc/ErrorHandling.md)
/// that have no picture, run and compared with the article: one column per tick, sources cold and
/// subscribed at 0, each attempt's lane drawn from the column where it is subscribed. (catch and
/// catchAndReturn are drawn from their doc comments and checked by ArticleDiagramsTests.)
final class ErrorHandlingArticleTests: XCTestCase {
    private func article() throws -> Article { try Article("Sources/Streams/Streams.docc/ErrorHandling.md", testFile: #filePath) }

    /// "Observable.catch(sequence:)": three sequences in turn.
    func testCatchSequence() throws {
        // Article.lanes reads labels that start with a letter: "1st:  " is read as "n1st: ", same columns.
        let lanes = ArticleLanes(
            block: try article().codeBlock(containing: "3rd:          -c|").map { line in
                ["1st", "2nd", "3rd"].reduce(line) { $0.replacingOccurrences(of: "\($1):  ", with: "n\($1): ") }
            })
        let scheduler = TestScheduler(initialClock: 0)
        let sources = try ["n1st", "n2nd", "n3rd"].map { scheduler.createColdObservable(try lanes.relativeEvents($0)) }
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { Observable<String>.catch(sequence: sources.map { $0.asObservable() }) }
        XCTAssertEqual(try lanes.tokens("output"), articleDrawing(res.events))
        for (label, source) in zip(["n1st", "n2nd", "n3rd"], sources) {
            XCTAssertEqual(source.subscriptions.first?.subscribe, TestTime(try lanes.lane(label).column), "\(label) is drawn from its subscription")
        }
    }

    /// "retry", retry(): the first attempt fails, the second completes.
    func testRetry_untilCompletion() throws {
        let lanes = try ArticleLanes(article(), "source (2nd):    -a-b|")
        let scheduler = TestScheduler(initialClock: 0)
        let attempts = try ["source (1st)", "source (2nd)"].map { scheduler.createColdObservable(try lanes.relativeEvents($0)) }
        var attempt = 0
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            Observable<String>.deferred {
                defer { attempt += 1 }
                return attempts[min(attempt, 1)].asObservable()
            }.retry()
        }
        XCTAssertEqual(try lanes.tokens("output"), articleDrawing(res.events))
        XCTAssertEqual(attempts[1].subscriptions.first?.subscribe, TestTime(try lanes.lane("source (2nd)").column))
    }

    /// "retry", retry(2): two attempts in total, the last error forwarded.
    func testRetry_count() throws {
        let lanes = try ArticleLanes(article(), "output:        -a--a-#         (retry(2))")
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable(try lanes.relativeEvents("source (each)"))
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { source.retry(2) }
        XCTAssertEqual(try lanes.tokens("output"), articleDrawing(res.events))
        XCTAssertEqual(source.subscriptions.count, 2)
    }

    /// "retry": a synchronously failing source retries before the other synchronous source's turn.
    func testRetry_synchronousFailuresComeFirst() throws {
        struct Failure: Error {}
        var attempt = 0
        let flaky = Observable<Int>.create { observer in
            attempt += 1
            switch attempt {
            case 1, 2:
                observer.onNext(attempt)
                observer.onError(Failure())
            default:
                observer.onNext(99)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        var received: [String] = []
        _ = Observable.merge(flaky.retry(), .of(10, 20)).subscribe(onNext: { received.append("\($0)") }, onCompleted: { received.append("|") })
        let text = try article()
        XCTAssertTrue(text.says("flaky: 1st attempt (1#), 2nd (2#), 3rd (99|)"))
        XCTAssertTrue(text.says("Observable.merge(flaky.retry(), .of(10, 20)): \(received.joined(separator: " "))"), "\(received)")
    }

    /// "retry(when:)", Semantics: the notifier is the errors delayed by 4.
    func testRetryWhen_semantics() throws {
        let lanes = try ArticleLanes(article(), "(notificationHandler: { errors in errors.delay(4) })")
        let scheduler = TestScheduler(initialClock: 0)
        let attempts = try ["source (1st)", "source (2nd)"].map { scheduler.createColdObservable(try lanes.relativeEvents($0)) }
        var attempt = 0
        var errors: [Recorded<Event<String>>] = []
        var notifier: [Recorded<Event<String>>] = []
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            Observable<String>.deferred {
                defer { attempt += 1 }
                return attempts[min(attempt, 1)].asObservable()
            }.retry(when: { (errorsIn: Observable<Swift.Error>) in
                errorsIn.do(onNext: { _ in errors.append(.next(scheduler.clock, "e")) })
                    .delay(.seconds(4), scheduler: scheduler)
                    .do(onNext: { _ in notifier.append(.next(scheduler.clock, "x")) })
            })
        }
        XCTAssertEqual(try lanes.tokens("output"), articleDrawing(res.events))
        XCTAssertEqual(try lanes.tokens("errors"), articleDrawing(errors))
        XCTAssertEqual(try lanes.tokens("notifier").filter { $0.text != "|" }, articleDrawing(notifier))
        XCTAssertEqual(attempts[1].subscriptions.first?.subscribe, TestTime(try lanes.lane("source (2nd)").column), "the 2nd attempt's lane")
    }

    /// "retry(when:)": `errors.take(2)` allows three attempts (10 ticks per column, subscribed at 200).
    func testRetryWhen_take() throws {
        let block = try article().codeBlock(containing: "(notificationHandler: { $0.take(2) })")
        let lanes = ArticleLanes(block: block)
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createColdObservable(
            ArticleToken.recordedEvents(ArticleToken.tokens(try lanes.lane("source (each)").marbles, ticksPerColumn: 10)))
        let res = scheduler.start { source.retry(when: { (errors: Observable<Swift.Error>) in errors.take(2) }) }
        let output = try lanes.lane("output")
        XCTAssertEqual(ArticleToken.tokens(output.marbles), articleDrawing(res.events, origin: 200, ticksPerColumn: 10))
        let subscriptions = try XCTUnwrap(block.first { $0.contains("subscriptions:") })
        let drawn = source.subscriptions.map { "(\($0.subscribe) : \($0.unsubscribe))" }.joined(separator: ", ")
        XCTAssertEqual(subscriptions.replacingOccurrences(of: "subscriptions:", with: "").trimmingCharacters(in: .whitespaces), drawn)
    }

    /// "retry(when:)": notifier events while no failure waits.
    func testRetryWhen_notifierWithoutFailure() throws {
        let lanes = try ArticleLanes(article(), "source (hot):  -1----2---|")
        let scheduler = TestScheduler(initialClock: 0)
        let source = scheduler.createHotObservable(try lanes.events("source (hot)"))
        let notifier = scheduler.createColdObservable(try lanes.events("notifier"))
        let res = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
            source.retry(when: { (_: Observable<Swift.Error>) in notifier.asObservable() })
        }
        XCTAssertEqual(try lanes.tokens("output"), articleDrawing(res.events))
        XCTAssertEqual(notifier.subscriptions.first?.subscribe, 0)
    }
}

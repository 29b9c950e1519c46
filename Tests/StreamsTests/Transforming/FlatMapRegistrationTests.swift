import XCTest
@testable import Streams
import StreamsTest

/// `flatMap`'s inner registration in the pumped modes: the key of an inner sequence being
/// subscribed is only reserved (no placeholder in the sink's list), so a completion or a disposal
/// that arrives after `subscribe` returned and before the subscription is registered (driven here
/// through a DEBUG hook) must still end with every inner subscription disposed exactly once.
final class FlatMapRegistrationTests: XCTestCase {
    private struct InnerError: Error {}

    override func tearDown() {
        FlatMapSinkTestHooks.beforeRegistering = nil
        super.tearDown()
    }

    /// An inner sequence that records its observer and counts its disposals. Unlike `create`'s,
    /// its subscription is not disposed by its own completion, so a subscription the sink kept
    /// by mistake stays undisposed. (A test clears `observer` at its end: it holds the sink,
    /// whose subscription holds this object.)
    private final class Inner: Observable<Int> {
        var observer: AnyObserver<Int>?
        var disposals = 0
        var observable: Observable<Int> { self }

        override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
            self.observer = AnyObserver(observer)
            return Disposables.create { self.disposals += 1 }
        }
    }

    /// An inner sequence completing before its registration is not stored: its subscription is
    /// disposed at once, the next inner sequence is stored as usual, and the output completes
    /// when the source does.
    func testInnerCompletingBeforeRegistration_isDisposedNotStored() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            let inners = [Inner(), Inner()]
            var events: [Event<Int>] = []
            let subscription = outer.flatMap { inners[$0].observable }.subscribe { events.append($0) }
            var hookRan = false
            FlatMapSinkTestHooks.beforeRegistering = {
                FlatMapSinkTestHooks.beforeRegistering = nil
                hookRan = true
                inners[0].observer?.onNext(1)
                inners[0].observer?.onCompleted()
            }
            outer.onNext(0)
            XCTAssertTrue(hookRan)
            XCTAssertEqual(inners[0].disposals, 1, "the completed inner sequence's subscription is disposed, not stored")
            outer.onNext(1)
            XCTAssertEqual(inners[1].disposals, 0, "the next inner sequence is stored")
            inners[1].observer?.onNext(2)
            outer.onCompleted()
            XCTAssertEqual(events, [.next(1), .next(2)], "an inner sequence still runs")
            inners[1].observer?.onCompleted()
            XCTAssertEqual(events, [.next(1), .next(2), .completed])
            XCTAssertEqual(inners[1].disposals, 1)
            subscription.dispose()
            XCTAssertEqual(inners.map(\.disposals), [1, 1], "each disposed exactly once")
            for inner in inners { inner.observer = nil }  // the test's own reference cycle
        }
    }

    /// Disposing the output before an inner sequence is registered disposes its subscription
    /// (`merge(maxConcurrent:)`, the limited pumped mode).
    func testDisposalBeforeRegistration_disposesTheInner() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Observable<Int>>()
            let inner = Inner()
            var events: [Event<Int>] = []
            var subscription: Disposable?
            subscription = outer.merge(maxConcurrent: 2).subscribe { events.append($0) }
            FlatMapSinkTestHooks.beforeRegistering = {
                FlatMapSinkTestHooks.beforeRegistering = nil
                subscription?.dispose()
            }
            outer.onNext(inner.observable)
            XCTAssertEqual(inner.disposals, 1)
            inner.observer?.onNext(1)
            XCTAssertEqual(events, [], "nothing after disposal")
            subscription?.dispose()
            XCTAssertEqual(inner.disposals, 1, "disposed once")
            XCTAssertFalse(outer.hasObservers)
            inner.observer = nil  // the test's own reference cycle
        }
    }

    /// An inner sequence failing while it is subscribed ends the output; nothing is left
    /// registered (no leak, the source is unsubscribed).
    func testInnerErrorDuringSubscribe_endsTheOutput() {
        XCTAssertNoLeaks {
            let outer = PublishSubject<Int>()
            var events: [Event<Int>] = []
            let subscription = outer.flatMap { _ in Observable<Int>.error(InnerError()) }.subscribe { events.append($0) }
            outer.onNext(0)
            XCTAssertEqual(events.count, 1)
            XCTAssertTrue(events.first?.error is InnerError)
            XCTAssertFalse(outer.hasObservers)
            subscription.dispose()
        }
    }
}

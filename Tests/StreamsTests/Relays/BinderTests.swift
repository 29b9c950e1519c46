import Foundation
import XCTest
import Streams
import StreamsTest

/// `Binder`, `Reactive` (`.rx`) and `bind(with:onNext:)`.
final class BinderTests: XCTestCase {
    struct TestError: Error {}

    final class Label: NSObject {
        var text = ""
        var history: [String] = []
    }

    func testBinder_bindsElementsOnItsScheduler() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let label = Label()
            let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(300)])
            let binder = Binder(label, scheduler: scheduler) { (label: Label, text: String) in
                label.history.append("\(scheduler.clock):\(text)")
            }
            var subscription: Disposable?
            _ = scheduler.scheduleAt(200) { subscription = xs.bind(to: binder) }
            _ = scheduler.scheduleAt(400) { subscription?.dispose() }
            scheduler.start()
            // Scheduled "now" on the test scheduler: one tick later.
            XCTAssertEqual(label.history, ["211:a", "221:b"])
            // `bind(to:)` subscribes the binder directly: the hot source is released at disposal.
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
        }
    }

    func testBinder_dropsElementsOnceTargetIsGone() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<String>()
            var bound: [String] = []
            var label: Label? = Label()
            let binder = Binder(label!, scheduler: CurrentThreadScheduler.instance) { _, text in bound.append(text) }
            let subscription = subject.bind(to: binder)
            subject.onNext("a")
            label = nil
            subject.onNext("b")
            subscription.dispose()
            XCTAssertEqual(bound, ["a"])
        }
    }

    func testBinder_ignoresCompletionAndReportsErrors() {
        XCTAssertNoLeaks {
            var bound: [Int] = []
            let label = Label()
            let binder = Binder(label, scheduler: CurrentThreadScheduler.instance) { _, value in bound.append(value) }
            let reported = capturingUnhandledErrors {
                binder.on(.next(1))
                binder.on(.completed)
                binder.asObserver().on(.next(2))
                binder.on(.error(TestError()))
            }
            XCTAssertEqual(bound, [1, 2])
            XCTAssertEqual(reported.map { "\(type(of: $0))" }, ["TestError"])
        }
    }

    func testReactive_dynamicMemberBinderSetsProperty() {
        XCTAssertNoLeaks {
            let label = Label()
            let subject = PublishSubject<String>()
            // `.rx.text` binds on a `MainScheduler`, which runs at once on the main thread (tests run there).
            XCTAssertTrue(Thread.isMainThread)
            let subscription = subject.bind(to: label.rx.text)
            subject.onNext("a")
            XCTAssertEqual(label.text, "a")
            subject.onNext("b")
            subscription.dispose()
            subject.onNext("c")
            XCTAssertEqual(label.text, "b")
        }
    }

    func testReactive_customExtensions() {
        XCTAssertNoLeaks {
            let label = Label()
            XCTAssertTrue(label.rx.base === label)
            var copy = label.rx
            copy = Reactive(label)
            XCTAssertTrue(copy.base === label)
            XCTAssertTrue(Label.rx == Reactive<Label>.self)
            let binder = label.rx.history(scheduler: CurrentThreadScheduler.instance)
            Observable.of("x", "y").bind(to: binder).dispose()
            XCTAssertEqual(label.history, ["x", "y"])
        }
    }

    func testBindWith_passesObjectWhileAlive() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var label: Label? = Label()
            var got: [String] = []
            let subscription = subject.bind(with: label!) { label, value in
                label.history.append("\(value)")
                got.append("\(value)")
            }
            subject.onNext(1)
            subject.onNext(2)
            XCTAssertEqual(label?.history, ["1", "2"])
            label = nil
            subject.onNext(3)
            subscription.dispose()
            XCTAssertEqual(got, ["1", "2"])
        }
    }

    func testBindWith_reportsErrors() {
        XCTAssertNoLeaks {
            let label = Label()
            let reported = capturingUnhandledErrors {
                _ = Observable<Int>.error(TestError()).bind(with: label) { _, _ in }
            }
            XCTAssertEqual(reported.count, 1)
        }
    }

    @available(*, deprecated)
    func testTakeDuration_deprecatedSpellingForwardsToTakeFor() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start { xs.take(.seconds(25), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(225)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        }
    }
}

extension Reactive where Base: BinderTests.Label {
    /// A custom binder on a chosen scheduler, as apps write `Reactive` extensions.
    func history(scheduler: ImmediateSchedulerType) -> Binder<String> {
        Binder(base, scheduler: scheduler) { label, text in label.history.append(text) }
    }
}

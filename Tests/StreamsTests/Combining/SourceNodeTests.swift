import XCTest
@testable import Streams

/// `SourceNode`: the observer a multi-source operator subscribes a source with is a subject's
/// own node and holds that source's subscription (disposed once, whenever it arrives); a
/// `merge` of subjects built on it releases everything when it ends.
final class SourceNodeTests: XCTestCase {
    /// A node that records what it receives.
    private final class RecordingNode: SourceNode<Int>, ObserverType {
        var received: [String] = []
        override func receiveNext(_ element: Int) { received.append("\(element)") }
        override func receive(_ event: Event<Int>) { on(event) }
        func on(_ event: Event<Int>) { received.append("\(event)") }
    }

    /// A disposable that counts its disposals.
    private final class CountingDisposable: Disposable {
        var disposals = 0
        func dispose() { disposals += 1 }
    }

    /// A subject registers the node as it is (no wrapper), and delivers to it.
    func testANodeIsItsOwnSubjectNode() {
        let node = RecordingNode()
        XCTAssertTrue(subjectNode(for: node, owner: PublishSubject<Int>.self) === node)
        let subject = PublishSubject<Int>()
        node.setSubscription(subject.subscribe(node))
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(node.received, ["1", "completed"])
    }

    /// The subscription is disposed once, by the first `dispose()` after it is stored.
    func testDisposeAfterTheSubscriptionIsStored() {
        let node = RecordingNode()
        let subscription = CountingDisposable()
        node.setSubscription(subscription)
        XCTAssertEqual(subscription.disposals, 0)
        node.dispose()
        node.dispose()
        XCTAssertEqual(subscription.disposals, 1)
    }

    /// Disposed before its subscription arrives (a source that ended the operator while being
    /// subscribed), the node disposes the subscription as it is stored.
    func testDisposeBeforeTheSubscriptionIsStored() {
        let node = RecordingNode()
        node.dispose()
        let subscription = CountingDisposable()
        node.setSubscription(subscription)
        XCTAssertEqual(subscription.disposals, 1)
        node.dispose()
        XCTAssertEqual(subscription.disposals, 1)
    }

    /// A `merge` of subjects, disposed mid-stream: the subjects drop their nodes and the
    /// subscriber's closure (with its captures) is released.
    func testMergeOfSubjectsReleasesEverythingOnDispose() {
        final class Token {}
        let baseline = Resources.total
        weak var released: Token?
        let subjects = (0..<3).map { _ in PublishSubject<Int>() }
        var received: [Int] = []
        do {
            let token = Token()
            released = token
            let subscription = Observable.merge(subjects.map { $0.asObservable() })
                .subscribe(onNext: { value in withExtendedLifetime(token) { received.append(value) } })
            for (index, subject) in subjects.enumerated() { subject.onNext(index) }
            subscription.dispose()
            subjects[0].onNext(9)
        }
        XCTAssertEqual(received, [0, 1, 2])
        XCTAssertNil(released)
        XCTAssertTrue(subjects.allSatisfy { !$0.hasObservers })
        XCTAssertEqual(Resources.total, baseline + 3)  // the three subjects
    }

    /// A `merge` of subjects and a source that completes while it is subscribed: each completed
    /// source is let go at once, the output completes with the last one, and nothing is left.
    func testMergeReleasesEachSourceAsItCompletes() {
        let baseline = Resources.total
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        var log: [String] = []
        do {
            let subscription = Observable.merge(first.asObservable(), Observable.just(7), second.asObservable())
                .subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("|") })
            first.onNext(1)
            first.onCompleted()
            XCTAssertFalse(first.hasObservers)
            XCTAssertTrue(second.hasObservers)
            second.onNext(2)
            second.onCompleted()
            XCTAssertFalse(second.hasObservers)
            _ = subscription
        }
        XCTAssertEqual(log, ["7", "1", "2", "|"])
        XCTAssertEqual(Resources.total, baseline + 2)
    }

    /// A failing source ends the `merge`: the other subjects drop their nodes.
    func testMergeErrorReleasesTheOtherSources() {
        struct Failure: Error {}
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        var log: [String] = []
        let subscription = Observable.merge(first.asObservable(), second.asObservable())
            .subscribe(onNext: { log.append("\($0)") }, onError: { _ in log.append("!") })
        second.onNext(1)
        first.onError(Failure())
        second.onNext(2)
        XCTAssertEqual(log, ["1", "!"])
        XCTAssertFalse(first.hasObservers)
        XCTAssertFalse(second.hasObservers)
        subscription.dispose()
    }

    /// A `combineLatest` of subjects, disposed mid-stream: the subjects drop their nodes and the
    /// selector (with its captures) is released.
    func testCombineLatestOfSubjectsReleasesEverythingOnDispose() {
        final class Token {}
        let baseline = Resources.total
        weak var released: Token?
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        var received: [Int] = []
        do {
            let token = Token()
            released = token
            let subscription = Observable.combineLatest(first, second) { a, b in withExtendedLifetime(token) { a * 10 + b } }
                .subscribe(onNext: { received.append($0) })
            first.onNext(1)
            second.onNext(2)
            first.onNext(3)
            subscription.dispose()
            second.onNext(4)
        }
        XCTAssertEqual(received, [12, 32])
        XCTAssertNil(released)
        XCTAssertFalse(first.hasObservers)
        XCTAssertFalse(second.hasObservers)
        XCTAssertEqual(Resources.total, baseline + 2)
    }

    /// A source that completes (`just`, while it is subscribed) is let go at once; the output
    /// goes on with the others and completes with the last.
    func testCombineLatestReleasesACompletedSource() {
        let baseline = Resources.total
        let subject = PublishSubject<Int>()
        var log: [String] = []
        do {
            let subscription = Observable.combineLatest(Observable.just(1), subject) { $0 + $1 }
                .subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("|") })
            subject.onNext(10)
            subject.onNext(20)
            subject.onCompleted()
            XCTAssertFalse(subject.hasObservers)
            _ = subscription
        }
        XCTAssertEqual(log, ["11", "21", "|"])
        XCTAssertEqual(Resources.total, baseline + 1)
    }

    /// A source that fails while it is subscribed ends the output: the later sources are not
    /// subscribed, and nothing is left.
    func testCombineLatestErrorDuringSubscribeSkipsTheLaterSources() {
        struct Failure: Error {}
        let baseline = Resources.total
        let subject = PublishSubject<Int>()
        var log: [String] = []
        do {
            let subscription = Observable.combineLatest(Observable<Int>.error(Failure()), subject) { $0 + $1 }
                .subscribe(onNext: { log.append("\($0)") }, onError: { _ in log.append("!") })
            XCTAssertFalse(subject.hasObservers)
            subject.onNext(1)
            _ = subscription
        }
        XCTAssertEqual(log, ["!"])
        XCTAssertEqual(Resources.total, baseline + 1)
    }
}

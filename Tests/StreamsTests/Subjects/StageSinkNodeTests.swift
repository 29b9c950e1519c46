import XCTest
@testable import Streams

/// The sinks of `map`, `filter` and their fused pairs are `StageSink`s: a ``PublishSubject``
/// registers such a sink as its own node (no `SubjectObserverOf` wrapper); delivery, disposal,
/// termination and a late subscription behave as with the wrapper.
final class StageSinkNodeTests: XCTestCase {
    private func nodeTypeName(_ subject: PublishSubject<Int>) -> String? {
        let nodes = subject.registeredNodes
        XCTAssertEqual(nodes.count, 1)
        return nodes.first.map { String(describing: type(of: $0)) }
    }

    /// Each of the four stages subscribed to a subject is the subject's node itself.
    func testStagesOnASubjectAreTheirOwnNodes() {
        let subject = PublishSubject<Int>()
        let stages: [(String, Observable<Int>)] = [
            ("MapSink<", subject.map { $0 + 1 }),
            ("FilterSink<", subject.filter { $0 > 0 }),
            ("MapFilterSink<", subject.map { $0 + 1 }.filter { $0 > 0 }),
            ("FilterFilterSink<", subject.filter { $0 > 0 }.filter { $0 < 10 }),
        ]
        for (prefix, stage) in stages {
            let subscription = stage.subscribe(onNext: { _ in })
            let name = nodeTypeName(subject) ?? "none"
            XCTAssertTrue(name.hasPrefix(prefix), "\(prefix): registered \(name)")
            // Counted under the sink's own type (the same in `init` and `deinit`).
            XCTAssertEqual(Resources.liveCounts[name], 1, name)
            subscription.dispose()
            XCTAssertFalse(subject.hasObservers)
            XCTAssertNil(Resources.liveCounts[name], name)
        }
    }

    /// A stage registered as its own node delivers in subscription order with other observers,
    /// stops alone when disposed, and forwards completion; everything is released.
    func testDirectlyRegisteredStageDeliversDisposesAndCompletes() {
        let baseline = Resources.total
        var log: [String] = []
        do {
            let subject = PublishSubject<Int>()
            let fused = subject.map { $0 * 10 }.filter { $0 != 20 }
                .subscribe(onNext: { log.append("f\($0)") }, onCompleted: { log.append("f|") })
            let mapped = subject.map { $0 + 100 }.subscribe(onNext: { log.append("m\($0)") }, onDisposed: { log.append("m-") })
            let plain = subject.subscribe(onNext: { log.append("p\($0)") }, onCompleted: { log.append("p|") })
            subject.onNext(1)
            subject.onNext(2)
            mapped.dispose()
            subject.onNext(3)
            subject.onCompleted()
            subject.onNext(4)
            XCTAssertFalse(subject.hasObservers)
            fused.dispose()
            plain.dispose()
        }
        XCTAssertEqual(log, ["f10", "m101", "p1", "m102", "p2", "m-", "f30", "p3", "f|", "p|"])
        XCTAssertEqual(Resources.total, baseline)
    }

    /// An error from the subject reaches a directly registered stage, which is then removed.
    func testDirectlyRegisteredStageForwardsTheError() {
        let subject = PublishSubject<Int>()
        var events: [String] = []
        let subscription = subject.filter { $0 > 1 }.filter { $0 < 5 }
            .subscribe(onNext: { events.append("\($0)") }, onError: { events.append("error \($0)") })
        subject.onNext(1)
        subject.onNext(2)
        subject.onError(TransformTestError(tag: 7))
        subject.onNext(3)
        XCTAssertEqual(events, ["2", "error \(TransformTestError(tag: 7))"])
        XCTAssertFalse(subject.hasObservers)
        subscription.dispose()
    }

    /// A stage subscribing to a subject that has terminated is not registered and receives
    /// the terminal event (the ordinary subscription's rejection).
    func testStageOnATerminatedSubjectReceivesTheTerminalEvent() {
        let completed = PublishSubject<Int>()
        completed.onCompleted()
        var log: [String] = []
        _ = completed.map { $0 }.filter { _ in true }.subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("completed") })

        let failed = PublishSubject<Int>()
        failed.onError(TransformTestError(tag: 1))
        _ = failed.filter { _ in true }.subscribe(onError: { log.append("error \($0)") })

        let disposed = PublishSubject<Int>()
        disposed.dispose()
        _ = disposed.map { $0 }.subscribe(onError: { log.append("disposed: \($0 is RxError)") })

        XCTAssertEqual(log, ["completed", "error \(TransformTestError(tag: 1))", "disposed: true"])
        XCTAssertFalse(completed.hasObservers || failed.hasObservers || disposed.hasObservers)
    }

    /// Disposing from inside the downstream's `onNext` stops the stage at once; the subject's
    /// other observers still receive the element, and the stage's node is released.
    func testDisposingFromInsideOnNextRemovesTheStage() {
        let subject = PublishSubject<Int>()
        var received: [String] = []
        var subscription: Disposable?
        subscription = subject.map { $0 * 2 }.filter { _ in true }.subscribe(onNext: { value in
            received.append("stage \(value)")
            subscription?.dispose()
        })
        let other = subject.subscribe(onNext: { received.append("other \($0)") })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(received, ["stage 2", "other 1", "other 2"])
        XCTAssertEqual(subject.registeredNodes.count, 1)
        other.dispose()
        subscription = nil
    }
}

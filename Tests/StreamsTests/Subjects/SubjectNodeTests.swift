import XCTest
@testable import Streams

/// A ``PublishSubject`` registers the observer of `subscribe(onNext:…)` as its own node (no
/// wrapper object), and wraps every other observer; delivery, disposal and termination are the
/// same either way.
final class SubjectNodeTests: XCTestCase {
    /// A closure observer is its own node; an observer of another type gets a wrapper.
    func testClosureObserverIsItsOwnNode() {
        let closure = ClosureObserver<Int>(onNext: { _ in }, onError: nil, onCompleted: nil, disposed: nil, callStack: nil)
        XCTAssertTrue(subjectNode(for: closure, owner: PublishSubject<Int>.self) === closure)
        let wrapped = subjectNode(for: AnyObserver<Int> { _ in }, owner: PublishSubject<Int>.self)
        XCTAssertTrue(wrapped is SubjectObserverOf<AnyObserver<Int>>)
        // The decision is cached per pair: asking again gives the same answers.
        XCTAssertTrue(subjectNode(for: closure, owner: PublishSubject<Int>.self) === closure)
        XCTAssertTrue(subjectNode(for: AnyObserver<Int> { _ in }, owner: PublishSubject<Int>.self) is SubjectObserverOf<AnyObserver<Int>>)
    }

    /// Closure observers and wrapped observers on one subject, in subscription order; disposing
    /// one stops it alone; completion reaches the rest and releases everything.
    func testMixedObserversDeliverDisposeAndComplete() {
        let baseline = Resources.total
        var log: [String] = []
        do {
            let subject = PublishSubject<Int>()
            let first = subject.subscribe(onNext: { log.append("a\($0)") }, onCompleted: { log.append("a|") })
            let second = subject.subscribe(
                AnyObserver<Int> { event in
                    switch event {
                    case .next(let value): log.append("b\(value)")
                    case .completed: log.append("b|")
                    case .error: log.append("b!")
                    }
                })
            let third = subject.subscribe(onNext: { log.append("c\($0)") }, onDisposed: { log.append("c-") })
            subject.onNext(1)
            first.dispose()
            subject.onNext(2)
            subject.onCompleted()
            subject.onNext(3)
            XCTAssertFalse(subject.hasObservers)
            second.dispose()
            third.dispose()
        }
        XCTAssertEqual(log, ["a1", "b1", "c1", "b2", "c2", "b|", "c-"])
        XCTAssertEqual(Resources.total, baseline)
    }

    /// A closure observer disposed from inside its own `onNext` receives nothing more, and the
    /// subject releases it (its closure's captures are freed).
    func testDisposingFromInsideOnNextReleasesTheObserver() {
        final class Token {}
        weak var released: Token?
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        do {
            let token = Token()
            released = token
            subscription = subject.subscribe(onNext: { value in
                withExtendedLifetime(token) { received.append(value) }
                subscription?.dispose()
            })
        }
        subject.onNext(1)
        subject.onNext(2)
        subscription = nil
        XCTAssertEqual(received, [1])
        XCTAssertNil(released)
        XCTAssertFalse(subject.hasObservers)
    }
}

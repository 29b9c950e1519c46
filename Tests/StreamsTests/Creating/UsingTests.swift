import Streams
import StreamsTest
import XCTest

private struct UsingError: Error, Equatable { let tag: String }

/// A resource that records when it was disposed, in virtual time.
private final class TrackedResource: Disposable {
    let id: Int
    private let onDispose: (Int) -> Void
    init(id: Int, onDispose: @escaping (Int) -> Void) {
        self.id = id
        self.onDispose = onDispose
    }
    func dispose() { onDispose(id) }
}

final class UsingTests: XCTestCase {
    func testUsing_resourceDisposedOnCompletion() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            var created: [Int] = []
            var disposed: [Int] = []
            let xs = scheduler.createColdObservable([.next(100, 1), .next(200, 2), .completed(300)])
            let res = scheduler.start {
                Observable.using(
                    { () -> TrackedResource in
                        created.append(scheduler.clock)
                        return TrackedResource(id: scheduler.clock) { _ in disposed.append(scheduler.clock) }
                    }, observableFactory: { resource in xs.map { $0 + resource.id } })
            }
            XCTAssertEqual(res.events, [.next(300, 201), .next(400, 202), .completed(500)])
            XCTAssertEqual(created, [200])
            XCTAssertEqual(disposed, [500])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
        }
    }

    func testUsing_resourceDisposedOnError() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            var disposed: [Int] = []
            let xs = scheduler.createColdObservable([.next(100, 1), .error(150, UsingError(tag: "source"))])
            let res = scheduler.start {
                Observable.using({ TrackedResource(id: 0) { _ in disposed.append(scheduler.clock) } }, observableFactory: { _ in xs.asObservable() })
            }
            XCTAssertEqual(res.events, [.next(300, 1), .error(350, UsingError(tag: "source"))])
            XCTAssertEqual(disposed, [350])
        }
    }

    func testUsing_resourceDisposedOnDispose() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            var disposed: [Int] = []
            let xs = scheduler.createColdObservable([.next(100, 1), .next(200, 2), .completed(300)])
            let res = scheduler.start(disposed: 350) {
                Observable.using({ TrackedResource(id: 0) { _ in disposed.append(scheduler.clock) } }, observableFactory: { _ in xs.asObservable() })
            }
            XCTAssertEqual(res.events, [.next(300, 1)])
            XCTAssertEqual(disposed, [350])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 350)])
        }
    }

    func testUsing_emptyAndNever() {
        XCTAssertNoLeaks {
            var disposed = 0
            var events: [Event<Int>] = []
            _ = Observable.using({ TrackedResource(id: 0) { _ in disposed += 1 } }, observableFactory: { _ in Observable<Int>.empty() })
                .subscribe { events.append($0) }
            XCTAssertEqual(events, [.completed])
            XCTAssertEqual(disposed, 1)
            let subscription = Observable.using({ TrackedResource(id: 0) { _ in disposed += 1 } }, observableFactory: { _ in Observable<Int>.never() })
                .subscribe { events.append($0) }
            XCTAssertEqual(disposed, 1)
            subscription.dispose()
            subscription.dispose()
            XCTAssertEqual(disposed, 2)
        }
    }

    func testUsing_resourceFactoryThrows() {
        XCTAssertNoLeaks {
            var factoryCalled = false
            var events: [Event<Int>] = []
            _ = Observable.using(
                { () throws -> TrackedResource in throw UsingError(tag: "resource") },
                observableFactory: { _ in
                    factoryCalled = true
                    return Observable<Int>.just(1)
                }
            ).subscribe { events.append($0) }
            XCTAssertEqual(events, [.error(UsingError(tag: "resource"))])
            XCTAssertFalse(factoryCalled)
        }
    }

    func testUsing_observableFactoryThrows() {
        XCTAssertNoLeaks {
            var disposed = 0
            var events: [Event<Int>] = []
            _ = Observable.using(
                { TrackedResource(id: 0) { _ in disposed += 1 } },
                observableFactory: { _ -> Observable<Int> in
                    throw UsingError(tag: "observable")
                }
            ).subscribe { events.append($0) }
            XCTAssertEqual(events, [.error(UsingError(tag: "observable"))])
            XCTAssertEqual(disposed, 1)
        }
    }

    /// Each subscription gets its own resource.
    func testUsing_resourcePerSubscription() {
        XCTAssertNoLeaks {
            var next = 0
            var disposed: [Int] = []
            let observable = Observable.using(
                { () -> TrackedResource in
                    next += 1
                    return TrackedResource(id: next) { disposed.append($0) }
                }, observableFactory: { resource in Observable.just(resource.id) })
            var values: [Int] = []
            _ = observable.subscribe(onNext: { values.append($0) })
            _ = observable.subscribe(onNext: { values.append($0) })
            XCTAssertEqual(values, [1, 2])
            XCTAssertEqual(disposed, [1, 2])
        }
    }
}

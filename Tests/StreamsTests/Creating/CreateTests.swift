import XCTest
import Streams
import StreamsTest

final class CreateTests: XCTestCase {
    func testCreate_values() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start {
                Observable<Int>.create { observer in
                    observer.onNext(1)
                    observer.onNext(2)
                    observer.onCompleted()
                    return Disposables.create()
                }
            }
            XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .completed(200)])
        }
    }

    func testCreate_empty() {
        XCTAssertNoLeaks {
            let (events, _) = collectEvents(
                Observable<Int>.create { observer in
                    observer.onCompleted()
                    return Disposables.create()
                })
            XCTAssertEqual(events, [.completed])
        }
    }

    func testCreate_never() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Observable<Int>.create { _ in Disposables.create() } }
            XCTAssertEqual(res.events, [])
        }
    }

    func testCreate_error() {
        XCTAssertNoLeaks {
            let (events, _) = collectEvents(
                Observable<Int>.create { observer in
                    observer.onNext(1)
                    observer.onError(TransformTestError())
                    return Disposables.create()
                })
            XCTAssertEqual(events, [.next(1), .error(TransformTestError())])
        }
    }

    func testCreate_dropsEventsAfterTerminal() {
        XCTAssertNoLeaks {
            let (events, _) = collectEvents(
                Observable<Int>.create { observer in
                    observer.onNext(1)
                    observer.onCompleted()
                    observer.onNext(2)
                    observer.onError(TransformTestError())
                    observer.onCompleted()
                    return Disposables.create()
                })
            XCTAssertEqual(events, [.next(1), .completed])
        }
    }

    func testCreate_disposesReturnedDisposableOnTerminal() {
        XCTAssertNoLeaks {
            var disposed = 0
            _ = collectEvents(
                Observable<Int>.create { observer in
                    observer.onCompleted()
                    return Disposables.create { disposed += 1 }
                })
            XCTAssertEqual(disposed, 1)
        }
    }

    func testCreate_disposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .completed(300)])
            let res = scheduler.start(disposed: 250) {
                Observable<Int>.create { observer in xs.subscribe(observer) }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }
}

extension CreateTests {
    func testCreate_endlessSynchronousSourceInsideCreateStopsWhenDownstreamStops() {
        XCTAssertNoLeaks {
            var produced = 0
            let naturals = AnySequence { () -> AnyIterator<Int> in
                var next = 0
                return AnyIterator {
                    produced += 1; next += 1; return next
                }
            }
            var seen: [Int] = []
            var completed = false
            _ = Observable<Int>.create { observer in Observable.from(naturals).subscribe(observer) }
                .take(3)
                .subscribe(onNext: { seen.append($0) }, onCompleted: { completed = true })
            XCTAssertEqual(seen, [1, 2, 3])
            XCTAssertTrue(completed)
            XCTAssertLessThanOrEqual(produced, 4, "the loop must stop right after take(3) completes")
        }
    }
}

import XCTest
import Streams
import StreamsTest

final class InfallibleTests: XCTestCase {
    struct TestError: Error {}

    func testInfallible_create() {
        XCTAssertNoLeaks {
            var log: [String] = []
            let subscription = Infallible<Int>.create { observer in
                observer(.next(1))
                observer(.completed)
                observer(.next(2))
                return Disposables.create { log.append("disposed") }
            }.subscribe(onNext: { log.append("n\($0)") }, onCompleted: { log.append("c") }, onDisposed: { log.append("d") })
            subscription.dispose()
            XCTAssertEqual(log, ["n1", "c", "d", "disposed"])
        }
    }

    func testInfallible_factories() {
        XCTAssertNoLeaks {
            var got: [Int] = []
            _ = Infallible.just(1).subscribe(onNext: { got.append($0) })
            _ = Infallible.of(2, 3).subscribe(onNext: { got.append($0) })
            _ = Infallible.from([4]).subscribe(onNext: { got.append($0) })
            var completed = 0
            _ = Infallible<Int>.empty().subscribe(onCompleted: { completed += 1 })
            Infallible<Int>.never().subscribe(onNext: { got.append($0) }).dispose()
            XCTAssertEqual(got, [1, 2, 3, 4])
            XCTAssertEqual(completed, 1)
        }
    }

    func testAsInfallible_onErrorJustReturn() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError())])
            let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 9).asObservable() }
            XCTAssertEqual(res.events, [.next(210, 1), .next(250, 9), .completed(250)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testAsInfallible_fallbackAndRecover() {
        XCTAssertNoLeaks {
            var got: [Int] = []
            _ = Observable<Int>.error(TestError()).asInfallible(onErrorFallbackTo: .of(1, 2)).subscribe(onNext: { got.append($0) })
            _ = Observable<Int>.error(TestError()).asInfallible(onErrorRecover: { _ in .just(3) }).subscribe(onNext: { got.append($0) })
            XCTAssertEqual(got, [1, 2, 3])
        }
    }

    func testInfallible_neverAndDispose() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
            let res = scheduler.start(disposed: 250) { xs.asInfallible(onErrorJustReturn: 0).map { $0 * 10 }.asObservable() }
            XCTAssertEqual(res.events, [.next(210, 10)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testInfallible_operators() {
        XCTAssertNoLeaks {
            var got: [Int] = []
            _ = Infallible.of(1, 1, 2, 3, 3).distinctUntilChanged().filter { $0 > 1 }.map { $0 * 10 }.startWith(0)
                .subscribe(onNext: { got.append($0) })
            XCTAssertEqual(got, [0, 20, 30])
            got = []
            _ = Infallible.of(1, 2, 3).scan(0, accumulator: +).flatMap { Infallible.of($0, -$0) }.subscribe(onNext: { got.append($0) })
            XCTAssertEqual(got, [1, -1, 3, -3, 6, -6])
        }
    }

    func testInfallible_combiningAndBinding() {
        XCTAssertNoLeaks {
            let a = PublishRelay<Int>()
            let b = BehaviorRelay(value: "x")
            let combined = BehaviorRelay(value: "")
            let latest = PublishRelay<String>()
            var latestValues: [String] = []
            let d1 = Infallible.combineLatest(a.asInfallible(), b.asInfallible()) { "\($0)\($1)" }.bind(to: combined)
            let d2 = a.asInfallible().withLatestFrom(b.asInfallible()).bind(to: latest)
            let d3 = latest.asInfallible().bind(onNext: { latestValues.append($0) })
            a.accept(1)
            b.accept("y")
            a.accept(2)
            XCTAssertEqual(combined.value, "2y")
            XCTAssertEqual(latestValues, ["x", "y"])
            d1.dispose(); d2.dispose(); d3.dispose()
        }
    }
}

import XCTest
@testable import Streams
import StreamsTest

/// The closure forms of the traits' `subscribe`: the first event only, then `onDisposed` once.
final class TraitSubscribeClosuresTests: XCTestCase {
    private struct TestError: Error, Equatable {}

    func testSingle_onlyTheFirstEventReachesTheClosures() {
        XCTAssertNoLeaks {
            var log: [String] = []
            _ = Single<Int>.create { single in
                single(.success(1))
                single(.failure(TestError()))
                single(.success(2))
                return Disposables.create()
            }.subscribe(onSuccess: { log.append("s\($0)") }, onFailure: { _ in log.append("f") }, onDisposed: { log.append("d") })
            XCTAssertEqual(log, ["s1", "d"])
        }
    }

    func testSingle_completingWithoutAnElementFailsWithNoElements() {
        XCTAssertNoLeaks {
            var failures: [Error] = []
            var disposed = 0
            _ = Single<Int>(raw: Observable.empty()).subscribe(
                onSuccess: { _ in XCTFail("no element") }, onFailure: { failures.append($0) }, onDisposed: { disposed += 1 })
            XCTAssertEqual(failures.count, 1)
            XCTAssertEqual(failures.first as? RxError, RxError.noElements)
            XCTAssertEqual(disposed, 1)
        }
    }

    func testSingle_disposedBeforeTheEventRunsOnlyOnDisposed() {
        XCTAssertNoLeaks {
            var log: [String] = []
            let subject = PublishSubject<Int>()
            let subscription = subject.take(1).asSingle()
                .subscribe(onSuccess: { log.append("s\($0)") }, onFailure: { _ in log.append("f") }, onDisposed: { log.append("d") })
            subscription.dispose()
            subscription.dispose()
            subject.onNext(1)
            XCTAssertEqual(log, ["d"])
        }
    }

    func testMaybe_successEmptyAndErrorEachCallOneClosureThenOnDisposed() {
        XCTAssertNoLeaks {
            var log: [String] = []
            func record(_ maybe: Maybe<Int>) {
                _ = maybe.subscribe(
                    onSuccess: { log.append("s\($0)") }, onError: { _ in log.append("e") },
                    onCompleted: { log.append("c") }, onDisposed: { log.append("d") })
            }
            record(.just(1))
            record(.empty())
            record(.error(TestError()))
            record(Maybe(raw: Observable.of(7, 8)))
            XCTAssertEqual(log, ["s1", "d", "c", "d", "e", "d", "s7", "d"])
        }
    }

    func testCompletable_completionOrErrorThenOnDisposed() {
        XCTAssertNoLeaks {
            var log: [String] = []
            _ = Completable.empty().subscribe(onCompleted: { log.append("c") }, onError: { _ in log.append("e") }, onDisposed: { log.append("d") })
            _ = Completable.error(TestError()).subscribe(onCompleted: { log.append("c") }, onError: { _ in log.append("e") }, onDisposed: { log.append("d") })
            let never = Completable.never().subscribe(onCompleted: { log.append("c") }, onDisposed: { log.append("never-d") })
            never.dispose()
            XCTAssertEqual(log, ["c", "d", "e", "d", "never-d"])
        }
    }

    func testTraits_withoutOnDisposedReturnTheSourceSubscription() {
        XCTAssertNoLeaks {
            let subject = PublishSubject<Int>()
            var got: [Int] = []
            let subscription = subject.take(1).asSingle().subscribe(onSuccess: { got.append($0) })
            XCTAssertTrue(subject.hasObservers)
            subscription.dispose()
            XCTAssertFalse(subject.hasObservers)
            subject.onNext(1)
            XCTAssertEqual(got, [])
        }
    }
}

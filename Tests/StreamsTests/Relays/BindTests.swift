import XCTest
import Streams
import StreamsTest

final class BindTests: XCTestCase {
    // MARK: Observers

    func testBind_toObserversForwardsAllEvents() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var binding: Disposable!
            scheduler.scheduleAt(200) { binding = xs.asObservable().bind(to: first, second) }
            scheduler.scheduleAt(1000) { binding.dispose() }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(210, 2), .next(220, 3), .completed(300)])
            XCTAssertEqual(second.events, first.events)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testBind_toObserversForwardsError() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let target = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = target.subscribe(recorder)
            let reported = capturingUnhandledErrors {
                _ = source.bind(to: target)
                source.onNext(1)
                source.onError(SubjectTestError())
            }
            XCTAssertEqual(recorder.events, [.next(1), .error(SubjectTestError())])
            XCTAssertTrue(reported.isEmpty)
            subscription.dispose()
        }
    }

    func testBind_toOptionalObservers() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let first = EventRecorder<Int?>()
            let second = BehaviorSubject<Int?>(value: nil)
            let secondRecorder = EventRecorder<Int?>()
            let watch = second.subscribe(secondRecorder)
            _ = source.bind(to: first, first)
            _ = source.bind(to: second)
            source.onNext(1)
            source.onCompleted()
            XCTAssertEqual(first.events, [.next(1), .next(1), .completed, .completed])
            XCTAssertEqual(secondRecorder.events, [.next(nil), .next(1), .completed])
            watch.dispose()
        }
    }

    func testBind_optionalSourceToOptionalTargets() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int?>()
            let observer = EventRecorder<Int?>()
            let relay = BehaviorRelay<Int?>(value: 0)
            _ = source.bind(to: observer)
            _ = source.bind(to: relay)
            source.onNext(nil)
            XCTAssertNil(relay.value)
            source.onNext(1)
            source.onCompleted()
            XCTAssertEqual(observer.events, [.next(nil), .next(1), .completed])
            XCTAssertEqual(relay.value, 1)
        }
    }

    func testBind_toObserversDisposeMidStream() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(260, 3), .completed(300)])
            let observer = scheduler.createObserver(Int.self)
            var binding: Disposable!
            scheduler.scheduleAt(200) { binding = xs.asObservable().bind(to: observer) }
            scheduler.scheduleAt(250) { binding.dispose() }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(210, 1), .next(240, 2)])
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        }
    }

    func testBind_toObserversNever() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let binding = source.bind(to: recorder)
            XCTAssertTrue(source.hasObservers)
            binding.dispose()
            XCTAssertFalse(source.hasObservers)
            XCTAssertEqual(recorder.events, [])
        }
    }

    // MARK: Relays

    func testBind_toPublishRelays() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let first = PublishRelay<Int>()
            let second = PublishRelay<Int>()
            let res1 = scheduler.createObserver(Int.self)
            let res2 = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(100) {
                subscriptions.append(first.subscribe(res1))
                subscriptions.append(second.subscribe(res2))
            }
            scheduler.scheduleAt(200) { subscriptions.append(xs.asObservable().bind(to: first, second)) }
            scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            // Completion is not forwarded: relays never terminate.
            XCTAssertEqual(res1.events, [.next(210, 1), .next(220, 2)])
            XCTAssertEqual(res2.events, res1.events)
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        }
    }

    func testBind_toOptionalPublishRelay() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let relay = PublishRelay<Int?>()
            let recorder = EventRecorder<Int?>()
            let watch = relay.subscribe(recorder)
            let binding = source.bind(to: relay)
            source.onNext(1)
            source.onCompleted()
            XCTAssertEqual(recorder.events, [.next(1)])
            binding.dispose()
            watch.dispose()
        }
    }

    func testBind_toBehaviorRelays() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let first = BehaviorRelay(value: 0)
            let second = BehaviorRelay(value: 10)
            let optional = BehaviorRelay<Int?>(value: nil)
            let recorder = EventRecorder<Int>()
            let watch = first.subscribe(recorder)
            _ = source.bind(to: first, second)
            _ = source.bind(to: optional)
            source.onNext(1)
            source.onNext(2)
            source.onCompleted()
            source.onNext(3)
            XCTAssertEqual(first.value, 2)
            XCTAssertEqual(second.value, 2)
            XCTAssertEqual(optional.value, 2)
            XCTAssertEqual(recorder.events, [.next(0), .next(1), .next(2)])
            watch.dispose()
        }
    }

    func testBind_toReplayRelays() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let bounded = ReplayRelay<Int>.create(bufferSize: 1)
            let unbounded = ReplayRelay<Int>.createUnbound()
            let optional = ReplayRelay<Int?>.create(bufferSize: 2)
            _ = source.bind(to: bounded, unbounded)
            _ = source.bind(to: optional)
            source.onNext(1)
            source.onNext(2)
            source.onCompleted()
            let boundedRecorder = EventRecorder<Int>()
            let unboundedRecorder = EventRecorder<Int>()
            let optionalRecorder = EventRecorder<Int?>()
            let subscriptions = [
                bounded.subscribe(boundedRecorder),
                unbounded.subscribe(unboundedRecorder),
                optional.subscribe(optionalRecorder),
            ]
            XCTAssertEqual(boundedRecorder.events, [.next(2)])
            XCTAssertEqual(unboundedRecorder.events, [.next(1), .next(2)])
            XCTAssertEqual(optionalRecorder.events, [.next(1), .next(2)])
            subscriptions.forEach { $0.dispose() }
        }
    }

    func testBind_errorToRelayIsReportedNotForwarded() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let publish = PublishRelay<Int>()
            let behavior = BehaviorRelay(value: 0)
            let replay = ReplayRelay<Int>.create(bufferSize: 1)
            let recorder = EventRecorder<Int>()
            let watch = publish.subscribe(recorder)
            let reported = capturingUnhandledErrors {
                _ = source.bind(to: publish)
                _ = source.bind(to: behavior)
                _ = source.bind(to: replay)
                source.onNext(1)
                source.onError(SubjectTestError(code: 7))
            }
            XCTAssertEqual(reported.count, 3)
            XCTAssertTrue(reported.allSatisfy { ($0 as? SubjectTestError) == SubjectTestError(code: 7) })
            XCTAssertEqual(recorder.events, [.next(1)])
            XCTAssertEqual(behavior.value, 1)
            XCTAssertFalse(source.hasObservers)
            watch.dispose()
        }
    }

    func testBind_toRelayDisposeMidStream() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let relay = BehaviorRelay(value: 0)
            let binding = source.bind(to: relay)
            source.onNext(1)
            binding.dispose()
            source.onNext(2)
            XCTAssertEqual(relay.value, 1)
            XCTAssertFalse(source.hasObservers)
        }
    }

    func testBind_relayToRelay() {
        XCTAssertNoLeaks {
            let source = BehaviorRelay(value: 1)
            let target = PublishRelay<Int>()
            let recorder = EventRecorder<Int>()
            let watch = target.subscribe(recorder)
            let binding = source.bind(to: target)
            source.accept(2)
            XCTAssertEqual(recorder.events, [.next(1), .next(2)])
            binding.dispose()
            watch.dispose()
        }
    }

    func testBind_reentrantAcceptIntoBoundSource() {
        XCTAssertNoLeaks {
            let source = PublishRelay<Int>()
            let target = BehaviorRelay(value: 0)
            let binding = source.bind(to: target)
            var seen: [Int] = []
            let loop = target.subscribe(onNext: { value in
                seen.append(value)
                if value > 0 && value < 3 { source.accept(value + 1) }
            })
            source.accept(1)
            XCTAssertEqual(seen, [0, 1, 2, 3])
            XCTAssertEqual(target.value, 3)
            binding.dispose()
            loop.dispose()
        }
    }

    // MARK: Binder functions

    func testBind_toBinderFunction() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let binding: Disposable = source.bind(to: { (observable: PublishSubject<Int>) -> Disposable in
                observable.map { $0 * 10 }.subscribe(recorder)
            })
            source.onNext(1)
            binding.dispose()
            source.onNext(2)
            XCTAssertEqual(recorder.events, [.next(10)])
        }
    }

    func testBind_toCurriedBinderFunction() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let recorder = EventRecorder<String>()
            func binder(_ observable: PublishSubject<Int>) -> (String) -> Disposable {
                { prefix in observable.map { "\(prefix)\($0)" }.subscribe(recorder) }
            }
            let binding = source.bind(to: binder, curriedArgument: "#")
            source.onNext(1)
            source.onCompleted()
            XCTAssertEqual(recorder.events, [.next("#1"), .completed])
            binding.dispose()
        }
    }

    // MARK: onNext

    func testBind_onNext() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            var received: [Int] = []
            let reported = capturingUnhandledErrors {
                let binding = source.bind(onNext: { received.append($0) })
                source.onNext(1)
                source.onNext(2)
                source.onCompleted()
                binding.dispose()
            }
            XCTAssertEqual(received, [1, 2])
            XCTAssertTrue(reported.isEmpty)
        }
    }

    func testBind_onNextReportsError() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            var received: [Int] = []
            let reported = capturingUnhandledErrors {
                _ = source.bind(onNext: { received.append($0) })
                source.onNext(1)
                source.onError(SubjectTestError(code: 3))
            }
            XCTAssertEqual(received, [1])
            XCTAssertEqual(reported.count, 1)
            XCTAssertEqual(reported.first as? SubjectTestError, SubjectTestError(code: 3))
        }
    }

    func testBind_stressBindingWhileSending() {
        XCTAssertNoLeaks {
            let source = PublishSubject<Int>()
            let relay = BehaviorRelay(value: 0)
            let count = 5_000
            runConcurrently(
                subscribers: 2,
                sender: {
                    for value in 1...count { source.onNext(value) }
                },
                subscriber: { _ in
                    for _ in 0..<200 {
                        let binding = source.bind(to: relay)
                        binding.dispose()
                    }
                })
            XCTAssertFalse(source.hasObservers)
            let reported = capturingUnhandledErrors {
                _ = source.bind(to: relay)
                source.onNext(count + 1)
                source.onCompleted()
            }
            XCTAssertTrue(reported.isEmpty)
            XCTAssertEqual(relay.value, count + 1)
        }
    }
}

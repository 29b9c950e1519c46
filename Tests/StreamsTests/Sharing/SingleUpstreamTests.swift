import XCTest
import Foundation
@testable import Streams
import StreamsTest

/// A shared sequence holds at most one upstream subscription at any instant, even when the last
/// observer leaves while a new one arrives (issue 18).
final class SingleUpstreamTests: XCTestCase {
    /// A source that counts its live subscriptions and the most seen at once.
    private final class UpstreamProbe: @unchecked Sendable {
        // Safety: all mutable state is in `counts`, guarded by its lock.
        let counts = LockedState((live: 0, peak: 0, subscribed: 0))
        var observable: Observable<Int> {
            Observable.create { [counts] _ in
                counts.withLock { counts in
                    counts.live += 1
                    counts.subscribed += 1
                    counts.peak = max(counts.peak, counts.live)
                }
                return Disposables.create { counts.withLock { $0.live -= 1 } }
            }
        }
    }

    private static var variants: [(String, (Observable<Int>) -> Observable<Int>)] {
        [
            ("share(replay: 0)", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 1, scope: .forever)", { $0.share(replay: 1, scope: .forever) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("replay(1).refCount()", { $0.replay(1).refCount() }),
            ("multicast(PublishSubject()).refCount()", { $0.multicast(PublishSubject<Int>()).refCount() }),
        ]
    }

    override func tearDown() {
        ShareTestHooks.beforeDisconnect = nil
        super.tearDown()
    }

    /// The last observer leaves on another thread, which is held just before it disposes the
    /// upstream; meanwhile a new observer subscribes. The new connection waits for the
    /// disconnect: never two upstream subscriptions at once.
    func testNewObserverDuringDisconnect_waitsForIt() {
        for (name, makeShared) in Self.variants {
            XCTAssertNoLeaksEventually(name) {
                let probe = UpstreamProbe()
                let shared = makeShared(probe.observable)
                let first = shared.subscribe()
                XCTAssertEqual(probe.counts.withLock { $0.live }, 1, name)

                let pause = PauseOnce()
                ShareTestHooks.beforeDisconnect = pause.hook
                let left = DispatchSemaphore(value: 0)
                // Safety: handed over to the thread; this thread no longer touches it.
                let handedOver = UncheckedSendable(first)
                Thread.detachNewThread {
                    handedOver.value.dispose()
                    left.signal()
                }
                pause.waitUntilPaused()
                let second = shared.subscribe()
                XCTAssertEqual(probe.counts.withLock { $0.live }, 1, "\(name): connected before the disconnect completed")
                pause.resume()
                left.wait()
                ShareTestHooks.beforeDisconnect = nil

                let counts = probe.counts.withLock { $0 }
                XCTAssertEqual(counts.peak, 1, name)
                XCTAssertEqual(counts.live, 1, "\(name): the waiting observer is connected once the disconnect is done")
                XCTAssertEqual(counts.subscribed, 2, name)
                second.dispose()
                XCTAssertEqual(probe.counts.withLock { $0.live }, 0, name)
            }
        }
    }

    /// Bounded stress: four threads subscribe and dispose while a fifth feeds the source.
    func testStress_subscribeAndDisposeFromManyThreads() {
        for (name, makeShared) in Self.variants {
            XCTAssertNoLeaksEventually(name) {
                let probe = UpstreamProbe()
                let subject = PublishSubject<Int>()
                let shared = makeShared(Observable.merge(probe.observable, subject.asObservable()))
                let group = DispatchGroup()
                let stop = LockedState(false)
                DispatchQueue.global().async(group: group) {
                    var value = 0
                    while !stop.withLock({ $0 }) && value < 200_000 {
                        subject.onNext(value)
                        value += 1
                    }
                }
                // Safety: the shared sequence is thread-safe (that is what is tested); the wrapper
                // only carries it to the worker threads.
                let sharedAcrossThreads = UncheckedSendable(shared)
                DispatchQueue.concurrentPerform(iterations: 4) { _ in
                    for _ in 0..<500 {
                        let subscription = sharedAcrossThreads.value.subscribe()
                        subscription.dispose()
                    }
                }
                stop.withLock { $0 = true }
                group.wait()
                let counts = probe.counts.withLock { $0 }
                XCTAssertEqual(counts.peak, 1, name)
                XCTAssertEqual(counts.live, 0, name)
            }
        }
    }
}

import Foundation
import XCTest
@testable import ConfigFeatures
import Streams
import StreamsTest

/// `FirebaseRESTDatabase.observeValue` on real threads: stream events from background queues,
/// reconnections on a dispatch scheduler, disposal racing with everything.
final class FirebaseRESTDatabaseStressTests: XCTestCase {
    /// Feeds connection `index` from a background queue: its snapshot, then 20 changes, then a
    /// drop (the last connection stays open after its snapshot).
    private static func feed(_ stream: FakeHTTPTransport.Stream, index: Int, connections: Int) {
        DispatchQueue.global().async {
            stream.open()
            let base = min(index, connections - 1) * 100
            stream.send(ssePut("/", .number(Double(base))))
            guard index < connections - 1 else {
                stream.send(ssePut("/", .number(Double(base + 20))))
                return
            }
            for step in 1...20 {
                stream.send(ssePut("/", .number(Double(base + step))))
            }
            stream.complete()
        }
    }

    func testFirebaseRESTDatabase_reconnectingStreamsDeliverInOrderWithoutDuplicates() {
        XCTAssertNoLeaksEventually {
            for _ in 0..<20 {
                let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "rest-stress")
                let counter = LockedState(0)
                let connections = 5
                let transport = FakeHTTPTransport(scheduler: scheduler) { stream in
                    let index = counter.withLock { count -> Int in
                        defer { count += 1 }
                        return count
                    }
                    Self.feed(stream, index: index, connections: connections)
                }
                let database = FirebaseRESTDatabase(
                    databaseURL: URL(string: "https://db.test")!,
                    scheduler: scheduler,
                    reconnectBackoff: BackoffPolicy(initialDelay: 0.001, maximumDelay: 0.001),
                    transport: transport
                )
                let values = LockedState<[Double]>([])
                let done = expectation(description: "last value")
                let subscription = database.observeValue(at: "x").subscribe(onNext: { value in
                    let number = value.numberValue ?? -1
                    values.withLock { $0.append(number) }
                    if number == Double((connections - 1) * 100 + 20) { done.fulfill() }
                })
                wait(for: [done], timeout: 10)
                subscription.dispose()
                let seen = values.withLock { $0 }
                XCTAssertEqual(seen, seen.sorted(), "in order")
                XCTAssertEqual(Set(seen).count, seen.count, "no duplicates")
                XCTAssertEqual(seen.first, 0)
                XCTAssertEqual(database.activeObserverCount, 0)
            }
        }
    }

    func testFirebaseRESTDatabase_disposalRacesWithStreamEvents() {
        XCTAssertNoLeaksEventually {
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            for round in 0..<100 {
                let transport = FakeHTTPTransport(scheduler: scheduler) { stream in
                    Self.feed(stream, index: 0, connections: 2)
                }
                let database = FirebaseRESTDatabase(
                    databaseURL: URL(string: "https://db.test")!,
                    scheduler: scheduler,
                    reconnectBackoff: BackoffPolicy(initialDelay: 0),
                    transport: transport
                )
                let terminated = LockedState(false)
                let subscription = database.observeValue(at: "x").subscribe(
                    onError: { _ in terminated.withLock { $0 = true } },
                    onCompleted: { terminated.withLock { $0 = true } }
                )
                if round % 2 == 0 {
                    let box = DisposableBox(subscription)
                    DispatchQueue.global().async { box.disposable.dispose() }
                } else {
                    subscription.dispose()
                }
                XCTAssertTrue(waitForCondition { database.activeObserverCount == 0 })
                XCTAssertFalse(terminated.withLock { $0 }, "an observation never terminates by itself here")
            }
        }
    }
}

/// Polls `condition` until it holds or 10 s pass.
private func waitForCondition(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while !condition() {
        if Date() >= deadline { return false }
        _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.002))
    }
    return true
}

/// Hands a subscription to another thread to dispose it.
private struct DisposableBox: @unchecked Sendable {
    // Safety: disposables are thread-safe (disposing from any thread is part of their contract).
    let disposable: Disposable
    init(_ disposable: Disposable) { self.disposable = disposable }
}

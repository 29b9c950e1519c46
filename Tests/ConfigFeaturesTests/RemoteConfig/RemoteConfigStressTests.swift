import Foundation
import XCTest
import ConfigFeatures
import StreamsTest

/// Many threads fetching, activating, reading and (un)subscribing realtime updates at once, on a
/// real dispatch scheduler. Asserts the grammar, counts and value consistency, never timing.
final class RemoteConfigStressTests: XCTestCase {
    private struct Tally {
        var fetchSuccesses = 0
        var fetchErrors: [String] = []
        var activations = 0
        var invalidValues: [String] = []
        var extraEvents = 0
    }

    func testRemoteConfig_concurrentFetchActivateReadAndSubscribe() {
        XCTAssertNoLeaksEventually {
            let queue = DispatchQueue(label: "RemoteConfigStressTests.scheduler")
            let scheduler = SerialDispatchQueueScheduler(serialQueue: queue)
            let backend = InMemoryRemoteConfigBackend(values: ["k": "v0", "other": "x"], latency: .milliseconds(1), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, settings: settings(interval: 0, timeout: 60), scheduler: scheduler)
            remoteConfig.setDefaults(["k": "default"])
            let iterations = 200
            let publications = iterations / 16 + 1
            let allowed = Set(["default"] + (0...publications).map { "v\($0)" })
            let tally = LockedState(Tally())
            let group = DispatchGroup()
            let threads = 8

            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                let updates = remoteConfig.configUpdates.subscribe(onNext: { _ in })
                for iteration in 0..<iterations {
                    let value = remoteConfig["k"]
                    if !allowed.contains(value.stringValue) || (value.source == .default) != (value.stringValue == "default") {
                        tally.withLock { $0.invalidValues.append("\(value)") }
                    }
                    switch iteration % 4 {
                    case 0:
                        group.enter()
                        let finished = LockedState(false)
                        _ = remoteConfig.fetch(withExpirationDuration: 0).asObservable().subscribe(
                            onNext: { status in
                                tally.withLock { $0.fetchSuccesses += status == .success ? 1 : 0 }
                            },
                            onError: { error in
                                tally.withLock { $0.fetchErrors.append("\(error)") }
                                if finished.withLock({ done in
                                    defer { done = true }; return done
                                }) {
                                    tally.withLock { $0.extraEvents += 1 }
                                }
                                group.leave()
                            },
                            onCompleted: {
                                if finished.withLock({ done in
                                    defer { done = true }; return done
                                }) {
                                    tally.withLock { $0.extraEvents += 1 }
                                }
                                group.leave()
                            }
                        )
                    case 1:
                        group.enter()
                        _ = remoteConfig.activate().subscribe(onSuccess: { _ in
                            tally.withLock { $0.activations += 1 }; group.leave()
                        })
                    case 2:
                        _ = remoteConfig.keys(withPrefix: "k")
                        _ = remoteConfig.lastFetchStatus
                        _ = remoteConfig.allKeys(from: .remote)
                        if let decoded = try? remoteConfig.decoded(asType: [String: String].self), !allowed.contains(decoded["k"] ?? "") {
                            tally.withLock { $0.invalidValues.append("decoded \(decoded)") }
                        }
                    default:
                        if thread == 0, iteration % 16 == 3 {
                            backend.publish(["k": "v\(iteration / 16 + 1)", "other": "x"])
                        }
                    }
                }
                updates.dispose()
            }

            XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "every fetch and activation finished")
            queue.sync {}
            let result = tally.withLock { $0 }
            let fetches = threads * iterations / 4
            XCTAssertEqual(result.fetchSuccesses + result.fetchErrors.count, fetches)
            XCTAssertEqual(result.fetchErrors, [])
            XCTAssertEqual(result.activations, threads * iterations / 4)
            XCTAssertEqual(result.invalidValues, [])
            XCTAssertEqual(result.extraEvents, 0)
            XCTAssertEqual(backend.activeRealtimeStreamCount, 0)
            XCTAssertLessThanOrEqual(backend.fetchCount, fetches + 3 * backend.realtimeConnectionCount * (publications + 1))
            XCTAssertEqual(remoteConfig.lastFetchStatus, .success)
            XCTAssertTrue(allowed.contains(remoteConfig["k"].stringValue))
            XCTAssertLessThanOrEqual(remoteConfig.activeTemplateVersion ?? 0, remoteConfig.fetchedTemplateVersion ?? 0)
            XCTAssertLessThanOrEqual(remoteConfig.fetchedTemplateVersion ?? 0, backend.templateVersion)
        }
    }
}

import Foundation
import XCTest
import ConfigFeatures
import Streams
import StreamsTest

/// The date of virtual time `ticks` on a `TestScheduler` (1 tick = 1 s from the epoch).
func at(_ ticks: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(ticks)) }

/// Settings with a short interval and timeout, for readable timelines.
func settings(interval: TimeInterval = 43_200, timeout: TimeInterval = 60) -> RemoteConfigSettings {
    RemoteConfigSettings(minimumFetchInterval: interval, fetchTimeout: timeout)
}

/// A storage whose saves always fail.
final class FailingRemoteConfigStorage: RemoteConfigStorage, Sendable {
    let loadError: RemoteConfigStorageError?
    init(loadError: RemoteConfigStorageError? = nil) { self.loadError = loadError }
    func load() throws -> RemoteConfigSnapshot? {
        if let loadError { throw loadError }
        return nil
    }
    func save(_ snapshot: RemoteConfigSnapshot) throws { throw RemoteConfigStorageError.io("disk full") }
}

/// A random source replaying `values` in order (then repeating the last one).
final class ScriptedRandom: Sendable {
    private let remaining: LockedState<[Double]>
    init(_ values: [Double]) { remaining = LockedState(values) }
    func next() -> Double {
        remaining.withLock { values in values.count > 1 ? values.removeFirst() : (values.first ?? 0.5) }
    }
}

/// A fresh temporary directory, removed by `cleanUp`.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("RemoteConfigTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

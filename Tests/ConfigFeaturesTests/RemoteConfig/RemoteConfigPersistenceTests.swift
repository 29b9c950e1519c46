import Foundation
import XCTest
import ConfigFeatures
import StreamsTest

final class RemoteConfigPersistenceTests: XCTestCase {
    private var directories: [URL] = []

    override func tearDown() {
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
        directories = []
        super.tearDown()
    }

    private func temporaryDirectory() throws -> URL {
        let directory = try makeTemporaryDirectory()
        directories.append(directory)
        return directory
    }

    /// Fetches and activates `{a: 1}`, then fetches `{a: 2}` without activating it.
    private func runFirstLaunch(storage: RemoteConfigStorage, scheduler: TestScheduler, backend: InMemoryRemoteConfigBackend) {
        let first = RemoteConfig(backend: backend, storage: storage, scheduler: scheduler)
        _ = scheduler.recordEvents(subscribed: 100) { first.fetchAndActivate() }
        scheduler.scheduleAt(150) { backend.publish(["a": "2", "b": "new"]) }
        _ = scheduler.recordEvents(subscribed: 200) { first.fetch(withExpirationDuration: 0) }
        scheduler.start()
        XCTAssertEqual(first["a"].stringValue, "1")
        XCTAssertEqual(first.snapshot.fetched, ["a": "2", "b": "new"])
    }

    private func assertRestartedClient(
        storage: RemoteConfigStorage, scheduler: TestScheduler, backend: InMemoryRemoteConfigBackend, file: StaticString = #filePath, line: UInt = #line
    ) {
        let restarted = RemoteConfig(backend: backend, storage: storage, scheduler: scheduler)
        XCTAssertNil(restarted.lastStorageError, file: file, line: line)
        XCTAssertEqual(restarted["a"], RemoteConfigValue(string: "1", source: .remote), "starts with the last ACTIVATED values", file: file, line: line)
        XCTAssertEqual(restarted["b"].source, .static, file: file, line: line)
        XCTAssertEqual(restarted.lastFetchStatus, .success, file: file, line: line)
        XCTAssertEqual(restarted.lastFetchTime, at(201), file: file, line: line)
        XCTAssertEqual(restarted.fetchedTemplateVersion, 2, file: file, line: line)
        XCTAssertEqual(restarted.activeTemplateVersion, 1, file: file, line: line)
        XCTAssertEqual(restarted.snapshot.metadata.eTag, "etag-2", file: file, line: line)

        let fetchCount = backend.fetchCount
        let cached = scheduler.recordEvents(subscribed: 300) { restarted.fetch() }
        let activated = scheduler.recordEvents(subscribed: 400) { restarted.activate() }
        scheduler.start()
        XCTAssertEqual(cached.events, [.next(301, .success), .completed(301)], "the restored fetch time keeps the interval", file: file, line: line)
        XCTAssertEqual(backend.fetchCount, fetchCount, file: file, line: line)
        XCTAssertEqual(activated.events, [.next(401, true), .completed(401)], "the restored fetched config can be activated", file: file, line: line)
        XCTAssertEqual(restarted["a"].stringValue, "2", file: file, line: line)
    }

    func testRestart_inMemoryStorageStartsWithActivatedValues() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let storage = InMemoryRemoteConfigStorage()
            runFirstLaunch(storage: storage, scheduler: scheduler, backend: backend)
            XCTAssertEqual(storage.snapshot?.active, ["a": "1"])
            assertRestartedClient(storage: storage, scheduler: scheduler, backend: backend)
        }
    }

    func testRestart_fileStorageStartsWithActivatedValues() throws {
        let directory = try temporaryDirectory()
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            runFirstLaunch(storage: FileRemoteConfigStorage(directory: directory), scheduler: scheduler, backend: backend)
            assertRestartedClient(storage: FileRemoteConfigStorage(directory: directory), scheduler: scheduler, backend: backend)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertEqual(files, [FileRemoteConfigStorage.fileName], "no temporary file is left behind")
    }

    func testRestart_keepsThrottlingState() throws {
        let directory = try temporaryDirectory()
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let first = RemoteConfig(backend: backend, storage: FileRemoteConfigStorage(directory: directory), scheduler: scheduler, randomSource: { 0.5 })
            backend.failNextFetches(1, with: .rateLimited)
            _ = scheduler.recordEvents(subscribed: 100) { first.fetch() }
            scheduler.start()
            XCTAssertEqual(first.throttledUntil, at(221))

            let restarted = RemoteConfig(backend: backend, storage: FileRemoteConfigStorage(directory: directory), scheduler: scheduler)
            XCTAssertEqual(restarted.lastFetchStatus, .throttled)
            XCTAssertEqual(restarted.throttledUntil, at(221))
            XCTAssertEqual(restarted.snapshot.metadata.throttleAttempts, 1)
            let throttled = scheduler.recordEvents(subscribed: 150) { restarted.fetch() }
            let allowed = scheduler.recordEvents(subscribed: 221) { restarted.fetch() }
            scheduler.start()
            XCTAssertEqual(throttled.events, [.error(151, RemoteConfigError.throttled(until: at(221)))])
            XCTAssertEqual(allowed.events, [.next(223, .success), .completed(223)])
            XCTAssertEqual(backend.fetchCount, 2)
        }
    }

    func testRestart_corruptFileIsReportedAndIgnored() throws {
        let directory = try temporaryDirectory()
        let storage = FileRemoteConfigStorage(directory: directory)
        try Data("this is not a snapshot\n{\"active\": {}}".utf8).write(to: storage.fileURL)
        XCTAssertThrowsError(try storage.load()) { error in
            XCTAssertEqual(error as? RemoteConfigStorageError, .corrupt("bad header"))
        }
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "remote"], scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, storage: storage, scheduler: scheduler)
            XCTAssertEqual(remoteConfig.lastStorageError, .storage(.corrupt("bad header")))
            remoteConfig.setDefaults(["a": "default"])
            XCTAssertEqual(remoteConfig["a"], RemoteConfigValue(string: "default", source: .default), "defaults still work")
            XCTAssertEqual(remoteConfig.lastFetchStatus, .noFetchYet)

            let res = scheduler.start { remoteConfig.fetchAndActivate() }
            XCTAssertEqual(res.events, [.next(202, .successFetchedFromRemote), .completed(202)])
            XCTAssertEqual(remoteConfig["a"].stringValue, "remote")

            let restarted = RemoteConfig(backend: backend, storage: storage, scheduler: scheduler)
            XCTAssertNil(restarted.lastStorageError, "the next save replaced the corrupt file")
            XCTAssertEqual(restarted["a"].stringValue, "remote")
        }
    }

    func testRestart_truncatedFileIsReportedAndIgnored() throws {
        let directory = try temporaryDirectory()
        let storage = FileRemoteConfigStorage(directory: directory)
        try storage.save(RemoteConfigSnapshot(fetched: ["a": "1"], active: ["a": "1"], metadata: RemoteConfigMetadata(lastFetchStatus: .success)))
        let full = try Data(contentsOf: storage.fileURL)
        let header = full.prefix(through: full.firstIndex(of: UInt8(ascii: "\n"))!)
        let payloadLength = full.count - header.count
        try full.prefix(full.count - 10).write(to: storage.fileURL)

        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let remoteConfig = RemoteConfig(backend: InMemoryRemoteConfigBackend(scheduler: scheduler), storage: storage, scheduler: scheduler)
            XCTAssertEqual(remoteConfig.lastStorageError, .storage(.truncated(expectedBytes: payloadLength, actualBytes: payloadLength - 10)))
            remoteConfig.setDefaults(["a": "default"])
            XCTAssertEqual(remoteConfig["a"].stringValue, "default")
            XCTAssertEqual(remoteConfig.allKeys(from: .remote), [])
        }

        try header.write(to: storage.fileURL)
        XCTAssertThrowsError(try storage.load()) { error in
            XCTAssertEqual(error as? RemoteConfigStorageError, .truncated(expectedBytes: payloadLength, actualBytes: 0))
        }
        try Data().write(to: storage.fileURL)
        XCTAssertThrowsError(try storage.load()) { error in
            XCTAssertEqual(error as? RemoteConfigStorageError, .corrupt("missing header"))
        }
    }

    func testFileStorage_detectsDamageAndFutureVersions() throws {
        let directory = try temporaryDirectory()
        let storage = FileRemoteConfigStorage(directory: directory)
        XCTAssertNil(try storage.load(), "no file: nothing saved yet")
        let snapshot = RemoteConfigSnapshot(
            fetched: ["k": "v"], active: ["k": "v"],
            metadata: RemoteConfigMetadata(
                lastFetchTime: at(1_000), lastFetchStatus: .throttled, fetchedTemplateVersion: 7, activeTemplateVersion: 6,
                eTag: "e", throttleEndTime: at(2_000), throttleAttempts: 3, lastActivationTime: at(900)))
        try storage.save(snapshot)
        XCTAssertEqual(try storage.load(), snapshot)

        var data = try Data(contentsOf: storage.fileURL)
        let flipped = data.count - 3
        data[flipped] = data[flipped] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
        try data.write(to: storage.fileURL)
        XCTAssertThrowsError(try storage.load()) { XCTAssertEqual($0 as? RemoteConfigStorageError, .corrupt("checksum mismatch")) }

        try storage.save(snapshot)
        var appended = try Data(contentsOf: storage.fileURL)
        appended.append(contentsOf: Array("xy".utf8))
        try appended.write(to: storage.fileURL)
        XCTAssertThrowsError(try storage.load()) { XCTAssertEqual($0 as? RemoteConfigStorageError, .corrupt("2 unexpected bytes after the snapshot")) }

        let payload = Data("{}".utf8)
        try Data("RCSNAPSHOT 9 \(payload.count) 0\n{}".utf8).write(to: storage.fileURL)
        XCTAssertThrowsError(try storage.load()) { XCTAssertEqual($0 as? RemoteConfigStorageError, .unsupportedVersion(9)) }

        try storage.removeAll()
        XCTAssertNil(try storage.load())
    }

    func testSaveFailures_areReportedAndDoNotBreakTheClient() throws {
        let directory = try temporaryDirectory()
        let notADirectory = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: notADirectory)
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], latency: .seconds(5), scheduler: scheduler)
            let remoteConfig = RemoteConfig(backend: backend, storage: FileRemoteConfigStorage(directory: notADirectory), scheduler: scheduler)
            XCTAssertNil(remoteConfig.lastStorageError)
            let errors = scheduler.recordEvents(subscribed: 100, disposed: 1_000) { remoteConfig.storageErrors }
            let res = scheduler.recordEvents(subscribed: 200) { remoteConfig.fetchAndActivate() }
            scheduler.start()
            XCTAssertEqual(res.events, [.next(206, .successFetchedFromRemote), .completed(206)])
            XCTAssertEqual(remoteConfig["a"].stringValue, "1")
            XCTAssertEqual(errors.events.map(\.time), [206, 206], "fetch result and activation each tried to save")
            guard case .storage(.io)? = remoteConfig.lastStorageError else {
                return XCTFail("\(String(describing: remoteConfig.lastStorageError))")
            }
        }
    }

    func testLoadFailure_ofCustomStorageIsReported() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let remoteConfig = RemoteConfig(
                backend: InMemoryRemoteConfigBackend(scheduler: scheduler), storage: FailingRemoteConfigStorage(loadError: .io("denied")), scheduler: scheduler)
            XCTAssertEqual(remoteConfig.lastStorageError, .storage(.io("denied")))
            XCTAssertEqual(remoteConfig.lastFetchStatus, .noFetchYet)
        }
    }

    func testInMemoryStorage_savesAfterEveryChange() {
        XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let backend = InMemoryRemoteConfigBackend(values: ["a": "1"], scheduler: scheduler)
            let storage = InMemoryRemoteConfigStorage()
            let remoteConfig = RemoteConfig(backend: backend, storage: storage, scheduler: scheduler)
            _ = scheduler.recordEvents(subscribed: 100) { remoteConfig.fetch() }
            _ = scheduler.recordEvents(subscribed: 200) { remoteConfig.activate() }
            _ = scheduler.recordEvents(subscribed: 300) { remoteConfig.activate() }
            scheduler.start()
            XCTAssertEqual(storage.saveCount, 2, "fetch and the changing activation; a no-op activation saves nothing")
            XCTAssertEqual(storage.snapshot, remoteConfig.snapshot)
        }
    }
}

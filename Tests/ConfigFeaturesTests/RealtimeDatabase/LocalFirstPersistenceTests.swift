import ConfigFeatures
import Foundation
import Streams
import StreamsTest
import XCTest

#if os(Linux)
private let fileSizeLimit = Int32(RLIMIT_FSIZE.rawValue)
#else
private let fileSizeLimit = RLIMIT_FSIZE
#endif

/// `RealtimeDatabasePersistence.file`: a "restart" is a second database on the same directory
/// (the first one having gone offline, so it sends nothing more).
final class LocalFirstPersistenceTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("LocalFirstPersistenceTests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func makeDatabase(_ scheduler: TestScheduler, remote: any RealtimeDatabase, maximumCacheSize: Int = 10_000_000) -> LocalFirstRealtimeDatabase {
        LocalFirstRealtimeDatabase(
            remote: remote, persistence: .file(directory: directory, maximumCacheSize: maximumCacheSize), scheduler: scheduler,
            reconnectBackoff: BackoffPolicy(initialDelay: 10, multiplier: 2, maximumDelay: 40, jitter: 0), random: { 0.5 })
    }

    private var writesFile: URL { directory.appendingPathComponent("writes.log") }
    private var cacheFile: URL { directory.appendingPathComponent("cache.log") }

    /// Issues three writes on a database that is offline, then drops it: they stay on disk.
    private func leaveThreePendingWrites(_ scheduler: TestScheduler, server: InMemoryRealtimeDatabase) throws {
        let first = makeDatabase(scheduler, remote: server)
        first.goOffline()
        let writes = [
            first.setValue(1, at: "x").subscribe(), first.push("hi", at: "g").subscribe(),
            first.updateChildValues(["x": 2, "y": 3], at: "/").subscribe(),
        ]
        scheduler.advanceTo(scheduler.clock + 10)
        writes.forEach { $0.dispose() }  // the process ends: nothing waits for them any more
        XCTAssertEqual(try server.value(at: "/"), .null, "nothing sent while offline")
    }

    // MARK: - Pending writes

    func testRestart_pendingWritesAreSentOnceInOrder() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = InMemoryRealtimeDatabase(scheduler: scheduler)
            try leaveThreePendingWrites(scheduler, server: server)
            let remote = RecordingDatabase(base: server)
            let database = makeDatabase(scheduler, remote: remote)
            let count = scheduler.recordEvents(subscribed: 100, disposed: 1000) { database.pendingWriteCount }
            scheduler.start()
            XCTAssertNil(database.persistenceError)
            // The push's key was generated before the first launch ended: one child, however often sent.
            guard case .object(let children) = try server.value(at: "g"), let key = children.keys.first, children.count == 1 else {
                return XCTFail("expected one pushed child, got \(try server.value(at: "g"))")
            }
            XCTAssertEqual(remote.sent, [.setValue(1, at: "x"), .setValue("hi", at: "/g/\(key)"), .updateChildValues(["x": 2, "y": 3], at: "/")])
            XCTAssertEqual(try server.value(at: "/"), ["x": 2, "y": 3, "g": [key: "hi"]])
            XCTAssertEqual(count.events.last?.value.element, 0)
            // A third launch has nothing left to send.
            database.goOffline()
            let again = RecordingDatabase(base: server)
            _ = makeDatabase(scheduler, remote: again)
            scheduler.start()
            XCTAssertEqual(again.sent, [])
        }
    }

    func testRestart_pendingWritesAreCountedAndVisibleAtOnce() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = InMemoryRealtimeDatabase(scheduler: scheduler)
            try leaveThreePendingWrites(scheduler, server: server)
            let database = makeDatabase(scheduler, remote: server)
            database.goOffline()
            let count = scheduler.recordEvents(subscribed: 100, disposed: 1000) { database.pendingWriteCount }
            scheduler.start()
            XCTAssertEqual(count.events, [.next(101, 3)])
        }
    }

    func testWrite_isOnDiskBeforeItIsSent() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let remote = RecordingDatabase(base: InMemoryRealtimeDatabase(scheduler: scheduler))
        var onDisk: [Bool] = []
        remote.beforeSend = { [writesFile] _ in
            let bytes = (try? Data(contentsOf: writesFile)) ?? Data()
            onDisk.append(bytes.range(of: Data("\"marker\"".utf8)) != nil)
        }
        let database = makeDatabase(scheduler, remote: remote)
        let write = scheduler.recordEvents(subscribed: 100, disposed: 1000) { database.setValue("marker", at: "x").map { true } }
        scheduler.start()
        XCTAssertEqual(onDisk, [true])
        XCTAssertEqual(write.events.count, 2, "acknowledged")
    }

    // MARK: - Cache

    func testRestart_cachedValueShowsAtOnceThenTheServers() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["g": ["a": 1]])
            let first = makeDatabase(scheduler, remote: server)
            _ = scheduler.recordEvents(subscribed: 10, disposed: 20) { first.observeValue(at: "g") }
            scheduler.advanceTo(30)
            first.goOffline()
            server.connectivity = .offline
            try server.setValue(2, at: "g/b")
            let database = makeDatabase(scheduler, remote: server)
            let values = scheduler.recordEvents(subscribed: 100, disposed: 1000) { database.observeValue(at: "g") }
            let uncached = scheduler.recordEvents(subscribed: 100, disposed: 1000) { database.observeValue(at: "h") }
            let under = scheduler.recordEvents(subscribed: 100, disposed: 1000) { database.observeValue(at: "g/a") }
            scheduler.scheduleAt(200) { server.connectivity = .online }
            scheduler.start()
            XCTAssertEqual(values.events.first, .next(102, ["a": 1]), "from disk, with the server unreachable")
            XCTAssertEqual(values.events.last?.value.element, ["a": 1, "b": 2], "then the server's")
            XCTAssertEqual(under.events.first, .next(102, 1), "a location under a cached one is cached too")
            let firstUncached = try XCTUnwrap(uncached.events.first?.time)
            XCTAssertTrue((201..<300).contains(firstUncached), "an uncached location waits for the server: \(firstUncached)")
        }
    }

    func testCache_evictsTheLeastRecentlyUsedLocationsNoOneObserves() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let big = JSONValue.string(String(repeating: "v", count: 100))
            let server = try InMemoryRealtimeDatabase(scheduler: scheduler, value: ["a": big, "b": big, "c": big, "d": big])
            // Room for about two entries (each ~140 bytes on disk).
            let first = makeDatabase(scheduler, remote: server, maximumCacheSize: 300)
            first.keepSynced("d", true)  // in use throughout: never evicted
            _ = scheduler.recordEvents(subscribed: 10, disposed: 20) { first.observeValue(at: "a") }
            _ = scheduler.recordEvents(subscribed: 30, disposed: 40) { first.observeValue(at: "b") }
            _ = scheduler.recordEvents(subscribed: 50, disposed: 60) { first.observeValue(at: "a") }  // a used after b
            _ = scheduler.recordEvents(subscribed: 70, disposed: 80) { first.observeValue(at: "c") }
            scheduler.advanceTo(90)
            first.goOffline()
            server.connectivity = .offline
            let database = makeDatabase(scheduler, remote: server, maximumCacheSize: 300)
            let observed = ["a", "b", "c", "d"].map { path in scheduler.recordEvents(subscribed: 100, disposed: 150) { database.observeValue(at: path) } }
            scheduler.advanceTo(200)
            XCTAssertEqual(observed.map { $0.events.first?.time }, [nil, nil, 102, 102], "a and b evicted (b first), c and d cached")
            XCTAssertLessThan(try Data(contentsOf: cacheFile).count, 600)
        }
    }

    // MARK: - Files that cannot be used

    /// Opens a database on the directory: the error it reports and the one a write fails with.
    private func openingError() -> (reported: RealtimeDatabasePersistenceError?, write: Error?) {
        let scheduler = TestScheduler(initialClock: 0)
        let database = makeDatabase(scheduler, remote: InMemoryRealtimeDatabase(scheduler: scheduler))
        let write = scheduler.recordEvents(subscribed: 100, disposed: 1000) { database.setValue(1, at: "x").map { true } }
        let read = scheduler.recordEvents(subscribed: 100, disposed: 1000) { database.observeValue(at: "x") }
        scheduler.start()
        if database.persistenceError != nil {
            XCTAssertEqual(read.events.first?.value.error as? RealtimeDatabasePersistenceError, database.persistenceError, "reads fail too")
        }
        return (database.persistenceError, write.events.first?.value.error)
    }

    private func assertFailsLeavingFileUntouched(
        _ file: URL, _ bytes: Data, file sourceFile: StaticString = #filePath, line: UInt = #line,
        _ check: (RealtimeDatabasePersistenceError) -> Bool
    ) throws {
        try bytes.write(to: file)
        let (reported, write) = openingError()
        XCTAssertTrue(reported.map(check) ?? false, "got \(String(describing: reported))", file: sourceFile, line: line)
        XCTAssertEqual(write as? RealtimeDatabasePersistenceError, reported, file: sourceFile, line: line)
        XCTAssertEqual(try Data(contentsOf: file), bytes, "left untouched", file: sourceFile, line: line)
    }

    func testCorruptRecord_isATypedErrorAndTheFileIsLeftUntouched() throws {
        let scheduler = TestScheduler(initialClock: 0)
        try leaveThreePendingWrites(scheduler, server: InMemoryRealtimeDatabase(scheduler: scheduler))
        var bytes = try Data(contentsOf: writesFile)
        guard bytes.count > 60 else { return XCTFail("the three writes are not on disk: \(bytes.count) bytes") }
        bytes[bytes.count - 3] ^= 0x20  // inside the last record's payload
        try assertFailsLeavingFileUntouched(writesFile, bytes) {
            if case .corrupt(let path, let offset, _) = $0 { return path == self.writesFile.path && offset > 0 }
            return false
        }
        var length = bytes
        length[length.count - 3] ^= 0x20  // (restored)
        length[33] ^= 0x01  // the first record's length, right after the 33-byte header
        try assertFailsLeavingFileUntouched(writesFile, length) {
            if case .corrupt(_, 33, let reason) = $0 { return reason.contains("length") }
            return false
        }
    }

    func testTruncatedForeignAndNewerFiles_areTypedErrors() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try assertFailsLeavingFileUntouched(cacheFile, Data("StreamsRealtimeDat".utf8)) { $0 == .truncated(path: self.cacheFile.path) }
        try assertFailsLeavingFileUntouched(cacheFile, Data("{\"x\": 1}\n".utf8)) {
            if case .foreignFile(self.cacheFile.path, _) = $0 { return true }
            return false
        }
        try assertFailsLeavingFileUntouched(cacheFile, Data("StreamsRealtimeDatabase writes 1\n".utf8)) {
            if case .foreignFile(self.cacheFile.path, let reason) = $0 { return reason.contains("writes") }
            return false
        }
        try assertFailsLeavingFileUntouched(writesFile, Data("StreamsRealtimeDatabase writes 2\n".utf8)) {
            $0 == .unsupportedVersion(path: self.writesFile.path, version: "2")
        }
    }

    func testTornTail_fromACrashDuringAnAppend_dropsOnlyThatRecord() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let server = InMemoryRealtimeDatabase(scheduler: scheduler)
        try leaveThreePendingWrites(scheduler, server: server)
        let bytes = try Data(contentsOf: writesFile)
        let handle = try FileHandle(forWritingTo: writesFile)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes[33..<60]))  // a record cut short
        try handle.close()
        let remote = RecordingDatabase(base: server)
        let database = makeDatabase(scheduler, remote: remote)
        scheduler.start()
        XCTAssertNil(database.persistenceError)
        XCTAssertEqual(remote.sent.count, 3)
    }

    func testLeftoverTemporaryFile_isRemovedAndTheFileIntact() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let server = InMemoryRealtimeDatabase(scheduler: scheduler)
        try leaveThreePendingWrites(scheduler, server: server)
        // A crash during a rewrite leaves the temporary file, never a half-written writes.log.
        let leftover = directory.appendingPathComponent(".writes.log.\(UUID().uuidString).tmp")
        try Data("StreamsRealtimeDatabase writes 1\npartial".utf8).write(to: leftover)
        let remote = RecordingDatabase(base: server)
        let database = makeDatabase(scheduler, remote: remote)
        scheduler.start()
        XCTAssertNil(database.persistenceError)
        XCTAssertEqual(remote.sent.count, 3)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path))
    }

    func testDirectoryThatCannotBeWritten_isATypedError() throws {
        // A regular file where the directory should be (permissions do not stop root).
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let blocker = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        directory = blocker
        let (reported, write) = openingError()
        guard case .directoryUnavailable(let path, let reason)? = reported else { return XCTFail("got \(String(describing: reported))") }
        XCTAssertEqual(path, blocker.path)
        XCTAssertEqual(reason, "\(blocker.standardizedFileURL.path) is a regular file, not a directory")
        XCTAssertEqual(write as? RealtimeDatabasePersistenceError, reported)
        directory = blocker.deletingLastPathComponent()
    }

    /// A file in the way higher up: the reason names that parent, not the folder asked for.
    func testDirectoryUnderAFile_namesTheFileInTheWay() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let blocker = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let base = directory
        directory = blocker.appendingPathComponent("db/inner")
        defer { directory = base }
        guard case .directoryUnavailable(_, let reason)? = openingError().reported else { return XCTFail("expected directoryUnavailable") }
        XCTAssertEqual(reason, "\(blocker.standardizedFileURL.path) is a regular file, not a directory")
    }

    func testReadOnlyDirectory_isATypedError() throws {
        try XCTSkipIf(getuid() == 0, "permissions do not stop root")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path) }
        guard case .directoryUnavailable(_, let reason)? = openingError().reported else { return XCTFail("expected directoryUnavailable") }
        XCTAssertTrue(reason.contains("Permission denied"), reason)
    }

    func testDiskFullWhileRunning_failsTheWriteWhichRevertsAndIsNeverSent() throws {
        try XCTAssertNoLeaks {
            let scheduler = TestScheduler(initialClock: 0)
            let server = InMemoryRealtimeDatabase(scheduler: scheduler)
            let remote = RecordingDatabase(base: server)
            let database = makeDatabase(scheduler, remote: remote)
            let values = scheduler.recordEvents(subscribed: 100, disposed: 1000) { database.observeValue(at: "x") }
            let size = try Data(contentsOf: writesFile).count
            // The file may not grow: the next append fails with EFBIG (SIGXFSZ ignored meanwhile).
            var limit = rlimit()
            getrlimit(fileSizeLimit, &limit)
            let previousHandler = signal(SIGXFSZ, SIG_IGN)
            var tight = limit
            tight.rlim_cur = rlim_t(size)
            scheduler.scheduleAt(300) { setrlimit(fileSizeLimit, &tight) }
            let refused = scheduler.recordEvents(subscribed: 300, disposed: 1000) { database.setValue(1, at: "x").map { true } }
            scheduler.scheduleAt(310) {
                setrlimit(fileSizeLimit, &limit)
                signal(SIGXFSZ, previousHandler)
            }
            let accepted = scheduler.recordEvents(subscribed: 400, disposed: 1000) { database.setValue(2, at: "x").map { true } }
            defer {
                setrlimit(fileSizeLimit, &limit)
                signal(SIGXFSZ, previousHandler)
            }
            scheduler.start()
            guard case .io(let path, _)? = refused.events.first?.value.error as? RealtimeDatabasePersistenceError else {
                return XCTFail("expected an I/O error, got \(refused.events)")
            }
            XCTAssertEqual(path, writesFile.path)
            XCTAssertEqual(database.persistenceError, refused.events.first?.value.error as? RealtimeDatabasePersistenceError)
            XCTAssertEqual(values.events.map(\.value.element), [.null, 1, .null, 2], "shown, reverted, then the next write")
            XCTAssertEqual(remote.sent, [.setValue(2, at: "x")], "the write that is not on disk is never sent")
            XCTAssertEqual(accepted.events.count, 2, "the file was cut back, so later writes work")
            database.goOffline()
            let again = RecordingDatabase(base: server)
            _ = makeDatabase(scheduler, remote: again)
            scheduler.start()
            XCTAssertNil(again.sent.first, "the file is well formed and has nothing pending")
        }
    }

    func testInvalidMaximumCacheSize_isATypedError() {
        let scheduler = TestScheduler(initialClock: 0)
        let database = makeDatabase(scheduler, remote: InMemoryRealtimeDatabase(scheduler: scheduler), maximumCacheSize: 0)
        let write = scheduler.recordEvents(subscribed: 100, disposed: 1000) { database.setValue(1, at: "x").map { true } }
        scheduler.start()
        XCTAssertEqual(database.persistenceError, .invalidMaximumCacheSize(0))
        XCTAssertEqual(write.events.first?.value.error as? RealtimeDatabasePersistenceError, .invalidMaximumCacheSize(0))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path), "nothing created")
    }

    func testDiscardFiles_removesOnlyTheDatabasesFilesAndStartsAfresh() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("garbage".utf8).write(to: writesFile)
        let other = directory.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: other)
        XCTAssertNotNil(openingError().reported)
        try RealtimeDatabasePersistence.discardFiles(in: directory)
        XCTAssertFalse(FileManager.default.fileExists(atPath: writesFile.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: other.path))
        let (reported, write) = openingError()
        XCTAssertNil(reported)
        XCTAssertNil(write)
    }
}

// Fuzzes the files of `RealtimeDatabasePersistence.file` as a `LocalFirstRealtimeDatabase`
// (public) reads them when created: the bytes become its `writes.log` or `cache.log`.
//
// Input: a control byte, then the file. Bit 0 picks the file (0: writes.log, 1: cache.log).
// Records carry CRC-32 checksums that a mutating fuzzer would practically never match, so with
// bit 1 set the target builds the file itself: the right header, then each `\0`-separated part
// of the payload as a record with correct checksums, which reaches the record decoding.
// Check: a file the database refuses gives a RealtimeDatabasePersistenceError and is left
// byte for byte as it was; a file it accepts leaves a database that takes a write, and whose
// files open again without error.
import ConfigFeatures
import Foundation
import FuzzSupport
import Streams
import StreamsTest

/// A directory of this process under the temporary directory (`run.sh` points `TMPDIR` at its
/// own scratch folder), removed at exit.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("streams-fuzz-local-first-\(getpid())")
let prepared: Void = {
    atexit { try? FileManager.default.removeItem(at: directory) }
}()

/// CRC-32 (IEEE), the checksum the record format specifies.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
}

func littleEndian(_ value: UInt32) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

func database(_ scheduler: TestScheduler) -> LocalFirstRealtimeDatabase {
    LocalFirstRealtimeDatabase(
        remote: InMemoryRealtimeDatabase(scheduler: scheduler), persistence: .file(directory: directory, maximumCacheSize: 4096),
        scheduler: scheduler)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = prepared
    let input = FuzzInput(data, size)
    let kind = input.control & 1 == 0 ? "writes" : "cache"
    var file = input.payload
    if input.control & 2 == 2 {
        file = Array("StreamsRealtimeDatabase \(kind) 1\n".utf8)
        for part in input.payload.split(separator: 0, omittingEmptySubsequences: false).map(Array.init) {
            let length = littleEndian(UInt32(part.count))
            file += length + littleEndian(crc32(length)) + littleEndian(crc32(part)) + part
        }
    }
    let url = directory.appendingPathComponent("\(kind).log")
    do {
        try? RealtimeDatabasePersistence.discardFiles(in: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(file).write(to: url)
    } catch {
        fatalError("cannot write \(url.path): \(error)")
    }
    let scheduler = TestScheduler(initialClock: 0)
    let first = database(scheduler)
    if let error = first.persistenceError {
        _ = error.description
        require((try? Data(contentsOf: url)) == Data(file), "a refused file was changed")
        return 0
    }
    var completed = false
    let observation = first.observeValue(at: "a").subscribe()
    let write = first.setValue(["n": 1], at: "a/b").subscribe(onCompleted: { completed = true })
    scheduler.start()
    observation.dispose()
    write.dispose()
    require(completed, "an accepted file left a database that does not take a write")
    first.goOffline()
    require(database(scheduler).persistenceError == nil, "the files the database wrote do not open again")
    return 0
}

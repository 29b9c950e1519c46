// Fuzzes `FileRemoteConfigStorage.load()` (public): the bytes are written as the snapshot
// file of a storage in a temporary directory, then loaded.
//
// Input: a control byte, then the file. The file's header carries an FNV-1a checksum of the
// JSON payload, which a mutating fuzzer would practically never match, so for an odd control
// byte the target writes a correct header (`RCSNAPSHOT 1 <length> <checksum>`) in front of
// the bytes itself: even control bytes fuzz the header, odd ones the JSON snapshot decoding.
// Check: a loaded snapshot can be saved and loaded again, unchanged (dates aside, which
// travel as floating-point seconds).
import ConfigFeatures
import Foundation
import FuzzSupport

/// A directory of this process under the temporary directory (`run.sh` points `TMPDIR` at its
/// own scratch folder), removed at exit.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("streams-fuzz-storage-\(getpid())")
let storage: FileRemoteConfigStorage = {
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: directory) }
    return FileRemoteConfigStorage(directory: directory)
}()

/// FNV-1a, 64 bits: the checksum the file format specifies (Guides/RemoteConfig.md).
func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    var file = input.payload
    if input.control & 1 == 1 {
        file = Array("RCSNAPSHOT \(FileRemoteConfigStorage.formatVersion) \(file.count) \(String(fnv1a(file), radix: 16))\n".utf8) + file
    }
    do {
        try Data(file).write(to: storage.fileURL)
    } catch {
        fatalError("cannot write \(storage.fileURL.path): \(error)")
    }
    do {
        guard let snapshot = try storage.load() else {
            require(false, "load() found no file after it was written")
            return 0
        }
        try storage.save(snapshot)
        let again = try storage.load()
        require(again?.active == snapshot.active && again?.fetched == snapshot.fetched, "saved snapshot loads back differently")
        require(
            again?.metadata.eTag == snapshot.metadata.eTag && again?.metadata.lastFetchStatus == snapshot.metadata.lastFetchStatus,
            "saved metadata loads back differently")
    } catch let error as RemoteConfigStorageError {
        _ = error.description
    } catch {
        require(false, "load() threw a foreign error: \(error)")
    }
    return 0
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An append-only file of checksummed records, compacted by an atomic rewrite.
///
/// Layout: a header line `StreamsRealtimeDatabase <kind> 1\n` (format marker, kind, version),
/// then records, each `length | CRC-32 of the length | CRC-32 of the payload | payload` (three
/// little-endian `UInt32`s, then `length` bytes). An append costs the record's bytes (plus an
/// `fsync` when asked); a rewrite goes to a temporary file in the same directory, is synced, and
/// `rename(2)`s over the file, so a crash leaves the old or the new file, never a mix.
///
/// A record cut short at the very end (a crash during an append, which had not returned) is a
/// torn tail: reading stops before it and the next rewrite drops it. Anything else that does not
/// check out is a typed error naming the file and offset, and the file is left as it is.
final class RecordLog {
    static let marker = "StreamsRealtimeDatabase"
    static let version = "1"
    private static let recordHeaderSize = 12

    /// The records of a file that checks out.
    struct Contents {
        /// Each record's payload and its offset in the file.
        var records: [(offset: Int, payload: [UInt8])] = []
        /// Whether the file ends in a record cut short.
        var hasTornTail = false
    }

    let url: URL
    let kind: String
    /// Open for appending after the first `rewrite`.
    private var descriptor: Int32 = -1
    /// The file's size: what a failed append is cut back to.
    private var size = 0
    /// Set when a failed append could not be cut back: the file then ends in garbage.
    private var damage: RealtimeDatabasePersistenceError?

    init(url: URL, kind: String) {
        self.url = url
        self.kind = kind
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The file's records; `nil` when there is no file.
    func read() throws(RealtimeDatabasePersistenceError) -> Contents? {
        let data: Data
        do {
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            data = try Data(contentsOf: url)
        } catch {
            throw .io(path: url.path, reason: error.localizedDescription)
        }
        return try Self.parse([UInt8](data), path: url.path, kind: kind)
    }

    /// The records of `bytes`, the contents of a `kind` log at `path`.
    static func parse(_ bytes: [UInt8], path: String, kind: String) throws(RealtimeDatabasePersistenceError) -> Contents {
        let expected = Array(header(kind))
        guard let newline = bytes.prefix(128).firstIndex(of: 0x0A) else {
            if bytes.count < expected.count, expected.starts(with: bytes) { throw .truncated(path: path) }
            throw .foreignFile(path: path, reason: "no \(marker) header")
        }
        let fields = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0] == marker else { throw .foreignFile(path: path, reason: "no \(marker) header") }
        guard fields[1] == kind else { throw .foreignFile(path: path, reason: "a \(fields[1]) file where a \(kind) file was expected") }
        guard fields[2] == version else { throw .unsupportedVersion(path: path, version: String(fields[2])) }
        var contents = Contents()
        var offset = newline + 1
        while offset < bytes.count {
            guard bytes.count - offset >= recordHeaderSize else {
                contents.hasTornTail = true
                break
            }
            let length = Int(word(bytes, at: offset))
            guard CRC32.checksum(bytes[offset..<offset + 4]) == word(bytes, at: offset + 4) else {
                throw .corrupt(path: path, offset: offset, reason: "the record's length fails its checksum")
            }
            let start = offset + recordHeaderSize
            guard bytes.count - start >= length else {
                contents.hasTornTail = true
                break
            }
            let payload = Array(bytes[start..<start + length])
            guard CRC32.checksum(payload) == word(bytes, at: offset + 8) else {
                throw .corrupt(path: path, offset: offset, reason: "the record fails its checksum")
            }
            contents.records.append((offset, payload))
            offset = start + length
        }
        return contents
    }

    /// Appends records (one write, then an `fsync` when `sync`). On failure the file is cut back
    /// to its size before, so it stays well formed.
    func append(_ payloads: [[UInt8]], sync: Bool) throws(RealtimeDatabasePersistenceError) {
        if let damage { throw damage }
        guard descriptor >= 0 else { throw .io(path: url.path, reason: "not open for appending") }
        var bytes: [UInt8] = []
        for payload in payloads { Self.appendRecord(payload, to: &bytes) }
        if let reason = Self.writeAll(bytes, to: descriptor) ?? (sync && fsync(descriptor) != 0 ? Self.lastError() : nil) {
            let error = RealtimeDatabasePersistenceError.io(path: url.path, reason: reason)
            if ftruncate(descriptor, off_t(size)) != 0 { damage = error }
            throw error
        }
        size += bytes.count
    }

    /// Replaces the file with one holding `payloads`, atomically, and opens it for appending.
    func rewrite(_ payloads: [[UInt8]]) throws(RealtimeDatabasePersistenceError) {
        var bytes = Array(Self.header(kind))
        for payload in payloads { Self.appendRecord(payload, to: &bytes) }
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(Self.temporaryPrefix(of: url) + UUID().uuidString + ".tmp")
        let file = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard file >= 0 else {
            throw .directoryUnavailable(path: directory.path, reason: "cannot create \(temporary.lastPathComponent): \(Self.lastError())")
        }
        let failure = Self.writeAll(bytes, to: file) ?? (fsync(file) != 0 ? Self.lastError() : nil)
        close(file)
        if let failure {
            unlink(temporary.path)
            throw .io(path: temporary.path, reason: failure)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = Self.lastError()
            unlink(temporary.path)
            throw .io(path: url.path, reason: reason)
        }
        // The rename itself is durable once the directory is synced.
        let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
        if descriptor >= 0 { close(descriptor) }
        descriptor = open(url.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: url.path, reason: Self.lastError()) }
        size = bytes.count
        damage = nil
    }

    /// The name prefix of the temporary files a rewrite of `url` creates (and a crash may leave).
    static func temporaryPrefix(of url: URL) -> String {
        ".\(url.lastPathComponent)."
    }

    private static func header(_ kind: String) -> String.UTF8View {
        "\(marker) \(kind) \(version)\n".utf8
    }

    private static func appendRecord(_ payload: [UInt8], to bytes: inout [UInt8]) {
        let length = UInt32(payload.count)
        let lengthBytes = withUnsafeBytes(of: length.littleEndian) { Array($0) }
        bytes += lengthBytes
        withUnsafeBytes(of: CRC32.checksum(lengthBytes).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: CRC32.checksum(payload).littleEndian) { bytes += $0 }
        bytes += payload
    }

    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    /// Writes every byte (retrying short writes and interruptions); the failure's reason, if any.
    private static func writeAll(_ bytes: [UInt8], to file: Int32) -> String? {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(file, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                return lastError()
            }
            written += count
        }
        return nil
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

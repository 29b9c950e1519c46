import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A storage that keeps the snapshot in one file, `RemoteConfig.snapshot`, in a directory.
///
/// The file is a one-line header `RCSNAPSHOT <format> <byte count> <FNV-1a 64 checksum>`
/// followed by the snapshot as JSON. Writes are atomic: the data goes to a temporary file in
/// the same directory, which is then renamed over the old file, so a crash leaves either the
/// old or the new snapshot. A file that is shorter than its header says is reported as
/// `RemoteConfigStorageError.truncated`; any other damage (bad header, checksum, JSON) as
/// `.corrupt`. A missing file means "nothing saved yet".
public final class FileRemoteConfigStorage: RemoteConfigStorage, Sendable {
    /// The current file format version.
    public static let formatVersion = 1
    /// The file name inside `directory`.
    public static let fileName = "RemoteConfig.snapshot"

    /// The directory holding the file (created on the first save).
    public let directory: URL

    /// Creates a storage in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The snapshot file.
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    /// Reads the snapshot; `nil` if the file does not exist.
    ///
    /// - Throws: `RemoteConfigStorageError.truncated`, `.corrupt`, `.unsupportedVersion` or `.io`.
    public func load() throws -> RemoteConfigSnapshot? {
        let data: Data
        do {
            guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
            data = try Data(contentsOf: fileURL)
        } catch {
            throw RemoteConfigStorageError.io("cannot read \(fileURL.path): \(error.localizedDescription)")
        }
        return try Self.decode(data)
    }

    /// Writes the snapshot atomically (temporary file, then rename).
    ///
    /// - Throws: `RemoteConfigStorageError.io`.
    public func save(_ snapshot: RemoteConfigSnapshot) throws {
        let data = try Self.encode(snapshot)
        let temporary = directory.appendingPathComponent(".\(Self.fileName).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw RemoteConfigStorageError.io("cannot write \(temporary.path): \(error.localizedDescription)")
        }
        // rename(2) replaces the destination atomically.
        if rename(temporary.path, fileURL.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw RemoteConfigStorageError.io("cannot rename \(temporary.path) to \(fileURL.path): \(reason)")
        }
    }

    /// Deletes the snapshot file, if any.
    public func removeAll() throws {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return }
        do {
            try FileManager.default.removeItem(at: fileURL)
        } catch {
            throw RemoteConfigStorageError.io("cannot remove \(fileURL.path): \(error.localizedDescription)")
        }
    }

    static func encode(_ snapshot: RemoteConfigSnapshot) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        let payload: Data
        do {
            payload = try encoder.encode(snapshot)
        } catch {
            throw RemoteConfigStorageError.io("cannot encode snapshot: \(error)")
        }
        var data = Data("RCSNAPSHOT \(formatVersion) \(payload.count) \(String(checksum(payload), radix: 16))\n".utf8)
        data.append(payload)
        return data
    }

    static func decode(_ data: Data) throws -> RemoteConfigSnapshot {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else {
            throw RemoteConfigStorageError.corrupt("missing header")
        }
        let header = String(decoding: data[data.startIndex..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 4, header[0] == "RCSNAPSHOT",
              let version = Int(header[1]), let length = Int(header[2]), length >= 0,
              let expectedChecksum = UInt64(header[3], radix: 16) else {
            throw RemoteConfigStorageError.corrupt("bad header")
        }
        guard version <= formatVersion else { throw RemoteConfigStorageError.unsupportedVersion(version) }
        let payload = data[data.index(after: newline)...]
        if payload.count < length {
            throw RemoteConfigStorageError.truncated(expectedBytes: length, actualBytes: payload.count)
        }
        guard payload.count == length else {
            throw RemoteConfigStorageError.corrupt("\(payload.count - length) unexpected bytes after the snapshot")
        }
        guard checksum(payload) == expectedChecksum else {
            throw RemoteConfigStorageError.corrupt("checksum mismatch")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(RemoteConfigSnapshot.self, from: Data(payload))
        } catch {
            throw RemoteConfigStorageError.corrupt("invalid snapshot JSON: \(error)")
        }
    }

    /// FNV-1a, 64 bits.
    static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

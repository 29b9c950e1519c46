import Foundation

/// A storage that keeps the snapshot in one file, `RemoteConfig.snapshot`, in a directory.
///
/// The file is a one-line header `RCSNAPSHOT <format> <byte count> <FNV-1a 64 checksum>`
/// followed by the snapshot as JSON. Writes are atomic: the data goes to a temporary file in
/// the same directory, which is then renamed over the old file, so a crash leaves either the
/// old or the new snapshot. A file that is shorter than its header says is reported as
/// `RemoteConfigStorageError.truncated`; any other damage (bad header, checksum, JSON, or JSON
/// nested deeper than `maximumJSONDepth`) as `.corrupt`. A missing file means "nothing saved
/// yet".
///
/// Dates round-trip exactly: format 2 writes each `Date` as its `timeIntervalSinceReferenceDate`
/// (`Date`'s own `Codable` form) in the shortest decimal that reads back as the same double.
/// Format 1 wrote seconds since 1970, which lost up to ~1e-7 s in the conversion (about half of
/// all fractional dates came back unequal); such files are still read.
public final class FileRemoteConfigStorage: RemoteConfigStorage, Sendable {
    /// The current file format version (2: dates as seconds since the reference date).
    public static let formatVersion = 2
    /// The file name inside `directory`.
    public static let fileName = "RemoteConfig.snapshot"

    /// The directory holding the file (created on the first save).
    public let directory: URL
    /// The deepest JSON nesting a file may have (`JSONValue.defaultMaximumDepth`, 512, by
    /// default; a snapshot nests 3 levels, and `JSONDecoder` itself stops at 512).
    public let maximumJSONDepth: Int

    /// Creates a storage in `directory`.
    public init(directory: URL, maximumJSONDepth: Int = JSONValue.defaultMaximumDepth) {
        self.directory = directory
        self.maximumJSONDepth = maximumJSONDepth
    }

    /// The snapshot file.
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    /// Reads the snapshot; `nil` if the file does not exist.
    ///
    /// - Throws: `RemoteConfigStorageError.truncated`, `.corrupt`, `.unsupportedVersion` or `.io`.
    public func load() throws -> RemoteConfigSnapshot? {
        let data: Data?
        do {
            data = try AtomicFile.read(fileURL)
        } catch {
            throw RemoteConfigStorageError.io(error.message)
        }
        return try data.map { try Self.decode($0, maximumJSONDepth: maximumJSONDepth) }
    }

    /// Writes the snapshot atomically (temporary file, then rename).
    ///
    /// - Throws: `RemoteConfigStorageError.io`.
    public func save(_ snapshot: RemoteConfigSnapshot) throws {
        let data = try Self.encode(snapshot)
        do {
            try AtomicFile.write(data, to: fileURL)
        } catch {
            throw RemoteConfigStorageError.io(error.message)
        }
    }

    /// Deletes the snapshot file, if any.
    public func removeAll() throws {
        do {
            try AtomicFile.remove(fileURL)
        } catch {
            throw RemoteConfigStorageError.io(error.message)
        }
    }

    static func encode(_ snapshot: RemoteConfigSnapshot) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // `Date`'s own form, its `timeIntervalSinceReferenceDate`: written as the shortest
        // decimal that parses back to the same double, so the round trip is exact.
        encoder.dateEncodingStrategy = .deferredToDate
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

    static func decode(_ data: Data, maximumJSONDepth: Int = JSONValue.defaultMaximumDepth) throws -> RemoteConfigSnapshot {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else {
            throw RemoteConfigStorageError.corrupt("missing header")
        }
        let header = String(decoding: data[data.startIndex..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 4, header[0] == "RCSNAPSHOT",
            let version = Int(header[1]), let length = Int(header[2]), length >= 0,
            let expectedChecksum = UInt64(header[3], radix: 16)
        else {
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
        do {
            // The nesting limit first, with the non-recursive parser.
            _ = try JSONValue(parsing: Data(payload), maximumDepth: maximumJSONDepth)
        } catch {
            throw RemoteConfigStorageError.corrupt("invalid snapshot JSON: \(error)")
        }
        let decoder = JSONDecoder()
        // Format 1 wrote seconds since 1970 (inexact for fractional dates).
        decoder.dateDecodingStrategy = version >= 2 ? .deferredToDate : .secondsSince1970
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

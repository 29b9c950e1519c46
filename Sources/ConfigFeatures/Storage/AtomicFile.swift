import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and atomic replacements, for the file-backed storages.
///
/// A write goes to a temporary file in the same directory, which `rename(2)` then puts over the
/// old file, so a crash leaves the old or the new contents, never a mix. Failures are
/// `AtomicFile.Failure`s whose message names the path; each storage wraps them in its own error.
enum AtomicFile {
    /// What went wrong, with the path and the system's reason.
    struct Failure: Error {
        let message: String
    }

    /// The contents of `url`; `nil` if there is no file.
    static func read(_ url: URL) throws(Failure) -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw Failure(message: "cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    /// Replaces the contents of `url` with `data` atomically, creating its directory if needed.
    ///
    /// With `permissions` (such as `0o600` for a file holding credentials) the temporary file is
    /// created with that mode, so the contents are never readable by others, not even briefly.
    static func write(_ data: Data, to url: URL, permissions: mode_t? = nil) throws(Failure) {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if let permissions {
                try writeNew(data, to: temporary.path, permissions: permissions)
            } else {
                try data.write(to: temporary)
            }
        } catch let failure as Failure {
            try? FileManager.default.removeItem(at: temporary)
            throw failure
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw Failure(message: "cannot write \(temporary.path): \(error.localizedDescription)")
        }
        // rename(2) replaces the destination atomically.
        if rename(temporary.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw Failure(message: "cannot rename \(temporary.path) to \(url.path): \(reason)")
        }
    }

    /// Creates the file `path` (which must not exist) with `permissions` and writes `data` to it.
    private static func writeNew(_ data: Data, to path: String, permissions: mode_t) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw Failure(message: "cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let failure: String? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
        if let failure { throw Failure(message: "cannot write \(path): \(failure)") }
    }

    /// Deletes `url`, if it exists.
    static func remove(_ url: URL) throws(Failure) {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw Failure(message: "cannot remove \(url.path): \(error.localizedDescription)")
        }
    }
}

/// `write(2)` (named apart from `AtomicFile.write`).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

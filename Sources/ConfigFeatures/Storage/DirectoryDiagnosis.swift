import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a directory cannot be created, listed or written, in words that say what to fix.
///
/// Foundation's errors for this are vague on Linux ("The operation could not be completed.
/// (NSCocoaErrorDomain error 512.)"), so the path is examined from the root down: something that
/// is not a directory in the way (at the path or at one of its parents), a parent that cannot be
/// searched or written (the system's `errno` text), or the directory itself not readable or
/// writable. Only reads the file system (`lstat`, `stat`, `access`); creates nothing.
enum DirectoryDiagnosis {
    /// The reason `directory` cannot be used, or `fallback`'s description when nothing is found.
    static func reason(for directory: URL, fallback: any Error) -> String {
        let path = directory.standardizedFileURL.path
        var prefix = ""
        var parent = "/"
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            var info = stat()
            guard stat(prefix, &info) == 0 else {
                let code = errno
                if code == ENOENT {
                    guard access(parent, W_OK | X_OK) == 0 else {
                        return "cannot create \(prefix): its parent \(parent) is not writable (\(describe(errno)))"
                    }
                    return "\(prefix) does not exist and could not be created (\(fallback.localizedDescription))"
                }
                return "cannot reach \(prefix) (\(describe(code)))"
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                return "\(prefix) is \(kind(of: prefix, mode: info.st_mode)), not a directory"
            }
            parent = prefix
        }
        if access(path, R_OK | X_OK) != 0 { return "\(path) is not readable (\(describe(errno)))" }
        if access(path, W_OK) != 0 { return "\(path) is not writable (\(describe(errno)))" }
        return fallback.localizedDescription
    }

    /// What is at `path`, whose `stat` mode is `mode` (a link is followed by `stat`).
    private static func kind(of path: String, mode: mode_t) -> String {
        var link = stat()
        let isLink = lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
        let target: String
        switch mode & S_IFMT {
        case S_IFREG: target = "a regular file"
        case S_IFIFO: target = "a FIFO"
        case S_IFSOCK: target = "a socket"
        case S_IFCHR, S_IFBLK: target = "a device"
        default: target = "a special file"
        }
        return isLink ? "a symbolic link to \(target)" : target
    }

    /// The system's text for `code` ("Permission denied").
    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

import Foundation

/// The package's executables as the tests find them (built next to the test bundle: `swift build`
/// and `swift test` build every executable of the package) and run them.
enum BuiltExecutables {
    /// `name`, built next to this test bundle; a missing one is a failure.
    static func url(_ name: String, near anchor: AnyClass) throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [bundle.deletingLastPathComponent(), Bundle(for: anchor).bundleURL.deletingLastPathComponent()]
        for folder in candidates {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw Missing(name: name, folders: candidates.map(\.path))
    }

    /// An executable that is not built next to the tests.
    struct Missing: Error, CustomStringConvertible {
        let name: String
        let folders: [String]
        var description: String { "\(name) is not built next to the tests (looked in \(folders))" }
    }

    /// Runs `executable` with `arguments` and the test's environment changed by `environment`
    /// (a `nil` value removes the variable); returns its status and its output and errors.
    static func run(_ executable: String, _ arguments: [String] = [], environment: [String: String?] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        process.environment = variables
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import XCTest

/// The crash test of `RealtimeDatabasePersistence.file`: `local-first-writer` (a child process)
/// writes to a FirebaseTestServer over loopback with its queue in a temporary folder, is killed
/// with SIGKILL while its first write waits for the server's answer, and runs again on the same
/// folder. Synchronized on the child's stdout lines and the server's request log, never on time.
final class LocalFirstPersistenceCrashTests: XCTestCase {
    private var folder: URL!
    private var server: FirebaseTestServer!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("LocalFirstPersistenceCrashTests-\(UUID().uuidString)")
        server = try FirebaseTestServer()
    }

    override func tearDownWithError() throws {
        server.stop()  // also ends the request held by the delay fault
        try? FileManager.default.removeItem(at: folder)
    }

    func testKilledBetweenAWriteAndItsAcknowledgement_everyWriteArrivesOnceInOrder() throws {
        // The first write request is held (until the server stops): the child gets no answer.
        server.inject(.delay(600, count: 1, route: .database))
        let first = try Child(arguments: arguments(first: 0, count: 5))
        XCTAssertEqual(first.readLine(), "restored 0")
        let keys = (0..<5).map { index -> String in
            let line = first.readLine() ?? ""
            XCTAssertTrue(line.hasPrefix("durable \(index) "), line)
            return String(line.split(separator: " ").last ?? "")
        }
        XCTAssertTrue(server.waitForRequests(1, route: .database), "the first write reached the server")
        first.killHard()
        XCTAssertEqual(puts(), [keys[0]], "only the first write was sent before the kill")

        // Relaunched on the same folder: the five writes are sent again, in order, then two new ones.
        let second = try Child(arguments: arguments(first: 5, count: 2))
        XCTAssertEqual(second.readLine(), "restored 5")
        let newKeys = (5..<7).map { index -> String in
            let line = second.readLine() ?? ""
            XCTAssertTrue(line.hasPrefix("durable \(index) "), line)
            return String(line.split(separator: " ").last ?? "")
        }
        XCTAssertEqual(second.readLine(), "drained")
        XCTAssertEqual(second.waitForExit(), 0)

        XCTAssertEqual(puts(), [keys[0]] + keys + newKeys, "sent in the order issued; only the unanswered one twice")
        let stored = try server.databaseValue(at: "log")
        let expected = Dictionary(uniqueKeysWithValues: (keys + newKeys).enumerated().map { ($0.element, JSONValue.number(Double($0.offset))) })
        XCTAssertEqual(stored, .object(expected), "every write stored once, under its own key")
        XCTAssertEqual((keys + newKeys).sorted(), keys + newKeys, "push keys keep the order across the restart")

        // A third launch finds nothing to send.
        let third = try Child(arguments: arguments(first: 7, count: 0))
        XCTAssertEqual(third.readLine(), "restored 0")
        XCTAssertEqual(third.readLine(), "drained")
        XCTAssertEqual(third.waitForExit(), 0)
    }

    func testKilledAfterTwoAcknowledgements_resendsOnlyTheUnacknowledgedWrites() throws {
        // The first two write requests are answered at once, the third is held.
        server.inject(.delay(0, count: 2, route: .database))
        server.inject(.delay(600, count: 1, route: .database))
        let first = try Child(arguments: arguments(first: 0, count: 5))
        XCTAssertEqual(first.readLine(), "restored 0")
        let keys = (0..<5).map { _ in String(first.readLine()?.split(separator: " ").last ?? "") }
        // The third request is sent only after the second acknowledgement was recorded on disk.
        XCTAssertTrue(server.waitForRequests(3, route: .database), "the third write reached the server")
        first.killHard()
        XCTAssertEqual(puts(), Array(keys[0..<3]))

        let second = try Child(arguments: arguments(first: 5, count: 0))
        XCTAssertEqual(second.readLine(), "restored 3")
        XCTAssertEqual(second.readLine(), "drained")
        XCTAssertEqual(second.waitForExit(), 0)
        XCTAssertEqual(puts(), Array(keys[0..<3]) + Array(keys[2..<5]), "acknowledged writes are not sent again")
        let expected = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($0.element, JSONValue.number(Double($0.offset))) })
        XCTAssertEqual(try server.databaseValue(at: "log"), .object(expected))
    }

    private func arguments(first: Int, count: Int) -> [String] {
        ["--database", server.databaseURL.absoluteString, "--folder", folder.path, "--path", "log", "--first", "\(first)", "--count", "\(count)"]
    }

    /// The keys of the writes the server received under `log`, in order.
    private func puts() -> [String] {
        server.requests(on: .database).filter { $0.method == "PUT" }.compactMap { request in
            request.path.split(separator: "/").last.map { String($0.replacingOccurrences(of: ".json", with: "")) }
        }
    }
}

private struct NotBuilt: Error, CustomStringConvertible {
    let description: String
}

/// `local-first-writer`, run with `arguments`; its stdout is read line by line.
private final class Child {
    private let process = Process()
    private let output = Pipe()
    private var buffer = Data()

    init(arguments: [String]) throws {
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { killHard() }
    }

    /// The next line (blocking until it is complete); `nil` at the end of the output.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[(newline + 1)...])
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self) }
            buffer += chunk
        }
    }

    /// SIGKILL: no chance to flush, close or acknowledge anything.
    func killHard() {
        _ = kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Built next to this test bundle (`swift build --build-tests` builds every executable).
    private static func executable() throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [bundle.deletingLastPathComponent(), Bundle(for: Child.self).bundleURL.deletingLastPathComponent()]
        for folder in candidates {
            let url = folder.appendingPathComponent("local-first-writer")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw NotBuilt(description: "local-first-writer is not built next to the tests (looked in \(candidates.map(\.path)))")
    }
}

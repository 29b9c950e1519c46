import ConfigFeaturesTestServer
import Foundation
import XCTest

/// The set-up the `firebase-test-server` command-line tests share: a folder of their own for the
/// files they pass the tool (removed afterwards), an HTTP client, and the servers they start
/// (stopped afterwards).
class ToolTestCase: XCTestCase {
    var folder: URL!
    var client: HTTPClient!
    var servers: [FirebaseTestServer] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("fts-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        client = HTTPClient()
    }

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        client?.invalidate()
        client = nil
        if let folder { try? FileManager.default.removeItem(at: folder) }
        folder = nil
        super.tearDown()
    }

    /// Writes `text` to `name` in the test's folder; its path.
    func write(_ text: String, to name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}

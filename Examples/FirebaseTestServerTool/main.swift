// `swift run firebase-test-server [--require-token TOKEN]... [--port-file FILE]`
//
// Serves `FirebaseTestServer` (Remote Config and Realtime Database REST APIs) on 127.0.0.1 until
// it is killed, for clients outside Swift: Google's `firebase-admin` with
// `FIREBASE_DATABASE_EMULATOR_HOST=127.0.0.1:<port>`, curl, a browser. Prints
// `database http://127.0.0.1:<port>` once it listens (and writes the port to FILE).
import ConfigFeaturesTestServer
import Foundation

var tokens: Set<String> = []
var portFile: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--require-token":
        guard let token = arguments.popFirst() else { fatalExit("--require-token needs a token") }
        tokens.insert(token)
    case "--port-file":
        guard let file = arguments.popFirst() else { fatalExit("--port-file needs a path") }
        portFile = file
    case "-h", "--help":
        print("usage: firebase-test-server [--require-token TOKEN]... [--port-file FILE]")
        exit(0)
    default:
        fatalExit("unknown argument \(argument) (see --help)")
    }
}

func fatalExit(_ message: String) -> Never {
    FileHandle.standardError.write(Data("firebase-test-server: \(message)\n".utf8))
    exit(2)
}

let server: FirebaseTestServer
do {
    server = try FirebaseTestServer()
} catch {
    fatalExit("could not start: \(error)")
}
if !tokens.isEmpty { server.requireDatabaseAuth(validTokens: tokens) }
if let portFile {
    do {
        try "\(server.port)\n".write(toFile: portFile, atomically: true, encoding: .utf8)
    } catch {
        fatalExit("could not write \(portFile): \(error)")
    }
}
print("database \(server.databaseURL.absoluteString)")
print("remote-config \(server.remoteConfigBaseURL.absoluteString)")
fflush(nil)  // all output streams (stdout is not concurrency-safe to name)
while true { sleep(3600) }

// `swift run firebase-test-server [options]` (`--help` lists them, the endpoints and an example).
//
// Serves `FirebaseTestServer` on 127.0.0.1 until it is killed, for clients outside Swift: curl,
// Google's `firebase-admin` with `FIREBASE_DATABASE_EMULATOR_HOST=127.0.0.1:<port>`, a browser.
// The arguments, the help and the start-up live in `FirebaseTestServerTool` (tested there);
// this file only prints and exits: 0 after --help, 1 when the server cannot start, 2 for bad
// arguments, a bad --auth-users file or a --remote-config condition that does not parse.
import ConfigFeaturesTestServer
import Foundation

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(status)
}

let command: FirebaseTestServerTool.Command
do {
    command = try FirebaseTestServerTool.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.description, status: 2)
}
switch command {
case .help:
    print(FirebaseTestServerTool.help)
    exit(0)
case .serve(let options):
    let server: FirebaseTestServer
    do {
        server = try FirebaseTestServerTool.start(options)
    } catch {
        fail(error.description, status: error.exitStatus)
    }
    print(FirebaseTestServerTool.banner(for: server, options: options))
    fflush(nil)  // all output streams (stdout is not concurrency-safe to name)
    withExtendedLifetime(server) {
        while true { sleep(3600) }
    }
}

// auth-token-demo: signs in with FirebaseAuth against an Auth emulator (firebase-test-server or
// `firebase emulators:start --only auth`) and writes the ID token to a file the caller names, so
// another program can check it: Scripts/firebase-admin-check.sh hands it to firebase-admin's
// `verify_id_token`. The token goes to the file only (created owner-only), never to stdout or a
// log; stdout says who signed in (uid) and the file's size.
//
//     swift run auth-token-demo --emulator-host 127.0.0.1:9099 --anonymous --id-token-file /tmp/token
//     swift run auth-token-demo --emulator-host 127.0.0.1:9099 --email ann@example.com --password secret1 \
//         [--create] [--api-key KEY] --id-token-file /tmp/token
//
// Exits 0 when the token is written, 1 when signing in or writing fails, 2 for bad arguments.
import ConfigFeatures
import Foundation
import Streams
import StreamsBlocking

private let usage = """
    usage: auth-token-demo --emulator-host HOST:PORT (--anonymous | --email EMAIL --password PASSWORD [--create])
                           [--api-key KEY] --id-token-file FILE
    """

private func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("auth-token-demo: \(message)\n".utf8))
    exit(status)
}

/// The value after `name`, `nil` when absent.
private func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name) else { return nil }
    guard index + 1 < arguments.count else { fail("\(name) needs a value\n\(usage)", status: 2) }
    return arguments[index + 1]
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
guard let hostText = option("--emulator-host", in: arguments), let tokenPath = option("--id-token-file", in: arguments) else {
    fail("--emulator-host and --id-token-file are required\n\(usage)", status: 2)
}
let hostParts = hostText.split(separator: ":", omittingEmptySubsequences: false)
guard hostParts.count == 2, !hostParts[0].isEmpty, let port = Int(hostParts[1]) else {
    fail("--emulator-host must be HOST:PORT, got \"\(hostText)\"", status: 2)
}
let email = option("--email", in: arguments)
let password = option("--password", in: arguments)
let anonymous = arguments.contains("--anonymous")
guard anonymous != (email != nil), (email == nil) == (password == nil) else {
    fail("give either --anonymous or --email and --password\n\(usage)", status: 2)
}

let endpoints: FirebaseEndpoints
do {
    endpoints = try FirebaseEndpoints.emulator(host: String(hostParts[0]), port: port)
} catch {
    fail("\(error)", status: 2)
}
let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "auth-token-demo")
let auth = FirebaseAuth(apiKey: option("--api-key", in: arguments) ?? "test-api-key", endpoints: endpoints, scheduler: scheduler, requestTimeout: 20)
let signIn: Single<FirebaseUser>
if let email, let password {
    signIn = arguments.contains("--create") ? auth.createUser(email: email, password: password) : auth.signIn(email: email, password: password)
} else {
    signIn = auth.signInAnonymously()
}

do {
    let user = try signIn.toBlocking(timeout: 30).single()
    let token = try auth.idToken().toBlocking(timeout: 30).single()
    let url = URL(fileURLWithPath: tokenPath)
    guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
        fail("cannot create \(url.path)", status: 1)
    }
    try Data((token + "\n").utf8).write(to: url)
    print("signed in: \(user.isAnonymous ? "anonymous" : "email"), uid \(user.uid); ID token written to \(url.path) (\(token.utf8.count) bytes)")
} catch {
    fail("\(error)", status: 1)
}

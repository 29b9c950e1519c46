// local-first-writer: pushes numbered values through a LocalFirstRealtimeDatabase with file
// persistence, over REST, and reports on stdout when each write is on disk and when the queue
// has drained. The crash test (Tests/NetworkingTests/LocalFirstPersistenceCrashTests.swift) kills
// it with SIGKILL between a write and its acknowledgement and runs it again on the same folder.
//
//     swift run local-first-writer --database http://127.0.0.1:PORT --folder /tmp/queue --path log --first 0 --count 5
//
// Lines: `restored N` (writes read back from the folder), `durable I KEY` (write I is on disk,
// under KEY), `drained` (no write pending), then it exits 0; `error MESSAGE` and exit 1 on failure.
import ConfigFeatures
import Foundation
import Streams

/// The command line, `--name value` pairs.
private func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

private func fail(_ message: String) -> Never {
    say("error \(message)")
    exit(1)
}

let arguments = CommandLine.arguments
guard let databaseText = option("--database", in: arguments), let databaseURL = URL(string: databaseText),
    let folder = option("--folder", in: arguments)
else {
    fail("usage: local-first-writer --database URL --folder PATH [--path log] [--first 0] [--count 5]")
}
let path = option("--path", in: arguments) ?? "log"
let first = Int(option("--first", in: arguments) ?? "0") ?? 0
let count = Int(option("--count", in: arguments) ?? "5") ?? 5

let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "local-first-writer")
let rest = FirebaseRESTDatabase(databaseURL: databaseURL, scheduler: scheduler, requestTimeout: 120)
let database = LocalFirstRealtimeDatabase(
    remote: rest, persistence: .file(directory: URL(fileURLWithPath: folder), maximumCacheSize: 1_000_000), scheduler: scheduler,
    reconnectBackoff: BackoffPolicy(initialDelay: 0.05, maximumDelay: 0.2, jitter: 0))
if let error = database.persistenceError { fail("\(error)") }

/// The first value of `observable` that passes `predicate`, waiting for it.
private func wait(for observable: Observable<Int>, until predicate: @escaping (Int) -> Bool) -> Int {
    let found = DispatchSemaphore(value: 0)
    let value = LockedState(0)
    let subscription = observable.filter(predicate).take(1).subscribe(onNext: { element in
        value.withLock { $0 = element }
        found.signal()
    })
    found.wait()
    subscription.dispose()
    return value.withLock { $0 }
}

// The count is current when subscribed (the restored writes were counted when the database was
// created, the writes below when each was subscribed), so a later 0 means all were acknowledged.
say("restored \(wait(for: database.pendingWriteCount) { _ in true })")
for index in first..<(first + count) {
    let key = database.childByAutoId()
    // Subscribing applies the write and stores it on disk before returning.
    _ = database.setValue(.number(Double(index)), at: "\(path)/\(key)").subscribe(onError: { error in fail("write \(index): \(error)") })
    say("durable \(index) \(key)")
}
_ = wait(for: database.pendingWriteCount) { $0 == 0 }
say("drained")
exit(0)

import Foundation
import Synchronization
import Streams

/// Thread-safe recording of events as short strings: "1" for `.next(1)`, "|" for completion,
/// "#name" for an error.
final class AsyncEventLog: Sendable {
    // LockedState (pthread), not Mutex: ThreadSanitizer cannot see Mutex on Linux.
    private let entries = LockedState<[String]>([])

    var all: [String] { entries.withLock { $0 } }

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }

    func record<Element>(_ event: Event<Element>) {
        switch event {
        case .next(let element): append("\(element)")
        case .error(let error): append("#\(error)")
        case .completed: append("|")
        }
    }
}

struct AsyncTestError: Error, CustomStringConvertible {
    var description: String { "e" }
}

// A command-line tool that waits for streams with RxBlocking's API, from StreamsBlocking alone:
// it links Streams and Foundation, not XCTest (StreamsBlockingLinkTests checks that).
//
//   swift run blocking-demo
//
// Prints one line per answer and exits with status 0, or 1 if an answer is not the expected one.
import Foundation
import StreamsBlocking

struct UnexpectedAnswer: Error, CustomStringConvertible {
    let description: String
}

func check<T: Equatable>(_ label: String, _ answer: T, _ expected: T) throws {
    print("\(label): \(answer)")
    guard answer == expected else { throw UnexpectedAnswer(description: "\(label): expected \(expected), got \(answer)") }
}

do {
    // A synchronous source: collected during subscribe, no waiting.
    try check("toArray", try Observable.from([1, 2, 3]).map { $0 * 10 }.toBlocking().toArray(), [10, 20, 30])
    // A timer on a background queue: the main thread waits on a run loop until it fires.
    let background = ConcurrentDispatchQueueScheduler(qos: .default)
    try check("first", try Observable<Int>.timer(.milliseconds(20), scheduler: background).toBlocking(timeout: 10).first(), 0)
    // Main-queue work makes progress while the main thread blocks (the main run loop runs).
    try check("last", try Observable.of("a", "b").delay(.milliseconds(10), scheduler: MainScheduler.instance).toBlocking(timeout: 10).last(), "b")
    try check("single", try Observable.just(42).toBlocking().single(), 42)
    // Errors and timeouts are typed.
    switch Observable<Int>.never().toBlocking(timeout: 0.05).materialize() {
    case .completed(let elements): throw UnexpectedAnswer(description: "never completed with \(elements)")
    case .failed(let elements, let error): try check("timeout", "\(elements) \(error)", "[] \(RxError.timeout)")
    }
    print("blocking-demo: every answer as expected")
} catch {
    print("blocking-demo: \(error)")
    exit(1)
}

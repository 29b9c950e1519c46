import ConfigFeatures
import Foundation
import Streams
import XCTest

/// Records the events of a subscription made on real threads and lets a test wait (bounded)
/// until they satisfy a condition.
final class EventRecorder<Element>: @unchecked Sendable {
    // Safety: `events` and `isFinished` are only accessed while `condition` is locked.
    private let condition = NSCondition()
    private var recorded: [Event<Element>] = []
    private var subscription: Disposable?

    /// Subscribes to `source` at once.
    init(_ source: Observable<Element>) {
        let disposable = source.subscribe { [self] event in
            condition.lock()
            recorded.append(event)
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        subscription = disposable
        condition.unlock()
    }

    /// The events so far.
    var events: [Event<Element>] {
        condition.lock()
        defer { condition.unlock() }
        return recorded
    }

    /// The elements so far.
    var elements: [Element] {
        events.compactMap { if case .next(let element) = $0 { return element } else { return nil } }
    }

    /// The error, if the sequence failed.
    var error: Error? {
        events.lazy.compactMap { if case .error(let error) = $0 { return error } else { return nil } }.first
    }

    /// Whether a terminal event arrived.
    var isTerminated: Bool { events.last?.isStopEvent ?? false }

    /// Disposes the subscription.
    func dispose() {
        condition.lock()
        let subscription = self.subscription
        self.subscription = nil
        condition.unlock()
        subscription?.dispose()
    }

    /// Blocks until `predicate` holds for the events, or `timeout` passes; whether it held.
    @discardableResult
    func wait(timeout: TimeInterval = networkTimeout, until predicate: ([Event<Element>]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(recorded) {
            if !condition.wait(until: deadline) { return predicate(recorded) }
        }
        return true
    }

    /// Blocks until `count` elements arrived (or a terminal event), or `timeout` passes.
    @discardableResult
    func waitForElements(_ count: Int, timeout: TimeInterval = networkTimeout) -> Bool {
        wait(timeout: timeout) { events in
            events.filter { if case .next = $0 { return true } else { return false } }.count >= count || (events.last?.isStopEvent ?? false)
        }
    }

    /// Blocks until a terminal event arrived, or `timeout` passes.
    @discardableResult
    func waitForTermination(timeout: TimeInterval = networkTimeout) -> Bool {
        wait(timeout: timeout) { $0.last?.isStopEvent ?? false }
    }
}

/// Polls `condition` until it holds or `timeout` passes (for state outside any observable).
@discardableResult
func waitUntil(timeout: TimeInterval = networkTimeout, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return condition() }
        _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.005))
    }
    return true
}

extension HTTPStreamPart {
    /// The chunk's bytes (empty for `.response`).
    var data: Data {
        if case .data(let data) = self { return data }
        return Data()
    }
}

/// The body bytes of recorded stream events, concatenated.
func streamedText(_ events: [Event<HTTPStreamPart>]) -> String {
    var body = Data()
    for case .next(let part) in events { body.append(part.data) }
    return String(decoding: body, as: UTF8.self)
}

import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation
import Streams
import XCTest

/// A real-thread serial scheduler whose clock runs `factor` times faster than the wall clock:
/// `now` advances `factor` seconds per real second and relative delays are divided by `factor`.
///
/// For the Remote Config fault tests: the client's fixed backoffs (realtime reconnections from
/// 1 s, fetch retries from 1 s, throttling from 2 min) then take milliseconds, while every
/// decision still happens on a real dispatch queue, in the client's own order. Deliveries
/// without delay run at once, as on the wrapped `SerialDispatchQueueScheduler`.
final class TimeScaledScheduler: SchedulerType, Sendable {
    let factor: Double
    private let base: SerialDispatchQueueScheduler
    private let origin = Date()

    init(factor: Double, name: String) {
        self.factor = factor
        base = SerialDispatchQueueScheduler(internalSerialQueueName: name)
    }

    /// The scaled clock: `origin + elapsed × factor`.
    var now: Date { origin.addingTimeInterval(Date().timeIntervalSince(origin) * factor) }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        base.schedule(state, action: action)
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        base.scheduleRelative(state, dueTime: scaled(dueTime), action: action)
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType)
        -> Disposable
    {
        base.schedulePeriodic(state, startAfter: scaled(startAfter), period: scaled(period), action: action)
    }

    private func scaled(_ interval: RxTimeInterval) -> RxTimeInterval {
        let seconds = interval.rxSeconds / factor
        guard seconds.isFinite else { return .never }
        return .nanoseconds(Int((max(seconds, 0) * 1_000_000_000).rounded()))
    }
}

/// Whether `values` never repeats the previous value.
func hasNoConsecutiveDuplicates<Value: Equatable>(_ values: [Value]) -> Bool {
    zip(values, values.dropFirst()).allSatisfy { $0 != $1 }
}

/// Whether `values` appear in `history` in the same order (not necessarily adjacent): the
/// client emitted only states the server really had, never going back to an older one.
func isSubsequence<Value: Equatable>(_ values: [Value], of history: [Value]) -> Bool {
    var remaining = history[...]
    for value in values {
        guard let index = remaining.firstIndex(of: value) else { return false }
        remaining = remaining[(index + 1)...]
    }
    return true
}

extension FirebaseTestServer.Fault {
    /// The fault's name for failure messages.
    var label: String {
        switch self {
        case .status(let code, let count, _): return "\(count)×\(code)"
        case .malformedJSON(let count, _): return "\(count)×malformed"
        case .delay(let seconds, let count, _): return "\(count)×delay(\(seconds))"
        case .redirect307(let count, _): return "\(count)×307"
        case .disconnect(let count, _): return "\(count)×disconnect"
        }
    }
}

import Foundation

extension FirebaseTestServer {
    /// Queues `fault` for the next matching requests (see `Fault`).
    public func inject(_ fault: Fault) {
        guard fault.count > 0 else { return }
        engine.mutate { state, _ in state.faults.append(fault) }
    }

    /// Removes every queued fault.
    public func clearFaults() {
        engine.mutate { state, _ in state.faults.removeAll() }
    }

    /// The faults not used up yet (with their remaining counts), in order.
    public var pendingFaults: [Fault] {
        engine.read { $0.faults }
    }

    /// Closes every open stream of `route` (`nil`: all), after the bytes already queued on it.
    ///
    /// The streams stop counting as open at once; their connections close right after.
    /// - Parameter midMessage: Write the first half of a message (an SSE `put`, a realtime
    ///   message) before closing, as a connection cut in the middle of a message would.
    public func dropStreams(midMessage: Bool = false, route: Route? = nil) {
        engine.mutate { state, effects in
            for id in state.openStreamIDs(route) {
                var partial: Data?
                if midMessage, let stream = state.streams[id] {
                    switch stream.kind {
                    case .remoteConfig: partial = state.partialRealtimeMessage(onStream: id)
                    case .database: partial = ServerSentEvents.partialPut
                    }
                }
                state.end(stream: id, after: partial, &effects)
            }
        }
    }
}

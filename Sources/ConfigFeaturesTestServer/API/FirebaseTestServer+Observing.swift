import Foundation

extension FirebaseTestServer {
    /// Every well-formed request received so far, oldest first (a snapshot).
    public var requests: [RecordedRequest] {
        engine.read { $0.requests }
    }

    /// The requests received so far on `route`, oldest first.
    public func requests(on route: Route) -> [RecordedRequest] {
        engine.read { $0.requests.filter { $0.route == route } }
    }

    /// Empties the request log (and the Remote Config fetch and realtime records).
    public func clearRequestLog() {
        engine.mutate { state, _ in
            state.requests.removeAll()
            state.remoteConfig.fetches.removeAll()
            state.remoteConfig.realtimeConnections.removeAll()
        }
    }

    /// The number of open streams on `route` (`nil`: all): realtime streams for
    /// `.remoteConfigRealtime`, SSE streams for `.database`.
    public func openStreamCount(route: Route? = nil) -> Int {
        engine.read { $0.openStreamIDs(route).count }
    }

    /// Blocks until exactly `count` streams are open on `route`, or `timeout` seconds pass.
    ///
    /// - Returns: Whether the count was reached.
    @discardableResult
    public func waitForOpenStreams(_ count: Int, route: Route, timeout: TimeInterval = 10) -> Bool {
        engine.wait(for: .openStreams(count, route), timeout: timeout)
    }

    /// Blocks until at least `count` requests were received on `route` (`nil`: any), or
    /// `timeout` seconds pass.
    ///
    /// - Returns: Whether the count was reached.
    @discardableResult
    public func waitForRequests(_ count: Int, route: Route? = nil, timeout: TimeInterval = 10) -> Bool {
        engine.wait(for: .requests(atLeast: count, route), timeout: timeout)
    }
}

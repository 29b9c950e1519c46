import Foundation

extension LocalFirstRealtimeDatabase.State {
    /// Write `id` is on disk: it may be sent now.
    mutating func durable(_ id: UInt64) {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return }
        pending[index].isDurable = true
        guard index == 0 else { return }
        if isUnreachable, !isOffline, retryTimer == nil, sendingID == nil {
            // No retry is due (the last one found nothing to probe the server with): this
            // write is the probe.
            send()
        } else {
            sendNext()
        }
    }

    /// Write `id` could not be stored on disk: it is dropped (observers see the cache revert)
    /// and its observable fails with `error`, as a write the server rejected.
    mutating func notDurable(_ id: UInt64, error: Error) {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return }
        let write = pending.remove(at: index)
        settle(write, error: error)
        sendNext()
    }
}

/// The bookkeeping of a resubscribe loop (`retry`, `retry(when:)`, `catch(sequence:)`), kept in an
/// operator's locked state.
///
/// Resubscribing from inside a synchronously failing subscription would recurse once per
/// failure. Instead, one thread at a time owns the loop; a request that arrives while the loop
/// runs (on that thread, reentrantly, or on another) only asks it to go round once more.
struct ResubscribeLoop {
    private var running = false
    private var again = false

    /// Asks for one more pass; returns `true` when the caller now owns the loop and must run it.
    mutating func request() -> Bool {
        if running {
            again = true
            return false
        }
        running = true
        return true
    }

    /// Called by the owner after a pass; returns `true` when another pass was asked for meanwhile,
    /// otherwise gives the loop up.
    mutating func finishPass() -> Bool {
        if again {
            again = false
            return true
        }
        running = false
        return false
    }

    /// Gives the loop up without another pass (the subscription was disposed or ended).
    mutating func stop() {
        running = false
        again = false
    }
}

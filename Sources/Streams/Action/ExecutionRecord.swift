/// The events of one ``Action`` execution, recorded so that every subscriber sees all of them.
final class ExecutionRecord<Element>: @unchecked Sendable {
    // Safety: `state` is guarded by its lock; observers are called outside it.
    private struct State {
        var elements: [Element] = []
        var stop: Event<Element>?
        var observers = ObserverList()
    }

    private let state = LockedState(State())

    func on(_ event: Event<Element>) {
        let handlers = state.withLock { state -> ObserverList.Handlers in
            guard state.stop == nil else { return [] }
            switch event {
            case .next(let element):
                state.elements.append(element)
                return state.observers.handlers
            case .error, .completed:
                state.stop = event
                return state.observers.removeAll()
            }
        }
        deliver(event, to: handlers)
    }

    func asObservable() -> Observable<Element> {
        Observable.create { [self] observer in
            let outcome = state.withLock { state -> SubscribeOutcome<Element> in
                if let stop = state.stop { return .rejected(stop, replay: state.elements) }
                return .register(observer, in: &state.observers, replay: state.elements)
            }
            return outcome.complete(observer, subject: self)
        }
    }
}

extension ExecutionRecord: Unsubscribing {
    func unsubscribe(_ key: UInt64) {
        let removed = state.withLock { $0.observers.remove(key) }
        _ = removed  // released outside the lock: dropping an observer may run deinit code
    }
}

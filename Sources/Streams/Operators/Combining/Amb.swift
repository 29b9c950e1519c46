extension ObservableType {
    /// Mirrors whichever of this sequence and `right` sends an event first; the other is disposed.
    ///
    ///     self:   ---1---2---|
    ///     right:  -a---b---c---|
    ///     output: -a---b---c---|     (right sent first; self is disposed at that moment)
    ///
    /// Any first event wins, a terminal one included: a source that completes or fails first
    /// ends the output the same way.
    /// - Parameter right: The sequence competing with this one.
    /// - Returns: The events of the first sequence to send one.
    /// - Note: Delivers on the winning source's thread. See <doc:Combining>.
    public func amb<O2: ObservableType>(_ right: O2) -> Observable<Element> where O2.Element == Element {
        AmbProducer(sources: [asObservable(), right.asObservable()])
    }

    /// Mirrors whichever sequence of `sequence` sends an event first; all the others are disposed.
    ///
    ///     a:      ----1---2--|
    ///     b:      --x---y------|
    ///     c:      ------------p-|
    ///     output: --x---y------|     (b wins)
    ///
    /// An empty `sequence` never sends anything (as RxSwift, which starts from ``ObservableType/never()``). Sources
    /// are subscribed in order; once one of them has sent an event during its subscription, the
    /// later ones are not subscribed.
    /// - Parameter sequence: The competing sequences.
    /// - Returns: The events of the first sequence to send one.
    /// - Note: Delivers on the winning source's thread. See <doc:Combining>.
    public static func amb<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        AmbProducer(sources: Array(sequence))
    }
}

final private class AmbSink<Observer: ObserverType>: SerializingSink<Observer, Int?> {
    typealias Element = Observer.Element
    private let subscriptions: [SingleAssignmentDisposable]

    init(sourceCount: Int, observer: Observer, cancel: SinkDisposer) {
        subscriptions = (0..<sourceCount).map { _ in SingleAssignmentDisposable() }
        super.init(state: nil, observer: observer, cancel: cancel)
    }

    func run(_ sources: [Observable<Element>]) -> Disposable {
        // Every source is subscribed, even once one has won or ended the output (a loser's
        // subscription is then disposed at once), as in RxSwift.
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(
                source.subscribe(
                    SinkForward<Element> { [self] event in
                        on(event, from: index)
                    }))
        }
        return Disposables.create(subscriptions)
    }

    private func on(_ event: Event<Element>, from index: Int) {
        let firstWin = withState { winner -> Bool in
            guard winner == nil else { return false }
            winner = index
            return true
        }
        // The losers are disposed (outside the lock) before the winner's first event is
        // forwarded, as in RxSwift.
        if firstWin {
            for (other, subscription) in subscriptions.enumerated() where other != index {
                subscription.dispose()
            }
        }
        synchronized { winner, outbox in
            if winner == index { outbox.send(event) }
        }
    }

    override func dispose() {
        for subscription in subscriptions { subscription.dispose() }
        super.dispose()
    }
}

final private class AmbProducer<Element>: Producer<Element> {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable)
    where Observer.Element == Element {
        let sink = AmbSink(sourceCount: sources.count, observer: observer, cancel: cancel)
        let subscription = sink.run(sources)
        return (sink, subscription)
    }
}

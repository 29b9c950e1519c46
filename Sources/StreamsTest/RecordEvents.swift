import Streams

extension TestScheduler {
    /// Schedules a subscription to `make()` at `subscribed` (and its disposal at `disposed`, if
    /// given) and returns the observer that will record its events; run the clock yourself.
    ///
    /// Unlike `start(created:subscribed:disposed:create:)`, it does not run the scheduler, so a
    /// test can record several sequences (and schedule its own inputs) before one `start()` or
    /// `advanceTo(_:)`. `make` is called at `subscribed`, not before. Without `disposed` the
    /// subscription lasts until the sequence terminates (or forever); the scheduler keeps it
    /// alive, so the result of an inline call needs no local reference to keep recording.
    ///
    ///     input:  ---1---2---3---4--     (hot; one frame = 10 ticks, frame 0 at 200)
    ///     record: ----^-------!          (subscribed: 240, disposed: 320)
    ///     events: -------2---3           (2 at 270, 3 at 310)
    ///
    /// ```swift
    /// let input = try scheduler.createHotObservable("---1---2---3---4--")
    /// let events = scheduler.recordEvents(subscribed: 240, disposed: 320) { input.map { $0 } }
    /// scheduler.start()
    /// // events.events == [.next(270, "2"), .next(310, "3")]
    /// ```
    ///
    /// - Parameters:
    ///   - subscribed: Virtual time at which `make()` is called and its sequence subscribed.
    ///   - disposed: Virtual time at which the subscription is disposed; `nil` never disposes it.
    ///   - make: Builds the sequence under test (anything `ObservableConvertibleType`).
    /// - Returns: An observer holding every event received while subscribed, with its time.
    /// - Note: Events are recorded on the thread that drives the clock.
    public func recordEvents<Source: ObservableConvertibleType>(
        subscribed: TestTime,
        disposed: TestTime? = nil,
        _ make: @escaping () -> Source
    ) -> TestableObserver<Source.Element> {
        let observer = createObserver(Source.Element.self)
        let subscription = SerialDisposable()
        scheduleAt(subscribed) { subscription.disposable = make().asObservable().subscribe(observer) }
        if let disposed {
            scheduleAt(disposed) { subscription.dispose() }
        }
        return observer
    }
}

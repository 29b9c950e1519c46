extension TestScheduler {
    /// Creates a hot observable from a marble string.
    ///
    /// The `^` (or, without one, the first character) is marble time 0, at absolute time
    /// `marbleOrigin` (200 by default, the subscription time of `start { ... }`); each frame is
    /// `frameSize` ticks (10 by default). Tokens before `^` play before the subscription.
    ///
    ///     hot:      --a--^--b--|
    ///     times:     170     230   260
    ///
    /// - Parameters:
    ///   - marbles: The diagram (`-` frame, `|` complete, `#` error, `(ab)` group, `^` subscription).
    ///   - values: The value of each character; a missing character is itself if `Element` is `String`.
    ///   - error: The error `#` stands for.
    /// - Throws: ``MarbleSyntaxError`` for malformed marbles or a character with no value.
    public func createHotObservable<Element>(
        _ marbles: String,
        values: [Character: Element] = [:],
        error: Swift.Error = MarbleError()
    ) throws(MarbleSyntaxError) -> TestableObservable<Element> {
        createHotObservable(try parseEvents(marbles, values: values, error: error))
    }

    /// Creates a hot observable of `String`s from a marble string: each value character is its own value.
    public func createHotObservable(
        _ marbles: String,
        error: Swift.Error = MarbleError()
    ) throws(MarbleSyntaxError) -> TestableObservable<String> {
        try createHotObservable(marbles, values: [Character: String](), error: error)
    }

    /// Creates a cold observable from a marble string; times are relative to each subscription.
    ///
    /// The first character is frame 0, i.e. the subscription time (an event there arrives one tick
    /// late, at `subscribe + 1`, because of the processing delay). `^` is not allowed.
    ///
    ///     cold:        --a--|
    ///     relative:      20 50   (subscribed at 200 -> 220, 250)
    ///
    /// - Throws: ``MarbleSyntaxError`` for malformed marbles, a `^`, or a character with no value.
    public func createColdObservable<Element>(
        _ marbles: String,
        values: [Character: Element] = [:],
        error: Swift.Error = MarbleError()
    ) throws(MarbleSyntaxError) -> TestableObservable<Element> {
        let diagram = try MarbleDiagram(marbles)
        if let position = diagram.subscriptionPosition {
            throw MarbleSyntaxError(.subscriptionMarkerInColdObservable, marbles: marbles, position: position)
        }
        let events: [Recorded<Event<Element>>] = try diagram.recordedEvents(values: values, error: error, frameSize: frameSize, origin: 0)
        return createColdObservable(events)
    }

    /// Creates a cold observable of `String`s from a marble string: each value character is its own value.
    public func createColdObservable(
        _ marbles: String,
        error: Swift.Error = MarbleError()
    ) throws(MarbleSyntaxError) -> TestableObservable<String> {
        try createColdObservable(marbles, values: [Character: String](), error: error)
    }

    /// Parses marbles into recorded events at absolute times (frame 0 = `marbleOrigin`).
    ///
    /// Use it for expected results: `XCTAssertEqual(res.events, try scheduler.parseEvents("--a--|", values: v))`.
    /// A `^` is allowed and marks frame 0.
    ///
    /// - Throws: ``MarbleSyntaxError`` for malformed marbles or a character with no value.
    public func parseEvents<Element>(
        _ marbles: String,
        values: [Character: Element] = [:],
        error: Swift.Error = MarbleError()
    ) throws(MarbleSyntaxError) -> [Recorded<Event<Element>>] {
        try MarbleDiagram(marbles).recordedEvents(values: values, error: error, frameSize: frameSize, origin: marbleOrigin)
    }

    /// Parses marbles into recorded `String` events: each value character is its own value.
    public func parseEvents(
        _ marbles: String,
        error: Swift.Error = MarbleError()
    ) throws(MarbleSyntaxError) -> [Recorded<Event<String>>] {
        try parseEvents(marbles, values: [Character: String](), error: error)
    }

    /// Draws recorded events as a marble string (frame 0 = `marbleOrigin`); the inverse of `parseEvents`.
    ///
    /// Values are drawn with their key in `values` (or as themselves for one-character strings);
    /// see `Marbles.string(from:values:frameSize:origin:)`.
    ///
    ///     try scheduler.marbles(from: res.events, values: ["a": 1])   // "--a--|"
    ///
    /// - Throws: ``MarbleDrawingError`` for events too far from `marbleOrigin` to draw (more than
    ///   `Marbles.maximumDrawnFrames` frames, or a distance that overflows `Int`).
    public func marbles<Element: Equatable>(
        from events: [Recorded<Event<Element>>],
        values: [Character: Element] = [:]
    ) throws(MarbleDrawingError) -> String {
        try Marbles.string(from: events, values: values, frameSize: frameSize, origin: marbleOrigin)
    }
}

import XCTest

/// Asserts that recorded events match a marble string, showing both as marbles on failure.
///
/// `marbles` is parsed with `values` and `error`; frame 0 is `origin` (200, the subscription time
/// of `start { ... }`) and each frame is `frameSize` ticks (10). Times must match exactly.
/// On failure the message shows the expected and actual marble strings, a caret under the first
/// differing frame and the first differing event:
///
///     XCTAssertMarbles(res.events, "--a--b--|", values: ["a": 1, "b": 2])
///
///     events do not match "--a--b--|" (frame = 10 ticks, frame 0 = time 200)
///       expected: --a--b--|
///       actual:   --a--c--|
///                      ^
///       first difference at event 1: expected next(2) @ 250, actual next(3) @ 250
///
/// Malformed expected marbles fail the test with the ``MarbleSyntaxError`` description. When the
/// environment variable `STREAMS_MARBLES_DIR` names a folder, a failure also writes an SVG
/// picture of the expected and actual events there, first difference highlighted, and prints its
/// path (see ``MarblePicture``).
public func XCTAssertMarbles<Element: Equatable>(
    _ events: [Recorded<Event<Element>>],
    _ marbles: String,
    values: [Character: Element] = [:],
    error: Swift.Error = MarbleError(),
    frameSize: TestTime = Marbles.defaultFrameSize,
    origin: TestTime = TestScheduler.Defaults.subscribed,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    guard let mismatch = Marbles.mismatch(events, marbles, values: values, error: error, frameSize: frameSize, origin: origin) else { return }
    let extra = message()
    var report = ""
    if let expectedEvents: [Recorded<Event<Element>>] = try? MarbleDiagram(marbles).recordedEvents(
        values: values, error: error, frameSize: frameSize, origin: origin),
        let pictureLine = MarblePicture.reportFailure(
            expected: expectedEvents, actual: events, caption: "XCTAssertMarbles \"\(marbles)\" at \(file):\(line)", file: file, line: line)
    {
        report = "\n  " + pictureLine
    }
    XCTFail("XCTAssertMarbles: " + mismatch + (extra.isEmpty ? "" : "\n  \(extra)") + report, file: file, line: line)
}

/// Asserts that an observer's events match a marble string, using its scheduler's `frameSize`
/// and `marbleOrigin`.
///
///     let res = scheduler.start { xs.map { $0 * 2 } }
///     XCTAssertMarbles(res, "--b--|", values: ["b": 2])
public func XCTAssertMarbles<Element: Equatable>(
    _ observer: TestableObserver<Element>,
    _ marbles: String,
    values: [Character: Element] = [:],
    error: Swift.Error = MarbleError(),
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertMarbles(
        observer.events, marbles, values: values, error: error,
        frameSize: observer.scheduler.frameSize, origin: observer.scheduler.marbleOrigin,
        message(), file: file, line: line
    )
}

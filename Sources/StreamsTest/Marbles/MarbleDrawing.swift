/// Events drawn as a marble string, with what the string cannot say.
struct MarbleDrawing: Equatable {
    /// The marble string.
    var text: String
    /// Characters invented for values that have no entry in `values:`, with their values.
    var legend: [(character: Character, value: String)] = []
    /// `false` when some event is off the frame grid, overlaps a previous group, or sits on the
    /// frame of `^`: the string is then only an approximation of the events.
    var isExact = true

    static func == (lhs: MarbleDrawing, rhs: MarbleDrawing) -> Bool {
        lhs.text == rhs.text && lhs.isExact == rhs.isExact
            && lhs.legend.map(\.character) == rhs.legend.map(\.character)
            && lhs.legend.map(\.value) == rhs.legend.map(\.value)
    }
}

/// Recorded events that cannot be drawn as a marble string.
///
/// Drawing never traps and never builds a huge string: times are compared with overflow-checked
/// arithmetic, and a drawing is at most `Marbles.maximumDrawnFrames` (10,000) frames wide.
public struct MarbleDrawingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum Kind: Equatable, Sendable {
        /// `time - origin` of the event at `index` does not fit in ``TestTime`` (`Int`).
        case timeOutOfRange(index: Int, time: TestTime, origin: TestTime)
        /// The drawing would span `frames` frames (from `firstFrame` to `lastFrame`, frame 0
        /// included), more than `limit` (`Marbles.maximumDrawnFrames`).
        case tooWide(frames: Int, firstFrame: Int, lastFrame: Int, limit: Int)
    }

    /// What is wrong.
    public let kind: Kind

    /// Creates an error.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    /// The problem and how to get a drawing.
    public var description: String {
        switch kind {
        case .timeOutOfRange(let index, let time, let origin):
            return "marble drawing error: event \(index) at time \(time) is too far from frame 0 (time \(origin)): the distance overflows TestTime (Int)"
        case .tooWide(let frames, let first, let last, let limit):
            return
                "marble drawing error: the events span \(frames) frames (frame \(first) to \(last)), more than the \(limit) a drawing may have; use a larger frame size, another origin, or compare the recorded events"
        }
    }
}

extension Marbles {
    /// The widest marble string drawn, in frames (10,000): wider events throw
    /// `MarbleDrawingError.Kind.tooWide` instead of building a huge string.
    public static let maximumDrawnFrames = 10_000

    /// Draws recorded events as a marble string: the inverse of parsing.
    ///
    /// Time `origin` is frame 0. Events in the same frame become a group `(ab)`; events before
    /// `origin` are drawn before a `^`. A value is drawn with its key in `values`, else (for
    /// `String` / `Character` elements) as its own single character, else with an invented
    /// character (`A`, `B`, ...). If a value drawn as itself would merge with its neighbour into
    /// one character (a lone combining mark after another value, say), every value that is not
    /// ASCII gets an invented character instead. Errors are `#`, completion `|`. Nothing is drawn after the
    /// last event. Times that are not a whole number of frames are rounded down to a frame.
    /// A `frameSize` below 1 is treated as 1.
    ///
    ///     [.next(210, "a"), .next(230, "b"), .completed(230)]  ->  "-a-(b|)"
    ///
    /// - Throws: ``MarbleDrawingError`` when an event's distance from `origin` overflows `Int`, or
    ///   when the drawing would be wider than `maximumDrawnFrames` (an event at time 10^12 with
    ///   10 ticks per frame, say).
    public static func string<Element: Equatable>(
        from events: [Recorded<Event<Element>>],
        values: [Character: Element] = [:],
        frameSize: TestTime = defaultFrameSize,
        origin: TestTime = TestScheduler.Defaults.subscribed
    ) throws(MarbleDrawingError) -> String {
        try drawing(of: events, values: values, frameSize: max(frameSize, 1), origin: origin).text
    }

    /// Compares recorded events with a marble string and explains the difference.
    ///
    /// Events must match exactly (times included), after parsing `expected` with `values`,
    /// `error`, `frameSize` and `origin`. Usable from Swift Testing:
    /// `#expect(Marbles.mismatch(res.events, "--a--|", values: v) == nil)`.
    ///
    /// - Returns: `nil` when they match; otherwise a readable report with the expected and actual
    ///   marble strings, a caret under the first differing frame, and the first differing event.
    ///   Events that cannot be drawn (see `string(from:values:frameSize:origin:)`) are reported
    ///   with the reason in place of their marbles.
    public static func mismatch<Element: Equatable>(
        _ actual: [Recorded<Event<Element>>],
        _ expected: String,
        values: [Character: Element] = [:],
        error: Swift.Error = MarbleError(),
        frameSize: TestTime = defaultFrameSize,
        origin: TestTime = TestScheduler.Defaults.subscribed
    ) -> String? {
        guard frameSize > 0 else { return "invalid marble frame size \(frameSize): it must be positive" }
        let expectedEvents: [Recorded<Event<Element>>]
        do {
            expectedEvents = try MarbleDiagram(expected).recordedEvents(values: values, error: error, frameSize: frameSize, origin: origin)
        } catch {
            return "invalid expected marbles: \(error)"
        }
        if actual == expectedEvents { return nil }

        let expectedDrawing = Result { () throws(MarbleDrawingError) in try drawing(of: expectedEvents, values: values, frameSize: frameSize, origin: origin) }
        let actualDrawing = Result { () throws(MarbleDrawingError) in try drawing(of: actual, values: values, frameSize: frameSize, origin: origin) }
        func text(_ drawing: Result<MarbleDrawing, MarbleDrawingError>) -> String {
            switch drawing {
            case .success(let drawing): return drawing.text
            case .failure(let error): return "(not drawn: \(error))"
            }
        }
        var lines = ["events do not match \"\(expected)\" (frame = \(frameSize) ticks, frame 0 = time \(origin))"]
        lines.append("  expected: \(text(expectedDrawing))")
        lines.append("  actual:   \(text(actualDrawing))")
        if case .success(let expectedDrawing) = expectedDrawing, case .success(let actualDrawing) = actualDrawing,
            let column = firstDifference(expectedDrawing.text, actualDrawing.text)
        {
            lines.append("            " + String(repeating: " ", count: column) + "^")
        }
        lines.append("  " + describeFirstDifference(expected: expectedEvents, actual: actual))
        switch actualDrawing {
        case .success(let actualDrawing):
            if !actualDrawing.legend.isEmpty {
                let legend = actualDrawing.legend.map { "\($0.character) = \($0.value)" }.joined(separator: ", ")
                lines.append("  legend (values not in `values:`): \(legend)")
            }
            if !actualDrawing.isExact {
                lines.append("  note: some actual events are off the frame grid or overlap a group, so the actual marbles are approximate")
                lines.append("  actual events: \(actual.map { String(reflecting: $0) })")
            }
        case .failure:
            lines.append("  actual events: \(actual.map { String(reflecting: $0) })")
        }
        return lines.joined(separator: "\n")
    }

    static func drawing<Element: Equatable>(
        of events: [Recorded<Event<Element>>],
        values: [Character: Element],
        frameSize: TestTime,
        origin: TestTime,
        asciiOnly: Bool = false
    ) throws(MarbleDrawingError) -> MarbleDrawing {
        let keyed = values.sorted { $0.key < $1.key }
        var drawing = MarbleDrawing(text: "")
        var invented: [(value: Element, character: Character)] = []
        var spare = inventedCharacters.filter { values[$0] == nil }.makeIterator()

        func symbol(for element: Element) -> Character {
            if let key = keyed.first(where: { $0.value == element })?.key { return key }
            if let text = (element as? String) ?? (element as? Character).map(String.init),
                text.count == 1, let character = text.first,
                !reserved.contains(character), !character.isWhitespace, values[character] == nil,
                !asciiOnly || character.isASCII
            {
                return character
            }
            if let known = invented.first(where: { $0.value == element }) { return known.character }
            let character = spare.next() ?? "?"
            invented.append((element, character))
            drawing.legend.append((character, String(reflecting: element)))
            return character
        }

        // Group consecutive events that fall in the same frame.
        // Frames are found with overflow-checked arithmetic, and the width is checked before
        // anything is drawn.
        var groups: [(frame: Int, symbols: [Character])] = []
        var firstFrame = 0, lastFrame = 0
        for (index, recorded) in events.enumerated() {
            let (offset, overflow) = recorded.time.subtractingReportingOverflow(origin)
            if overflow { throw MarbleDrawingError(.timeOutOfRange(index: index, time: recorded.time, origin: origin)) }
            // Floor division (`frameSize` is positive, so neither operation can overflow).
            let remainder = offset % frameSize
            let frame = offset / frameSize - (remainder < 0 ? 1 : 0)
            if remainder != 0 { drawing.isExact = false }
            firstFrame = min(firstFrame, frame)
            lastFrame = max(lastFrame, frame)
            let character: Character
            switch recorded.value {
            case .next(let element): character = symbol(for: element)
            case .error: character = "#"
            case .completed: character = "|"
            }
            if let last = groups.last, last.frame == frame {
                groups[groups.count - 1].symbols.append(character)
            } else {
                groups.append((frame, [character]))
            }
        }

        let (span, spanOverflow) = lastFrame.subtractingReportingOverflow(firstFrame)
        if spanOverflow || span >= maximumDrawnFrames {
            let frames = spanOverflow || span == .max ? Int.max : span + 1
            throw MarbleDrawingError(.tooWide(frames: frames, firstFrame: firstFrame, lastFrame: lastFrame, limit: maximumDrawnFrames))
        }

        let needsCaret = (groups.first?.frame ?? 0) < 0
        var cursor = min(0, groups.first?.frame ?? 0)
        var caretPlaced = !needsCaret

        // The characters appended: fewer in the text means two of them merged into one
        // grapheme (a lone combining mark after a value, a second regional indicator, ...).
        var appended = 0
        func move(to frame: Int) {
            if frame < cursor {
                drawing.isExact = false
            } else {
                drawing.text += String(repeating: "-", count: frame - cursor)
                appended += frame - cursor
                cursor = frame
            }
        }
        func placeCaret() {
            move(to: 0)
            drawing.text.append("^")
            appended += 1
            cursor += 1
            caretPlaced = true
        }

        for group in groups {
            if !caretPlaced, group.frame >= 0 { placeCaret() }
            move(to: group.frame)
            if group.symbols.count == 1 {
                drawing.text.append(group.symbols[0])
                cursor += 1
                appended += 1
            } else {
                drawing.text += "(" + String(group.symbols) + ")"
                cursor += group.symbols.count + 2
                appended += group.symbols.count + 2
            }
        }
        if !caretPlaced { placeCaret() }
        if drawing.text.count != appended && !asciiOnly {
            // A value drawn as itself merged with its neighbour and would read back as another
            // value: draw again with invented characters for every value that is not ASCII
            // (ASCII characters that are not whitespace never merge).
            return try Self.drawing(of: events, values: values, frameSize: frameSize, origin: origin, asciiOnly: true)
        }
        return drawing
    }

    /// Characters handed out for values that have no key in `values:`.
    private static let inventedCharacters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    /// The first character offset where the two strings differ, or `nil` if they are equal.
    private static func firstDifference(_ lhs: String, _ rhs: String) -> Int? {
        if lhs == rhs { return nil }
        let left = Array(lhs), right = Array(rhs)
        for index in 0..<min(left.count, right.count) where left[index] != right[index] {
            return index
        }
        return min(left.count, right.count)
    }

    private static func describeFirstDifference<Element: Equatable>(
        expected: [Recorded<Event<Element>>],
        actual: [Recorded<Event<Element>>]
    ) -> String {
        for index in 0..<min(expected.count, actual.count) where expected[index] != actual[index] {
            return "first difference at event \(index): expected \(String(reflecting: expected[index])), actual \(String(reflecting: actual[index]))"
        }
        if expected.count > actual.count {
            return "missing events from index \(actual.count): \(expected[actual.count...].map { String(reflecting: $0) })"
        }
        return "unexpected extra events from index \(expected.count): \(actual[expected.count...].map { String(reflecting: $0) })"
    }
}

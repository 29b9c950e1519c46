/// A parsed marble string: which token happens in which frame.
///
/// Grammar (as RxJS):
///
///     -      one frame passes
///     |      completed (takes one frame)
///     #      error (takes one frame)
///     (ab)   a group: everything inside happens in the frame of `(`; the group takes as many
///            frames as it has characters, parentheses included (`(ab)` is 4 frames)
///     ^      subscription point of a hot observable: frame 0 (takes one frame)
///     space  ignored (use it to align diagrams)
///     other  one value, looked up in `values:`
///
/// Frames count from the `^` if there is one (earlier tokens get negative frames), otherwise from
/// the first character. Parsing is pure: no scheduler, no element type. See <doc:Testing>.
public struct MarbleDiagram: Equatable, Sendable {
    /// What happens at one point of a marble diagram.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum Token: Equatable, Hashable, Sendable {
        /// A `next` event whose value is named by the character.
        case value(Character)
        /// `|`: the sequence completes.
        case completed
        /// `#`: the sequence fails.
        case error
    }

    /// One token with its frame (relative to `^`, or to the first character) and its position
    /// (character offset in the source string, for error messages).
    public struct Entry: Equatable, Hashable, Sendable {
        /// The frame, relative to marble time 0.
        public let frame: Int
        /// The token.
        public let token: Token
        /// The character offset of the token in the marble string.
        public let position: Int

        /// Creates an entry.
        public init(frame: Int, token: Token, position: Int) {
            self.frame = frame
            self.token = token
            self.position = position
        }
    }

    /// The source string.
    public let marbles: String
    /// The tokens in order of appearance.
    public let entries: [Entry]
    /// The character offset of `^`, if the diagram has one.
    public let subscriptionPosition: Int?

    /// Parses `marbles` (pure; throws a ``MarbleSyntaxError`` naming the bad position).
    ///
    /// - Throws: ``MarbleSyntaxError`` for an unbalanced or nested group, a second `^`, a `^` or
    ///   `-` inside a group, or any event after `|` / `#`.
    public init(_ marbles: String) throws(MarbleSyntaxError) {
        var frame = 0
        var groupStart: (frame: Int, position: Int)?
        var subscription: (frame: Int, position: Int)?
        var terminated = false
        var entries: [Entry] = []

        func fail(_ kind: MarbleSyntaxError.Kind, _ position: Int) -> MarbleSyntaxError {
            MarbleSyntaxError(kind, marbles: marbles, position: position)
        }

        for (position, character) in marbles.enumerated() {
            switch character {
            case _ where character.isWhitespace:
                continue
            case "-":
                if groupStart != nil { throw fail(.misplacedInGroup("-"), position) }
                frame += 1
            case "(":
                if groupStart != nil { throw fail(.nestedGroup, position) }
                groupStart = (frame, position)
                frame += 1
            case ")":
                if groupStart == nil { throw fail(.unopenedGroup, position) }
                groupStart = nil
                frame += 1
            case "^":
                if groupStart != nil { throw fail(.misplacedInGroup("^"), position) }
                if subscription != nil { throw fail(.duplicateSubscriptionMarker, position) }
                subscription = (frame, position)
                frame += 1
            default:
                if terminated { throw fail(.eventAfterTermination, position) }
                let token: Token
                switch character {
                case "|": token = .completed; terminated = true
                case "#": token = .error; terminated = true
                default: token = .value(character)
                }
                entries.append(Entry(frame: groupStart?.frame ?? frame, token: token, position: position))
                frame += 1
            }
        }
        if let groupStart { throw fail(.unclosedGroup, groupStart.position) }

        let origin = subscription?.frame ?? 0
        self.marbles = marbles
        self.entries = entries.map { Entry(frame: $0.frame - origin, token: $0.token, position: $0.position) }
        self.subscriptionPosition = subscription?.position
    }

    /// Turns the diagram into recorded events: frame `f` is at `origin + f * frameSize`.
    ///
    /// A value character is looked up in `values`; if it is absent and `Element` is `String` or
    /// `Character`, the character itself is the value. The arithmetic is overflow-checked: a time
    /// that ``TestTime`` (`Int`) cannot hold is an error, not a trap.
    ///
    /// - Throws: ``MarbleSyntaxError`` with kind `.unknownValue` for a character with no value,
    ///   `.invalidFrameSize` for a `frameSize` below 1, `.timeOutOfRange` when
    ///   `origin + f * frameSize` overflows `Int`.
    public func recordedEvents<Element>(
        values: [Character: Element] = [:],
        error: Swift.Error = MarbleError(),
        frameSize: TestTime = TestScheduler.Defaults.frameSize,
        origin: TestTime = 0
    ) throws(MarbleSyntaxError) -> [Recorded<Event<Element>>] {
        guard frameSize > 0 else { throw MarbleSyntaxError(.invalidFrameSize(frameSize), marbles: marbles, position: 0) }
        var events: [Recorded<Event<Element>>] = []
        events.reserveCapacity(entries.count)
        for entry in entries {
            let (offset, offsetOverflow) = entry.frame.multipliedReportingOverflow(by: frameSize)
            let (time, timeOverflow) = origin.addingReportingOverflow(offset)
            if offsetOverflow || timeOverflow {
                throw MarbleSyntaxError(.timeOutOfRange(frame: entry.frame, frameSize: frameSize, origin: origin), marbles: marbles, position: entry.position)
            }
            switch entry.token {
            case .completed:
                events.append(Recorded(time: time, value: .completed))
            case .error:
                events.append(Recorded(time: time, value: .error(error)))
            case .value(let character):
                guard let value = values[character] ?? Marbles.implicitValue(character, as: Element.self) else {
                    throw MarbleSyntaxError(.unknownValue(character), marbles: marbles, position: entry.position)
                }
                events.append(Recorded(time: time, value: .next(value)))
            }
        }
        return events
    }
}

/// A marble string that cannot be parsed, with the offending position.
///
/// Its `description` shows the string with a caret under the position:
///
///     marble syntax error: event after the terminal event `|` or `#` at position 6
///       --a--|b
///             ^
public struct MarbleSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    ///
    /// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
    public enum Kind: Equatable, Sendable {
        /// `(` without a matching `)`.
        case unclosedGroup
        /// `)` without a matching `(`.
        case unopenedGroup
        /// `(` inside a group.
        case nestedGroup
        /// A second `^`.
        case duplicateSubscriptionMarker
        /// `^` in a cold observable's marbles (cold observables start at their subscription).
        case subscriptionMarkerInColdObservable
        /// `-` or `^` inside a group.
        case misplacedInGroup(Character)
        /// A value, `|` or `#` after the sequence already ended.
        case eventAfterTermination
        /// A value character missing from `values:` (and the element type is not `String`).
        case unknownValue(Character)
        /// A frame size below 1 passed to `recordedEvents` (one frame must be at least one tick).
        case invalidFrameSize(TestTime)
        /// The token's time, `origin + frame * frameSize`, does not fit in ``TestTime`` (`Int`).
        case timeOutOfRange(frame: Int, frameSize: TestTime, origin: TestTime)
    }

    /// What is wrong.
    public let kind: Kind
    /// The marble string.
    public let marbles: String
    /// The character offset of the problem.
    public let position: Int

    /// Creates an error for `marbles` at `position`.
    public init(_ kind: Kind, marbles: String, position: Int) {
        self.kind = kind
        self.marbles = marbles
        self.position = position
    }

    /// The problem, the string, and a caret under the position.
    public var description: String {
        let reason: String
        switch kind {
        case .unclosedGroup: reason = "group `(` is never closed"
        case .unopenedGroup: reason = "`)` without a matching `(`"
        case .nestedGroup: reason = "groups cannot be nested"
        case .duplicateSubscriptionMarker: reason = "more than one subscription marker `^`"
        case .subscriptionMarkerInColdObservable: reason = "cold observables cannot have a subscription marker `^`"
        case .misplacedInGroup(let character): reason = "`\(character)` is not allowed inside a group"
        case .eventAfterTermination: reason = "event after the terminal event `|` or `#`"
        case .unknownValue(let character): reason = "no value for `\(character)` in `values:`"
        case .invalidFrameSize(let frameSize): reason = "frame size \(frameSize) is not positive"
        case .timeOutOfRange(let frame, let frameSize, let origin):
            reason = "the time of frame \(frame) (\(origin) + \(frame) * \(frameSize) ticks) overflows TestTime (Int)"
        }
        let caret = String(repeating: " ", count: position) + "^"
        return "marble syntax error: \(reason) at position \(position)\n  \(marbles)\n  \(caret)"
    }
}

/// The error a `#` stands for when no `error:` is given.
public struct MarbleError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A short text that identifies the error.
    public let message: String

    /// Creates an error with `message` (`"error"` by default, as in RxJS).
    public init(_ message: String = "error") {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Pure marble helpers: parsing and drawing, independent of any scheduler.
public enum Marbles {
    /// Ticks per frame unless told otherwise (10).
    public static let defaultFrameSize: TestTime = TestScheduler.Defaults.frameSize

    /// Parses `marbles` into a diagram (same as `MarbleDiagram(marbles)`).
    public static func parse(_ marbles: String) throws(MarbleSyntaxError) -> MarbleDiagram {
        try MarbleDiagram(marbles)
    }

    /// Characters with a meaning of their own; they can never name a value.
    static let reserved: Set<Character> = ["-", "|", "#", "(", ")", "^"]

    /// The value a character stands for when it has no entry in `values:`: the character itself
    /// if the element type is `String` or `Character`, else `nil`.
    static func implicitValue<Element>(_ character: Character, as type: Element.Type) -> Element? {
        if let value = String(character) as? Element { return value }
        if let value = character as? Element { return value }
        return nil
    }
}

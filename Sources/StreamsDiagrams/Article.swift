import Foundation
import Streams
import StreamsTest

/// An article's text, read so a test can compare what it states with what the code does.
///
/// The articles' virtual-time examples are checked by tests that read them (the tests under
/// `Tests/*/Articles/`): a test runs the example on a `TestScheduler`, then compares the result
/// with the article's timeline, its RxTest event list, its sentence, or its code block. Editing the
/// article or the code without the other fails the test.
///
/// - A timeline lane (`isLoading:  f-t----f`, one column per tick): ``timeline(containing:)``
///   then ``Timeline/tokens(_:)``, compared with ``ArticleToken/tokens(of:origin:ticksPerColumn:describe:)``.
/// - An event list (`isLoading: [.next(0, false), .next(10, true)]`): ``eventList(_:in:)``,
///   compared with ``ArticleToken/eventList(_:describe:)``.
/// - A sentence (`a publish at 300 → update delivered 303`): ``says(_:)`` with the numbers
///   interpolated from the run.
/// - A Swift snippet: ``codeBlock(containing:)`` compared, ignoring whitespace, with the lines
///   between `// article:begin` and `// article:end` in the test that runs them (``testSnippet(in:)``).
public struct Article: Sendable {
    /// The article's path relative to the package root.
    public let path: String
    /// The article's lines.
    public let lines: [String]

    /// Why an article, or a part of it, could not be read.
    public struct ReadError: Error, CustomStringConvertible {
        /// What is missing, and where.
        public var description: String
    }

    /// Reads `path` (relative to the package root found from `testFile`, a `#filePath` under `Tests/<Target>/`).
    public init(_ path: String, testFile: String) throws(ReadError) {
        try self.init(path, root: Article.packageRoot(from: testFile))
    }

    /// Reads `path` relative to `root`.
    public init(_ path: String, root: URL) throws(ReadError) {
        let text: String
        do {
            text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        } catch {
            throw ReadError(description: "cannot read \(path): \(error)")
        }
        self.path = path
        lines = text.components(separatedBy: "\n")
    }

    /// The package root: the folder above `Tests/` in `testFile`'s path.
    public static func packageRoot(from testFile: String) -> URL {
        var url = URL(fileURLWithPath: testFile)
        while url.pathComponents.count > 1, url.lastPathComponent != "Tests" { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent()
    }

    /// Whether the article contains `phrase`, with every run of whitespace (line breaks included)
    /// read as one space.
    public func says(_ phrase: String) -> Bool {
        Article.normalized(lines.joined(separator: "\n")).contains(Article.normalized(phrase))
    }

    /// The code block (fenced, or indented by four spaces) that contains a line containing `anchor`.
    public func codeBlock(containing anchor: String) throws(ReadError) -> [String] {
        var blocks: [[String]] = []
        var fenced: [String]?
        var indented: [String] = []
        func closeIndented() {
            if !indented.isEmpty { blocks.append(indented) }
            indented = []
        }
        for line in lines {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                if let block = fenced {
                    blocks.append(block)
                    fenced = nil
                } else {
                    closeIndented()
                    fenced = []
                }
                continue
            }
            if fenced != nil {
                fenced?.append(line)
            } else if line.hasPrefix("    "), !trimmed.hasPrefix("- "), !trimmed.hasPrefix("|") {
                indented.append(line)
            } else {
                closeIndented()
            }
        }
        closeIndented()
        let matching = blocks.filter { block in block.contains { $0.contains(anchor) } }
        guard matching.count == 1 else {
            throw ReadError(description: "\(path): \(matching.count) code blocks contain \"\(anchor)\" (expected 1)")
        }
        return matching[0]
    }

    /// The timeline (a code block of `label: marbles` lanes) that contains a line containing `anchor`.
    public func timeline(containing anchor: String) throws(ReadError) -> Timeline {
        let block = try codeBlock(containing: anchor)
        let start = block.firstIndex { $0.contains(anchor) } ?? 0
        return Timeline(article: path, lines: Array(block[start...]))
    }

    /// The text after `label:` on the line of the block containing `anchor` that starts with `label:`:
    /// `[.next(0, false), .next(10, true)]` for `isLoading: [.next(0, false), .next(10, true)]`.
    public func eventList(_ label: String, in anchor: String) throws(ReadError) -> String {
        let block = try codeBlock(containing: anchor)
        for line in block {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix(label + ":") {
                return Article.normalized(String(trimmed.dropFirst(label.count + 1)))
            }
        }
        throw ReadError(description: "\(path): no line \"\(label):\" in the block containing \"\(anchor)\"")
    }

    /// The lanes of an indented or fenced block whose lines may draw several examples side by side
    /// (`source: --a--|      ---|`): for each line `label: marbles  marbles …  (remark)`, the
    /// label and each run of marbles (no spaces inside) with its column, counted from the leftmost
    /// marble of the block. A label may hold parentheses with colons (`asInfallible(onErrorJustReturn: 9):`).
    public static func lanes(of block: [String]) -> [(label: String, segments: [(column: Int, marbles: String)])] {
        var found: [(label: String, segments: [(column: Int, marbles: String)])] = []
        for line in block {
            let characters = Array(line)
            var depth = 0
            var colon: Int?
            for (index, character) in characters.enumerated() {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                if character == ":", depth == 0, index + 1 < characters.count, characters[index + 1] == " " {
                    colon = index
                    break
                }
            }
            guard let colon else { continue }
            let label = String(characters[..<colon]).trimmingCharacters(in: .whitespaces)
            guard let first = label.first, first.isLetter else { continue }
            var segments: [(column: Int, marbles: String)] = []
            var index = colon + 1
            while index < characters.count {
                while index < characters.count, characters[index] == " " { index += 1 }
                let start = index
                // A run ends at two spaces; a run with a single space inside is a remark.
                while index < characters.count, !(characters[index] == " " && (index + 1 == characters.count || characters[index + 1] == " ")) {
                    index += 1
                }
                let run = String(characters[start..<index])
                if !run.isEmpty, !run.contains(" ") { segments.append((start, run)) }
            }
            found.append((label, segments))
        }
        let origin = found.compactMap { $0.segments.first?.column }.min() ?? 0
        return found.map { lane in (lane.label, lane.segments.map { ($0.column - origin, $0.marbles) }) }
    }

    /// The lines between `// article:begin` and `// article:end` in `testFile` (a `#filePath`), the
    /// test's copy of an article snippet.
    public static func testSnippet(in testFile: String, named name: String) throws(ReadError) -> [String] {
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: testFile), encoding: .utf8)
        } catch {
            throw ReadError(description: "cannot read \(testFile): \(error)")
        }
        let lines = text.components(separatedBy: "\n")
        guard let begin = lines.firstIndex(where: { $0.contains("// article:begin \(name)") }),
            let end = lines[begin...].firstIndex(where: { $0.contains("// article:end \(name)") })
        else { throw ReadError(description: "\(testFile): no // article:begin \(name) ... // article:end \(name)") }
        return Array(lines[(begin + 1)..<end])
    }

    /// The events of an RxTest event list as an article writes it (`[.next(0, 1), .completed(10)]`,
    /// with or without the dots): `next(time, value)` with `value` read by `element`,
    /// `completed(time)`, and `error(time, …)` as `error`.
    public static func recordedEvents<Element>(
        _ list: String, error: any Error = MarbleError(), element: (String) -> Element?
    ) throws(ReadError) -> [Recorded<Event<Element>>] {
        var events: [Recorded<Event<Element>>] = []
        for match in list.matches(of: /(next|completed|error)\((-?\d+)(?:,\s*([^)]*))?\)/) {
            guard let time = TestTime(match.2) else { throw ReadError(description: "bad time in \(match.0)") }
            switch match.1 {
            case "next":
                guard let text = match.3, let value = element(String(text).trimmingCharacters(in: .whitespaces)) else {
                    throw ReadError(description: "cannot read the value of \(match.0)")
                }
                events.append(.next(time, value))
            case "completed": events.append(.completed(time))
            default: events.append(.error(time, error))
            }
        }
        return events
    }

    /// Code with every whitespace character removed, to compare an article snippet with the test's
    /// copy whatever the line breaks and indentation.
    public static func compact(_ lines: [String]) -> String {
        String(lines.joined().filter { !$0.isWhitespace })
    }

    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// A timeline in an article: lanes `label:  marbles    remark`, one column per tick (or per
/// `ticksPerColumn`), time 0 at the leftmost lane's first marble.
public struct Timeline: Sendable {
    /// The article it comes from.
    public let article: String
    /// The lanes, top to bottom: label, marbles, and the column where the marbles start.
    public let lanes: [(label: String, marbles: String, column: Int)]

    init(article: String, lines: [String]) {
        self.article = article
        var lanes: [(label: String, marbles: String, column: Int)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                if !lanes.isEmpty { break } else { continue }
            }
            let label = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard let first = label.first, first.isLetter, label.allSatisfy({ $0.isLetter || $0.isNumber || ". ()".contains($0) }) else {
                if !lanes.isEmpty { break } else { continue }
            }
            let after = line[line.index(after: colon)...]
            let leading = after.prefix { $0 == " " }.count
            let body = after.dropFirst(leading)
            // The marbles end at the first run of two spaces (the remark follows).
            let marbles = body.range(of: "  ").map { String(body[..<$0.lowerBound]) } ?? String(body)
            lanes.append((label, marbles, line.distance(from: line.startIndex, to: colon) + 1 + leading))
        }
        self.lanes = lanes
    }

    /// The column of time 0: the leftmost lane's first marble.
    public var originColumn: Int { lanes.map(\.column).min() ?? 0 }

    /// The events drawn on lane `label`, each at the tick of its first column: a character other
    /// than `-` and space, or a group `(…)`, `[…]` or `{…}` (`(s|)`, `[1,2]`, `{b,c}`).
    public func tokens(_ label: String, ticksPerColumn: Int = 1) throws(Article.ReadError) -> [ArticleToken] {
        guard let lane = lanes.first(where: { $0.label == label }) else {
            throw Article.ReadError(description: "\(article): no lane \"\(label):\" in the timeline (lanes: \(lanes.map(\.label)))")
        }
        return ArticleToken.tokens(lane.marbles, column: lane.column - originColumn, ticksPerColumn: ticksPerColumn)
    }
}

/// One event as an article draws it: its text at its virtual time.
public struct ArticleToken: Equatable, Sendable, CustomStringConvertible {
    /// The virtual time.
    public var time: TestTime
    /// The drawing: `t`, `[1,2]`, `|`, `(s|)` for events at the same time.
    public var text: String

    /// Creates a token.
    public init(time: TestTime, text: String) {
        self.time = time
        self.text = text
    }

    /// The events drawn by `marbles` starting at `column` (time `column * ticksPerColumn`): each
    /// character other than `-` and space, or group `(…)`, `[…]` or `{…}`, at the tick of its
    /// first column.
    public static func tokens(_ marbles: String, column: Int = 0, ticksPerColumn: Int = 1) -> [ArticleToken] {
        var tokens: [ArticleToken] = []
        let characters = Array(marbles)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "-" || character == " " {
                index += 1
                continue
            }
            var end = index + 1
            if character == "(" {
                while end < characters.count, characters[end - 1] != ")" { end += 1 }
            } else if character == "[" || character == "{" {
                let close: Character = character == "[" ? "]" : "}"
                var depth = 1
                while end < characters.count, depth > 0 {
                    if characters[end] == character { depth += 1 }
                    if characters[end] == close { depth -= 1 }
                    end += 1
                }
            }
            tokens.append(ArticleToken(time: TestTime((column + index) * ticksPerColumn), text: String(characters[index..<end])))
            index = end
        }
        return tokens
    }

    /// The events a lane draws, to play them: `|` completes, `#` fails with `error`, a `(…)` group
    /// is each of its characters at the group's time, any other token is a `next` of its text.
    public static func recordedEvents(_ tokens: [ArticleToken], error: any Error = MarbleError()) -> [Recorded<Event<String>>] {
        func event(_ text: String, at time: TestTime) -> Recorded<Event<String>> {
            switch text {
            case "|": .completed(time)
            case "#": .error(time, error)
            default: .next(time, text)
            }
        }
        return tokens.flatMap { token -> [Recorded<Event<String>>] in
            guard token.text.hasPrefix("("), token.text.hasSuffix(")") else { return [event(token.text, at: token.time)] }
            return token.text.dropFirst().dropLast().map { event(String($0), at: token.time) }
        }
    }

    /// `text@time`.
    public var description: String { "\(text)@\(time)" }

    /// Draws recorded events as an article's timeline does: each element with `describe`, `|` for
    /// completion, `#` for an error; events at the same time as one `(…)` group; times relative to
    /// `origin`, divided by `ticksPerColumn`.
    public static func tokens<Element>(
        of events: [Recorded<Event<Element>>], origin: TestTime = 0, ticksPerColumn: TestTime = 1, describe: (Element) -> String
    ) -> [ArticleToken] {
        var tokens: [ArticleToken] = []
        var times: [TestTime] = []
        var texts: [[String]] = []
        for recorded in events {
            let text: String
            switch recorded.value {
            case .next(let element): text = describe(element)
            case .completed: text = "|"
            case .error: text = "#"
            }
            if times.last == recorded.time {
                texts[texts.count - 1].append(text)
            } else {
                times.append(recorded.time)
                texts.append([text])
            }
        }
        for (time, group) in zip(times, texts) {
            let text = group.count == 1 ? group[0] : "(" + group.joined() + ")"
            tokens.append(ArticleToken(time: (time - origin) / ticksPerColumn, text: text))
        }
        return tokens
    }

    /// Writes recorded events as RxTest's literal: `[.next(0, false), .next(10, true), .completed(20)]`.
    public static func eventList<Element>(_ events: [Recorded<Event<Element>>], describe: (Element) -> String) -> String {
        let items = events.map { recorded -> String in
            switch recorded.value {
            case .next(let element): ".next(\(recorded.time), \(describe(element)))"
            case .completed: ".completed(\(recorded.time))"
            case .error(let error): ".error(\(recorded.time), \(error))"
            }
        }
        return "[" + items.joined(separator: ", ") + "]"
    }
}

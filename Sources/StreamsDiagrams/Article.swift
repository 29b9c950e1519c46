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
        var tokens: [ArticleToken] = []
        let characters = Array(lane.marbles)
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
            let column = lane.column - originColumn + index
            tokens.append(ArticleToken(time: TestTime(column * ticksPerColumn), text: String(characters[index..<end])))
            index = end
        }
        return tokens
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

// Lines of generated Swift, and the few layout rules of swift-format (as configured in
// `.swift-format`) that the templates need: a line of at most `lineLength` columns, lists filled
// greedily, closures broken after `in` or after `{`.

/// `.swift-format`'s `lineLength`.
let lineLength = 160

/// The indentation of one level (`.swift-format`'s `indentation`).
let indentWidth = 4

/// Whether `text` fits on one line that starts at column `indent`.
func fits(_ text: String, at indent: Int) -> Bool {
    indent + text.count <= lineLength
}

/// A generated file's text, built line by line.
struct Code {
    private(set) var lines: [String] = []

    /// One line at `indent` (an empty `text` gives an empty line, without trailing spaces).
    mutating func line(_ text: String, at indent: Int) {
        lines.append(text.isEmpty ? "" : String(repeating: " ", count: indent) + text)
    }

    /// Several lines, all at `indent`.
    mutating func lines(_ texts: [String], at indent: Int) {
        for text in texts { line(text, at: indent) }
    }

    mutating func blank() {
        lines.append("")
    }

    /// Lines already indented (from another `Code`).
    mutating func append(_ other: Code) {
        lines += other.lines
    }

    /// `texts` as a `///` comment at `indent`, a line each; an empty string is an empty comment line.
    mutating func doc(_ texts: [String], at indent: Int) {
        for text in texts { line(text.isEmpty ? "///" : "/// " + text, at: indent) }
    }

    /// Line comments at column 0.
    mutating func comment(_ texts: [String]) {
        for text in texts { line("// " + text, at: 0) }
    }

    /// The file's text: the lines, each ended by a newline.
    var text: String { lines.map { $0 + "\n" }.joined() }
}

// MARK: - Lists

/// `1...n`, mapped: the usual way a template spells one thing per source.
func each(_ arity: Int, _ transform: (Int) -> String) -> [String] {
    (1...arity).map(transform)
}

/// `a, b, c`.
func commaList(_ items: [String]) -> String {
    items.joined(separator: ", ")
}

/// `(a, b, c)`: a tuple type or a tuple expression.
func tuple(_ items: [String]) -> String {
    "(" + commaList(items) + ")"
}

/// `items`, comma-separated, filled greedily into lines that start at `indent`: an item goes on
/// the current line if it fits there with its comma, else it starts a new line. The last item is
/// followed by `end` instead of a comma (`end` must stay on its line, as `))` does). This is how
/// swift-format lays out a list it has to break (`lineBreakBeforeEachArgument: false`).
func filled(_ items: [String], at indent: Int, end: String = "") -> [String] {
    var lines: [String] = []
    var current = ""
    for (index, item) in items.enumerated() {
        let piece = item + (index == items.count - 1 ? end : ",")
        if current.isEmpty {
            current = piece
        } else if fits(current + " " + piece, at: indent) {
            current += " " + piece
        } else {
            lines.append(current)
            current = piece
        }
    }
    lines.append(current)
    return lines
}

// MARK: - Closures

/// A closure `{ signature in body }` (`signature` may be empty: `{ body }`).
struct Closure {
    var signature: String
    /// One expression, or several statements (which always go on lines of their own).
    var body: [String]
    /// The body's lines when it goes on lines of its own starting at the given column, relative to
    /// that column (for a body that breaks when it is too long there); by default `body`.
    var brokenBody: (Int) -> [String]

    init(_ signature: String = "", _ body: [String]) {
        self.signature = signature
        self.body = body
        brokenBody = { _ in body }
    }

    init(_ signature: String = "", _ body: String, brokenBody: ((Int) -> [String])? = nil) {
        self.init(signature, [body])
        if let brokenBody { self.brokenBody = brokenBody }
    }

    private var opening: String { signature.isEmpty ? "{" : "{ \(signature) in" }

    /// On one line, if the body is a single expression.
    var oneLine: String? {
        body.count == 1 ? opening + " " + body[0] + " }" : nil
    }

    /// `prefix` then the closure then `suffix`, starting at `indent`, laid out as swift-format
    /// does: all on one line if it fits; else broken after `in` (the body one level in); else,
    /// when even `prefix{ signature in` is too long, broken after `{` too, the signature one
    /// level in and the body after it if it fits there.
    func lines(prefix: String, suffix: String, at indent: Int) -> [String] {
        if let oneLine, fits(prefix + oneLine + suffix, at: indent) { return [prefix + oneLine + suffix] }
        let inner = String(repeating: " ", count: indentWidth)
        if signature.isEmpty || fits(prefix + opening, at: indent) {
            return [prefix + opening] + brokenBody(indent + indentWidth).map { inner + $0 } + ["}" + suffix]
        }
        let head: [String]
        if body.count == 1, fits("\(signature) in \(body[0])", at: indent + indentWidth) {
            head = ["\(signature) in \(body[0])"]
        } else {
            head = ["\(signature) in"] + brokenBody(indent + indentWidth)
        }
        return [prefix + "{"] + head.map { inner + $0 } + ["}" + suffix]
    }
}

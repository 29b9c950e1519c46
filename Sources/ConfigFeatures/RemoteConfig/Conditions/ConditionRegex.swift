/// A regular expression for the `matches` operator, run by a Thompson NFA (a Pike VM without
/// captures), so matching takes time linear in the input for a given pattern: no pattern can
/// make a fetch hang, as RE2 (which Firebase uses) guarantees.
///
/// The syntax is RE2's common subset: literals, `.`, `[…]`/`[^…]` classes with ranges, `\d \D
/// \w \W \s \S` and escaped punctuation, `^` and `$` (the text's start and end), `( … )`,
/// `(?: … )`, `|`, and the quantifiers `* + ?` and `{n}`, `{n,}`, `{n,m}` (a lazy `?` suffix
/// is accepted: it does not change whether the text matches). A pattern matches when it matches
/// part of the value (use `^…$` for the whole value). Anything else (backreferences,
/// lookaround, named classes, flags) is refused when the template is published.
struct ConditionRegex: Sendable {
    struct SyntaxError: Error {
        var message: String
    }

    /// The longest pattern accepted, in characters.
    static let maximumPatternLength = 1_000
    /// The largest compiled program (repetitions are expanded).
    static let maximumProgramSize = 20_000
    /// The largest `{n,m}` bound.
    static let maximumRepeat = 1_000

    private struct ClassItem {
        enum Kind {
            case scalar(Unicode.Scalar)
            case range(Unicode.Scalar, Unicode.Scalar)
            case digit, word, space
            case notDigit, notWord, notSpace
        }
        var kind: Kind

        func matches(_ scalar: Unicode.Scalar) -> Bool {
            switch kind {
            case .scalar(let value): return scalar == value
            case .range(let low, let high): return scalar >= low && scalar <= high
            case .digit: return ConditionRegex.isDigit(scalar)
            case .word: return ConditionRegex.isWord(scalar)
            case .space: return ConditionRegex.isSpace(scalar)
            case .notDigit: return !ConditionRegex.isDigit(scalar)
            case .notWord: return !ConditionRegex.isWord(scalar)
            case .notSpace: return !ConditionRegex.isSpace(scalar)
            }
        }
    }

    private struct Matcher {
        var items: [ClassItem]
        var negated: Bool
        func matches(_ scalar: Unicode.Scalar) -> Bool { items.contains { $0.matches(scalar) } != negated }
    }

    private indirect enum Node {
        case empty
        case scalar(Matcher)
        case any
        case start
        case end
        case concat([Node])
        case alternation([Node])
        case repetition(Node, min: Int, max: Int?)
    }

    private enum Instruction {
        case scalar(Matcher)
        case any
        case split(Int, Int)
        case jump(Int)
        case assertStart
        case assertEnd
        case match
    }

    private let program: [Instruction]

    /// Compiles `pattern`.
    ///
    /// - Throws: `SyntaxError` for syntax this engine does not run, or a pattern too large.
    init(_ pattern: String) throws(SyntaxError) {
        let scalars = Array(pattern.unicodeScalars)
        guard scalars.count <= Self.maximumPatternLength else {
            throw SyntaxError(message: "a regular expression is at most \(Self.maximumPatternLength) characters")
        }
        var parser = Parser(scalars: scalars)
        let node = try parser.parseAlternation()
        guard parser.index == scalars.count else { throw SyntaxError(message: "unbalanced \")\" at offset \(parser.index)") }
        var program: [Instruction] = []
        try Self.compile(node, into: &program)
        program.append(.match)
        self.program = program
    }

    /// Whether the pattern matches part of `text`.
    func matches(_ text: String) -> Bool {
        let input = Array(text.unicodeScalars)
        var current: [Int] = []
        var next: [Int] = []
        var mark = [Int](repeating: -1, count: program.count)
        var generation = 0
        func add(_ pc: Int, at position: Int, to list: inout [Int]) -> Bool {
            var stack = [pc]
            while let pc = stack.popLast() {
                guard mark[pc] != generation else { continue }
                mark[pc] = generation
                switch program[pc] {
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .assertStart: if position == 0 { stack.append(pc + 1) }
                case .assertEnd: if position == input.count { stack.append(pc + 1) }
                case .match: return true
                case .scalar, .any: list.append(pc)
                }
            }
            return false
        }
        for position in 0...input.count {
            // The unanchored search starts a thread at every position, sharing this step's marks.
            if add(0, at: position, to: &current) { return true }
            guard position < input.count else { break }
            generation += 1
            let scalar = input[position]
            next.removeAll(keepingCapacity: true)
            for pc in current {
                let advances: Bool
                switch program[pc] {
                case .scalar(let matcher): advances = matcher.matches(scalar)
                case .any: advances = scalar != "\n"
                default: advances = false
                }
                if advances, add(pc + 1, at: position + 1, to: &next) { return true }
            }
            swap(&current, &next)
        }
        return false
    }

    // MARK: Compilation

    private static func compile(_ node: Node, into program: inout [Instruction]) throws(SyntaxError) {
        guard program.count < maximumProgramSize else {
            throw SyntaxError(message: "the regular expression is too large once its repetitions are expanded")
        }
        switch node {
        case .empty: break
        case .scalar(let matcher): program.append(.scalar(matcher))
        case .any: program.append(.any)
        case .start: program.append(.assertStart)
        case .end: program.append(.assertEnd)
        case .concat(let nodes):
            for node in nodes { try compile(node, into: &program) }
        case .alternation(let nodes):
            var jumps: [Int] = []
            for (offset, node) in nodes.enumerated() {
                if offset < nodes.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, -1))
                    try compile(node, into: &program)
                    jumps.append(program.count)
                    program.append(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try compile(node, into: &program)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let body, let min, let max):
            for _ in 0..<min { try compile(body, into: &program) }
            if let max {
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(program.count)
                    program.append(.split(program.count + 1, -1))
                    try compile(body, into: &program)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let loop = program.count
                program.append(.split(loop + 1, -1))
                try compile(body, into: &program)
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }

    // MARK: Parsing

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0
        var depth = 0

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func parseAlternation() throws(SyntaxError) -> Node {
            var branches = [try parseConcatenation()]
            while peek == "|" {
                index += 1
                branches.append(try parseConcatenation())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func parseConcatenation() throws(SyntaxError) -> Node {
            var nodes: [Node] = []
            while let scalar = peek, scalar != "|", scalar != ")" {
                var atom = try parseAtom()
                if let quantifier = try parseQuantifier() {
                    if case .start = atom { throw SyntaxError(message: "nothing to repeat at offset \(index)") }
                    if case .end = atom { throw SyntaxError(message: "nothing to repeat at offset \(index)") }
                    atom = .repetition(atom, min: quantifier.min, max: quantifier.max)
                    let mark = index
                    if try parseQuantifier() != nil { throw SyntaxError(message: "a repetition of a repetition at offset \(mark)") }
                }
                nodes.append(atom)
            }
            return nodes.count == 1 ? nodes[0] : (nodes.isEmpty ? .empty : .concat(nodes))
        }

        mutating func parseQuantifier() throws(SyntaxError) -> (min: Int, max: Int?)? {
            guard let scalar = peek else { return nil }
            var result: (min: Int, max: Int?)
            switch scalar {
            case "*": result = (0, nil)
            case "+": result = (1, nil)
            case "?": result = (0, 1)
            case "{":
                guard let bounds = try parseBounds() else { return nil }
                result = bounds
                if peek == "?" { index += 1 }
                return result
            default: return nil
            }
            index += 1
            if peek == "?" { index += 1 }
            return result
        }

        /// `{n}`, `{n,}`, `{n,m}`; `nil` (nothing consumed) when `{` starts no bound, as RE2
        /// then reads it as a literal.
        mutating func parseBounds() throws(SyntaxError) -> (min: Int, max: Int?)? {
            var probe = index + 1
            func number() -> Int? {
                var value = 0
                let start = probe
                while probe < scalars.count, ConditionRegex.isDigit(scalars[probe]) {
                    value = min(value * 10 + Int(scalars[probe].value - 48), 100_000)
                    probe += 1
                }
                return probe > start ? value : nil
            }
            guard let low = number() else { return nil }
            var high: Int? = low
            if probe < scalars.count, scalars[probe] == "," {
                probe += 1
                high = number()
            }
            guard probe < scalars.count, scalars[probe] == "}" else { return nil }
            index = probe + 1
            guard low <= ConditionRegex.maximumRepeat, (high ?? low) <= ConditionRegex.maximumRepeat else {
                throw SyntaxError(message: "a repetition count is at most \(ConditionRegex.maximumRepeat)")
            }
            if let high, high < low { throw SyntaxError(message: "a repetition {\(low),\(high)} has its bounds reversed") }
            return (low, high)
        }

        mutating func parseAtom() throws(SyntaxError) -> Node {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case ".": return .any
            case "^": return .start
            case "$": return .end
            case "(":
                depth += 1
                guard depth <= 100 else { throw SyntaxError(message: "groups nested deeper than 100") }
                if peek == "?" {
                    guard index + 1 < scalars.count, scalars[index + 1] == ":" else {
                        throw SyntaxError(message: "only (?: …) groups are supported (no flags or lookaround) at offset \(index - 1)")
                    }
                    index += 2
                }
                let inner = try parseAlternation()
                guard peek == ")" else { throw SyntaxError(message: "missing \")\"") }
                index += 1
                depth -= 1
                return inner
            case "*", "+", "?":
                throw SyntaxError(message: "nothing to repeat at offset \(index - 1)")
            case "[": return .scalar(try parseClass())
            case "\\": return .scalar(Matcher(items: [try parseEscape()], negated: false))
            default: return .scalar(Matcher(items: [ClassItem(kind: .scalar(scalar))], negated: false))
            }
        }

        mutating func parseEscape() throws(SyntaxError) -> ClassItem {
            guard let scalar = peek else { throw SyntaxError(message: "a pattern ends with \\") }
            index += 1
            switch scalar {
            case "d": return ClassItem(kind: .digit)
            case "D": return ClassItem(kind: .notDigit)
            case "w": return ClassItem(kind: .word)
            case "W": return ClassItem(kind: .notWord)
            case "s": return ClassItem(kind: .space)
            case "S": return ClassItem(kind: .notSpace)
            case "n": return ClassItem(kind: .scalar("\n"))
            case "t": return ClassItem(kind: .scalar("\t"))
            default:
                guard !scalar.properties.isAlphabetic, scalar.properties.numericType == nil else {
                    throw SyntaxError(message: "the escape \\\(scalar) is not supported")
                }
                return ClassItem(kind: .scalar(scalar))
            }
        }

        mutating func parseClass() throws(SyntaxError) -> Matcher {
            var negated = false
            if peek == "^" {
                negated = true
                index += 1
            }
            var items: [ClassItem] = []
            var first = true
            while true {
                guard let scalar = peek else { throw SyntaxError(message: "missing \"]\"") }
                if scalar == "]" && !first {
                    index += 1
                    break
                }
                first = false
                index += 1
                var item: ClassItem
                if scalar == "\\" {
                    item = try parseEscape()
                } else if scalar == "[" && peek == ":" {
                    throw SyntaxError(message: "named classes such as [:alpha:] are not supported")
                } else {
                    item = ClassItem(kind: .scalar(scalar))
                }
                if case .scalar(let low) = item.kind, peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                    index += 1
                    var high = scalars[index]
                    index += 1
                    if high == "\\" {
                        guard case .scalar(let escaped) = try parseEscape().kind else {
                            throw SyntaxError(message: "a class range ends with a class escape")
                        }
                        high = escaped
                    }
                    guard low <= high else { throw SyntaxError(message: "a class range \(low)-\(high) is reversed") }
                    item = ClassItem(kind: .range(low, high))
                }
                items.append(item)
            }
            return Matcher(items: items, negated: negated)
        }
    }

    // MARK: Character classes (ASCII, as RE2's \d \w \s)

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_"
    }
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool { [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"].contains(scalar) }
}

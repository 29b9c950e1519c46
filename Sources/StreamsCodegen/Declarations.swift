// The shapes the templates are made of: a public overload's signature, a call whose arguments
// may break, and a trait built from one `Observable` call. Each lays itself out as swift-format
// would (see Code.swift), so the generated files pass `swift format lint --strict` as written.

/// The attribute of every generated public overload: its body is compiled in the module that
/// calls it, and Streams itself emits no copy. The overloads only adapt their arguments and call
/// one shared implementation, so a user pays (in build time and binary size) only for the arities
/// they call, not for all of them (see <doc:Performance>, "Build cost").
let emittedIntoClient = "@_alwaysEmitIntoClient"

/// A `public static func` overload of an operator, one level in (in an extension).
///
/// Its parameters go on lines of their own (filled), a `resultSelector` on the last; its generic
/// parameters and `where` clause break as swift-format breaks them when they are too long.
struct Function {
    /// `public ` for the API; empty for an internal helper.
    var access = "public "
    /// Attribute lines between the doc comment and the declaration (`@_alwaysEmitIntoClient`).
    var attributes: [String] = []
    var name: String
    var generics: [String]
    var parameters: [String]
    /// The closure parameter after the sources, on a line of its own (`resultSelector: ...`).
    var resultSelector: String?
    var returnType: String
    var requirements: [String] = []
    var doc: [String]
    var body: [String]

    func code(at indent: Int) -> Code {
        let inner = indent + indentWidth
        var code = Code()
        code.doc(doc, at: indent)
        code.lines(attributes, at: indent)
        let head = "\(access)static func \(name)"
        if fits("\(head)<\(commaList(generics))>(", at: indent) {
            code.line("\(head)<\(commaList(generics))>(", at: indent)
        } else {
            code.line(head + "<", at: indent)
            code.lines(filled(generics, at: inner), at: inner)
            code.line(">(", at: indent)
        }
        code.lines(filled(parameters, at: inner, end: resultSelector == nil ? "" : ","), at: inner)
        if let resultSelector { code.line(resultSelector, at: inner) }
        let returns = ") -> \(returnType)"
        let clause = commaList(requirements)
        if requirements.isEmpty {
            code.line(returns + " {", at: indent)
        } else if fits("\(returns) where \(clause) {", at: indent) {
            code.line("\(returns) where \(clause) {", at: indent)
        } else if fits("where \(clause) {", at: indent) {
            code.line(returns, at: indent)
            code.line("where \(clause) {", at: indent)
        } else {
            code.line(returns, at: indent)
            code.line("where", at: indent)
            code.lines(filled(requirements, at: inner), at: inner)
            code.line("{", at: indent)
        }
        code.lines(body, at: inner)
        code.line("}", at: indent)
        return code
    }
}

/// `extension subject { overloads }` for each `(subject, overloads)`, the extensions and the
/// overloads in each a blank line apart.
func extensions(_ blocks: (subject: String, functions: [Function])...) -> Code {
    var code = Code()
    for (blockIndex, block) in blocks.enumerated() {
        if blockIndex > 0 { code.blank() }
        code.line("extension \(block.subject) {", at: 0)
        for (index, function) in block.functions.enumerated() {
            if index > 0 { code.blank() }
            code.append(function.code(at: indentWidth))
        }
        code.line("}", at: 0)
    }
    return code
}

/// One argument of a call: plain text, or text ending in a closure that may break.
struct Argument {
    var text: String
    var closure: Closure?

    init(_ text: String) {
        self.text = text
    }

    init(_ prefix: String, _ closure: Closure) {
        text = prefix
        self.closure = closure
    }

    /// The argument on one line, if it can be.
    var oneLine: String? {
        guard let closure else { return text }
        return closure.oneLine.map { text + $0 }
    }

    /// The argument followed by `suffix` (its comma), at `indent`.
    func lines(suffix: String, at indent: Int) -> [String] {
        guard let closure else { return [text + suffix] }
        if let oneLine, fits(oneLine + suffix, at: indent) { return [oneLine + suffix] }
        return closure.lines(prefix: text, suffix: suffix, at: indent)
    }
}

/// `callee(arguments) { signature in statements }`: a call ending in a multi-statement trailing
/// closure, at `indent`.
///
/// On one line up to the closure if the arguments fit there; else the arguments go one level
/// in and `)` starts the closure's line. `groups` are runs of arguments filled together: each
/// group after the first starts a line of its own when the arguments break (a line break of the
/// code as first written, which swift-format keeps: `respectsExistingLineBreaks`).
func callWithTrailingClosure(_ callee: String, _ groups: [[Argument]], closure: Closure, at indent: Int) -> [String] {
    let oneLines = groups.joined().compactMap(\.oneLine)
    if groups.count == 1, oneLines.count == groups[0].count, fits("\(callee)(\(commaList(oneLines))) {", at: indent) {
        return closure.lines(prefix: "\(callee)(\(commaList(oneLines))) ", suffix: "", at: indent)
    }
    let inner = indent + indentWidth
    let pad = String(repeating: " ", count: indentWidth)
    var lines: [String] = ["\(callee)("]
    for (groupIndex, group) in groups.enumerated() {
        var current: String?
        for (index, argument) in group.enumerated() {
            let isLast = groupIndex == groups.count - 1 && index == group.count - 1
            let comma = isLast ? "" : ","
            if let oneLine = argument.oneLine, let line = current, fits("\(line) \(oneLine)\(comma)", at: inner) {
                current = "\(line) \(oneLine)\(comma)"
                continue
            }
            if let line = current { lines.append(pad + line) }
            let argumentLines = argument.lines(suffix: comma, at: inner)
            if argumentLines.count == 1 {
                current = argumentLines[0]
            } else {
                lines += argumentLines.map { pad + $0 }
                current = nil
            }
        }
        if let line = current { lines.append(pad + line) }
    }
    lines += closure.lines(prefix: ") ", suffix: "", at: indent)
    return lines
}

/// `callee(arguments)` at `indent`: on one line if it fits, else the arguments one level in
/// (filled, `)` after the last).
func call(_ callee: String, _ arguments: [String], at indent: Int) -> [String] {
    if fits("\(callee)(\(commaList(arguments)))", at: indent) { return ["\(callee)(\(commaList(arguments)))"] }
    let pad = String(repeating: " ", count: indentWidth)
    return ["\(callee)("] + filled(arguments, at: indent + indentWidth, end: ")").map { pad + $0 }
}

/// `wrapper(label: call(arguments) trailing)`: a trait made from one `Observable` operator call,
/// at `indent` (the shape of every trait overload's body).
///
/// On one line if it fits; else the inner call goes one level in; else its arguments go two
/// levels in (filled, `))` after the last); a trailing closure that does not fit after the call
/// breaks inside, or, when not even its `{` fits, moves to the next line whole.
func wrappedCall(_ wrapper: String, label: String? = nil, _ call: String, _ arguments: [String], trailing: Closure? = nil, at indent: Int) -> [String] {
    let labelled = label.map { "\($0): " } ?? ""
    let inner = "\(labelled)\(call)(\(commaList(arguments)))"
    let trailingText = trailing?.oneLine.map { " " + $0 } ?? ""
    if fits("\(wrapper)(\(inner)\(trailingText))", at: indent) { return ["\(wrapper)(\(inner)\(trailingText))"] }
    let level = indent + indentWidth
    let pad = String(repeating: " ", count: indentWidth)
    if fits("\(inner)\(trailingText))", at: level) { return ["\(wrapper)(", pad + "\(inner)\(trailingText))"] }
    if let trailing {
        if let oneLine = trailing.oneLine, !fits(inner + " {", at: level) {
            return ["\(wrapper)(", pad + inner, pad + oneLine + ")"]
        }
        return ["\(wrapper)("] + trailing.lines(prefix: inner + " ", suffix: ")", at: level).map { pad + $0 }
    }
    let arguments = filled(arguments, at: level + indentWidth, end: "))")
    return ["\(wrapper)(", pad + "\(labelled)\(call)("] + arguments.map { pad + pad + $0 }
}

// Templates of the Observable operators: `combineLatest` and `zip` of 3 to 8 sources (the two-source
// forms, documented in full, are written by hand next to their sinks) and `combineLatest`'s
// selector adapters.

/// The element types of the sources, `O1.Element, O2.Element, ...`.
private func observableElements(_ arity: Int) -> [String] {
    each(arity) { "O\($0).Element" }
}

/// `<O1: ObservableType, ...>(_ source1: O1, ...`: the generic parameters and the sources.
private func observableOverload(_ name: String, _ arity: Int, resultSelector: Bool, returnType: String, doc: [String], body: [String]) -> Function {
    Function(
        attributes: [emittedIntoClient], name: name, generics: each(arity) { "O\($0): ObservableType" }, parameters: each(arity) { "_ source\($0): O\($0)" },
        resultSelector: resultSelector ? "resultSelector: @escaping \(tuple(observableElements(arity))) throws -> Element" : nil,
        returnType: returnType, doc: doc, body: body)
}

/// The count of sources as the docs of `combineLatest` say it: the arities once written by hand
/// in CombineLatest.swift (3 and 4) spell it out, as their docs always have.
private func combineLatestCount(_ arity: Int) -> String {
    switch arity {
    case 3: "three"
    case 4: "four"
    default: "\(arity)"
    }
}

let combineLatestArities = 3...8

/// CombineLatest+arity.swift.
func observableCombineLatest() -> Code {
    let note = [
        "- Note: Delivers on the thread of the source that triggered the element (or of a thread",
        "  already delivering); the output is serialized. See <doc:Combining>.",
    ]
    /// An overload whose producer combines with `select`.
    func overload(_ arity: Int, resultSelector: Bool, returnType: String, doc: [String], select: Argument) -> Function {
        let subscriptions = Closure("sources", each(arity) { "sources.subscribe(source\($0).asObservable(), at: \($0 - 1))" })
        var function = observableOverload(
            "combineLatest", arity, resultSelector: resultSelector, returnType: returnType, doc: doc + note,
            body: callWithTrailingClosure(
                "CombineLatestArityProducer", [[Argument("arity: \(arity)"), select]], closure: subscriptions, at: 2 * indentWidth))
        // Emitted into the client: the selector adapter is specialized for the caller's element
        // types, and Streams keeps no copy of the arities a user does not call.
        function.attributes = [emittedIntoClient]
        return function
    }
    let selecting = combineLatestArities.map { arity in
        // 3 and 4 kept the short termination paragraph they had in CombineLatest.swift.
        let termination =
            arity <= 4
            ? ["Termination as for `combineLatest(_:_:resultSelector:)`."]
            : [
                "Termination as for `combineLatest(_:_:resultSelector:)`: completes when every source has",
                "completed (or a source emits while all the others have completed, one of them without an",
                "element); fails as soon as a source fails or `resultSelector` throws.",
                "- Returns: The sequence of combined elements.",
            ]
        return overload(
            arity, resultSelector: true, returnType: "Observable<Element>",
            doc: [
                "Combines the latest elements of \(combineLatestCount(arity)) sequences with `resultSelector` whenever any emits,",
                "once all have emitted.",
                "",
            ] + termination,
            select: Argument("select: CombineLatestSelector.make(resultSelector)"))
    }
    let tupling = combineLatestArities.map { arity in
        overload(
            arity, resultSelector: false, returnType: "Observable<\(tuple(observableElements(arity)))>",
            doc: [
                "Emits a tuple of the latest elements of \(combineLatestCount(arity)) sequences whenever any emits, once all have emitted.",
                "",
                "Termination as for `combineLatest(_:_:resultSelector:)`.",
            ],
            select: Argument(
                "select: CombineLatestSelector.make ", Closure(tuple(each(arity) { "v\($0): O\($0).Element" }), tuple(each(arity) { "v\($0)" }))))
    }
    return extensions(("ObservableType", selecting), ("ObservableType where Element == Any", tupling))
}

let zipArities = 3...8

/// Zip+arity.swift.
func observableZip() -> Code {
    let note = [
        "- Note: Delivers on the thread of the source that completed the group (or of a thread",
        "  already delivering); the output is serialized. See <doc:Combining>.",
    ]
    /// The arguments of `ZipArityProducer` but the last, `selection`.
    func buffering(_ arity: Int) -> [[Argument]] {
        let buffers = tuple(each(arity) { _ in "ZipBuffer()" })
        let types = each(arity) { "ZipBuffer<E\($0)>" }
        let typed = "\(buffers) as \(tuple(types))"
        let make = Closure("", typed) { column in
            if fits(typed, at: column) { return [typed] }
            if fits("as \(tuple(types))", at: column + indentWidth) { return [buffers, "    as \(tuple(types))"] }
            return [buffers, "    as ("] + filled(types, at: column + 2 * indentWidth).map { "        " + $0 } + ["    )"]
        }
        let take = Closure("b", tuple(each(arity) { "b.\($0 - 1).dequeue()" }))
        return [[Argument("arity: \(arity)"), Argument("buffers: ", make)], [Argument("take: ", take)]]
    }
    /// The public overloads' body: both call one helper per arity (the tuple and the
    /// `resultSelector` forms differ only in the selection), so each arity's buffers, `take` and
    /// subscriptions are compiled once, not twice.
    func body(_ arity: Int, selection: String) -> [String] {
        call("zipArity", each(arity) { "source\($0).asObservable()" } + ["selection: \(selection)"], at: 2 * indentWidth)
    }
    let helpers = zipArities.map { arity in
        let subscriptions = Closure("sources", each(arity) { "sources.subscribe(source\($0), at: \($0 - 1)) { $0.\($0 - 1).enqueue($1) }" })
        return Function(
            access: "", attributes: ["@usableFromInline"], name: "zipArity", generics: each(arity) { "E\($0)" } + ["Result"],
            parameters: each(arity) { "_ source\($0): Observable<E\($0)>" },
            resultSelector: "selection: ResultSelection<\(tuple(each(arity) { "E\($0)" })), Result>", returnType: "Observable<Result>",
            doc: ["The `zip` of \(arity) sources, by `selection`: a user's `resultSelector`, or the tuple."],
            body: callWithTrailingClosure(
                "ZipArityProducer", buffering(arity) + [[Argument("selection: selection")]], closure: subscriptions, at: 2 * indentWidth))
    }
    let selecting = zipArities.map { arity in
        observableOverload(
            "zip", arity, resultSelector: true, returnType: "Observable<Element>",
            doc: [
                "Pairs the elements of \(arity) sequences by index and combines each group with `resultSelector`.",
                "",
                "Termination as for `zip(_:_:resultSelector:)`: completes when every source has completed;",
                "fails as soon as a source fails or `resultSelector` throws.",
                "- Returns: The sequence of combined elements.",
            ] + note,
            body: body(arity, selection: ".user { a in try resultSelector(\(commaList(each(arity) { "a.\($0 - 1)" }))) }"))
    }
    let tupling = zipArities.map { arity in
        observableOverload(
            "zip", arity, resultSelector: false, returnType: "Observable<\(tuple(observableElements(arity)))>",
            doc: [
                "Pairs the elements of \(arity) sequences by index into tuples.",
                "",
                "Termination as for `zip(_:_:resultSelector:)`.",
            ] + note,
            body: body(arity, selection: ".library { $0 }"))
    }
    return extensions(("ObservableType", selecting), ("ObservableType where Element == Any", tupling), ("ObservableType", helpers))
}

let combineLatestSelectorArities = 2...8

/// CombineLatestSelector.swift: one `make` per arity, turning a selector of `n` arguments into a
/// selector of `CombineLatestValues`.
func combineLatestSelector() -> Code {
    var code = Code()
    let range = "\(combineLatestSelectorArities.lowerBound)–\(combineLatestSelectorArities.upperBound)"
    code.doc(
        [
            "The `select` closures of the fixed arities of `combineLatest` (\(range) sources).",
            "",
            "Each reads the latest values with their element types as plain generic parameters of the",
            "adapter, bound once when the operator is built. Written inline in `combineLatest`, the same",
            "closure names `O1.Element` and so looks up an associated-type witness for every source on",
            "every combination (see <doc:Performance>).",
            "",
            "Inlinable, as the `combineLatest` overloads that call them: the adapter closure is then",
            "compiled in the caller's module, specialized for its element types, so reading the latest",
            "values copies them directly, not through the runtime's value witnesses (see <doc:Performance>).",
        ], at: 0)
    code.line("@usableFromInline", at: 0)
    code.line("enum CombineLatestSelector {", at: 0)
    let indent = indentWidth
    for arity in combineLatestSelectorArities {
        if arity > combineLatestSelectorArities.lowerBound { code.blank() }
        let elements = each(arity) { "E\($0)" }
        code.doc(["Calls `selector` with the latest values of \(arity) sources."], at: indent)
        code.line("@inlinable", at: indent)
        // The return type breaks (filled) before `throws` and before `Result` when the line is
        // too long; then `{` goes on a line of its own.
        var signature = ["static func make<\(commaList(elements + ["Result"]))>(_ selector: @escaping \(tuple(elements)) throws -> Result) ->"]
        for word in ["(CombineLatestValues)", "throws ->", "Result"] {
            if fits(signature[signature.count - 1] + " " + word, at: signature.count == 1 ? indent : indent + indentWidth) {
                signature[signature.count - 1] += " " + word
            } else {
                signature.append(word)
            }
        }
        if signature.count == 1, fits(signature[0] + " {", at: indent) {
            code.line(signature[0] + " {", at: indent)
        } else {
            code.line(signature[0], at: indent)
            code.lines(Array(signature.dropFirst()), at: indent + indentWidth)
            code.line("{", at: indent)
        }
        let arguments = each(arity) { "values[\($0 - 1), as: E\($0).self]" }
        let call = "try selector(\(commaList(arguments)))"
        let select = Closure("values", call) { column in
            fits(call, at: column) ? [call] : ["try selector("] + filled(arguments, at: column + indentWidth, end: ")").map { "    " + $0 }
        }
        code.lines(select.lines(prefix: "", suffix: "", at: indent + indentWidth), at: indent + indentWidth)
        code.line("}", at: indent)
    }
    code.line("}", at: 0)
    return code
}

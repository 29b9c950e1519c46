// Templates of the traits' fixed arities: each overload wraps the Observable operator of the same
// arity. The lowest arity of a family carries its marble diagram.

/// `E1, E2, ...`: the element types of trait sources.
private func elements(_ arity: Int) -> [String] {
    each(arity) { "E\($0)" }
}

private let resultSelectorSources = ["resultSelector: resultSelector"]

// MARK: - Infallible

let infallibleCombineLatestSelectorArities = 3...8
let infallibleCombineLatestTupleArities = 2...8
let infallibleZipArities = 2...8

/// `<E1, ...>(_ source1: Infallible<E1>, ...`.
private func infallibleOverload(_ name: String, _ arity: Int, resultSelector: Bool, doc: [String], call: String) -> Function {
    let sources = each(arity) { "source\($0).source" }
    let returned = resultSelector ? "Element" : tuple(elements(arity))
    return Function(
        attributes: [emittedIntoClient], name: name, generics: elements(arity), parameters: each(arity) { "_ source\($0): Infallible<E\($0)>" },
        resultSelector: resultSelector ? "resultSelector: @escaping \(tuple(elements(arity))) throws -> Element" : nil,
        returnType: "Infallible<\(returned)>", doc: doc,
        body: wrappedCall(
            resultSelector ? "Infallible" : "Infallible<\(returned)>", call, resultSelector ? sources + resultSelectorSources : sources,
            at: 2 * indentWidth))
}

/// Infallible+CombineLatest+arity.swift.
func infallibleCombineLatest() -> Code {
    let note = "- Note: Delivers on the emitting source's thread, serialized. See <doc:Traits>."
    let selecting = infallibleCombineLatestSelectorArities.map { arity in
        infallibleOverload(
            "combineLatest", arity, resultSelector: true,
            doc: [
                "Emits `resultSelector` of the latest element of each of \(arity) sources whenever one emits",
                "(once all have); completes when all complete.",
                note,
            ], call: "Observable.combineLatest")
    }
    let tupling = infallibleCombineLatestTupleArities.map { arity in
        let doc =
            arity == infallibleCombineLatestTupleArities.lowerBound
            ? [
                "Emits a tuple of the latest element of each source whenever one emits (once all have);",
                "completes when all complete.",
                "",
                "    source1: --1-----2-----",
                "    source2: -----a-----b--",
                "    output:  -----A--B--C--     (A = (1, a), B = (2, a), C = (2, b))",
                "",
                note,
            ]
            : [
                "Emits a tuple of the latest element of each of \(arity) sources whenever one emits (once all",
                "have); completes when all complete.",
                note,
            ]
        return infallibleOverload("combineLatest", arity, resultSelector: false, doc: doc, call: "Observable.combineLatest")
    }
    return extensions(("Infallible", selecting), ("Infallible where Element == Any", tupling))
}

/// Infallible+Zip+arity.swift.
func infallibleZip() -> Code {
    let selecting = infallibleZipArities.map { arity in
        let doc =
            arity == infallibleZipArities.lowerBound
            ? [
                "Combines the elements of the sources at the same index with `resultSelector`, once each",
                "has produced its element for that index.",
                "",
                "    source1: --1----2-----|",
                "    source2: ----a-----b--|",
                "    output:  ----A-----B--|     (A = selector(1, a), B = selector(2, b))",
                "",
                "Completes once a completed source has no buffered elements left to pair.",
                "- Note: Delivers on the thread of the source that completed a pair. See <doc:Traits>.",
            ]
            : [
                "Combines the elements of \(arity) sources at the same index with `resultSelector`.",
                "- Note: Delivers on the thread of the source that completed a tuple. See <doc:Traits>.",
            ]
        return infallibleOverload("zip", arity, resultSelector: true, doc: doc, call: "Observable.zip")
    }
    return extensions(("Infallible", selecting))
}

// MARK: - Single and Maybe

let singleZipArities = 4...8
let maybeZipArities = 2...8

/// `Single.zip` or `Maybe.zip`, with a `resultSelector` and as tuples.
private func primitiveSequenceZip(_ trait: String, _ arities: ClosedRange<Int>, outcome: String) -> Code {
    let note = "- Note: Delivers on the thread of the last source to succeed. See <doc:Traits>."
    func overload(_ arity: Int, resultSelector: Bool) -> Function {
        let sources = each(arity) { "source\($0).source" }
        let returned = resultSelector ? "Element" : tuple(elements(arity))
        var doc = ["Combines the elements of \(arity) `\(trait)`s \(resultSelector ? "with `resultSelector`" : "into a tuple") once all succeed; \(outcome)."]
        if resultSelector, arity == arities.lowerBound {
            doc += [
                "",
                "    source1: --1|",
                "    source2: ----a|",
                "    output:  ----R|     (R = resultSelector(1, a, ...))",
                "",
            ]
        }
        return Function(
            attributes: [emittedIntoClient], name: "zip", generics: elements(arity), parameters: each(arity) { "_ source\($0): \(trait)<E\($0)>" },
            resultSelector: resultSelector ? "resultSelector: @escaping \(tuple(elements(arity))) throws -> Element" : nil,
            returnType: "\(trait)<\(returned)>", doc: doc + [note],
            body: resultSelector
                ? wrappedCall("PrimitiveSequence", label: "raw", "Observable.zip", sources + resultSelectorSources, at: 2 * indentWidth)
                : wrappedCall(
                    "PrimitiveSequence", label: "raw", "Observable.zip", sources, trailing: Closure("", tuple(each(arity) { "$\($0 - 1)" })),
                    at: 2 * indentWidth))
    }
    return extensions(
        ("PrimitiveSequenceType where Trait == \(trait)Trait", arities.map { overload($0, resultSelector: true) }),
        ("PrimitiveSequenceType where Trait == \(trait)Trait, Element == Any", arities.map { overload($0, resultSelector: false) }))
}

/// PrimitiveSequence+Zip+arity.swift.
func primitiveSequenceZip() -> Code {
    var code = primitiveSequenceZip("Single", singleZipArities, outcome: "fails as soon as one fails")
    code.blank()
    code.append(primitiveSequenceZip("Maybe", maybeZipArities, outcome: "completes empty as soon as one completes empty, fails as soon as one fails"))
    return code
}

// MARK: - SharedSequence (Driver, Signal)

let sharedSequenceArities = 2...8

/// `<O1: SharedSequenceConvertibleType, ...>(_ source1: O1, ...) -> ... where SharingStrategy == O1.SharingStrategy, ...`.
private func sharedSequenceOverload(_ name: String, _ arity: Int, resultSelector: Bool, doc: [String]) -> Function {
    let sources = each(arity) { "source\($0).asSharedSequence().source" }
    let call = "Observable.\(name)"
    let returned = "SharedSequence<SharingStrategy, \(resultSelector ? "Element" : tuple(each(arity) { "O\($0).Element" }))>"
    return Function(
        attributes: [emittedIntoClient], name: name, generics: each(arity) { "O\($0): SharedSequenceConvertibleType" },
        parameters: each(arity) { "_ source\($0): O\($0)" },
        resultSelector: resultSelector ? "resultSelector: @escaping \(tuple(each(arity) { "O\($0).Element" })) throws -> Element" : nil,
        returnType: returned, requirements: each(arity) { "SharingStrategy == O\($0).SharingStrategy" },
        doc: doc + ["- Note: Delivers on the sharing scheduler. See <doc:Traits>."],
        body: resultSelector
            ? wrappedCall("SharedSequence", call, sources + resultSelectorSources, at: 2 * indentWidth)
            : wrappedCall(returned, call, sources, at: 2 * indentWidth))
}

/// `SharedSequence.name` with a `resultSelector` and as tuples, documented by `selecting` and
/// `tupling` (each given the arity; the note on delivery follows).
private func sharedSequenceOperator(_ name: String, selecting: (Int) -> [String], tupling: (Int) -> [String]) -> Code {
    extensions(
        ("SharedSequence", sharedSequenceArities.map { sharedSequenceOverload(name, $0, resultSelector: true, doc: selecting($0)) }),
        (
            "SharedSequenceConvertibleType where Element == Any",
            sharedSequenceArities.map { sharedSequenceOverload(name, $0, resultSelector: false, doc: tupling($0)) }
        ))
}

/// SharedSequence+CombineLatest+arity.swift.
func sharedSequenceCombineLatest() -> Code {
    sharedSequenceOperator(
        "combineLatest",
        selecting: { arity in
            arity == sharedSequenceArities.lowerBound
                ? [
                    "Emits `resultSelector` of the latest element of each source whenever one emits (once both",
                    "have); completes when both complete. The sources may be any `SharedSequenceConvertibleType`",
                    "of this strategy (`Driver`s, `Signal`s, your own types).",
                    "",
                    "    source1: --1-----2-----",
                    "    source2: -----a-----b--",
                    "    output:  -----A--B--C--     (A = selector(1, a), B = (2, a), C = (2, b))",
                    "",
                ]
                : [
                    "Emits `resultSelector` of the latest element of each of \(arity) sources whenever one emits",
                    "(once all have); completes when all complete.",
                ]
        },
        tupling: { arity in
            arity == sharedSequenceArities.lowerBound
                ? [
                    "Emits a tuple of the latest element of each source whenever one emits (once all have);",
                    "completes when all complete. The sources may be any `SharedSequenceConvertibleType` of one",
                    "strategy.",
                    "",
                    "    source1: --1-----2-----",
                    "    source2: -----a-----b--",
                    "    output:  -----A--B--C--     (A = (1, a), B = (2, a), C = (2, b))",
                    "",
                ]
                : [
                    "Emits a tuple of the latest element of each of \(arity) sources whenever one emits (once all",
                    "have); completes when all complete.",
                ]
        })
}

/// SharedSequence+Zip+arity.swift.
func sharedSequenceZip() -> Code {
    sharedSequenceOperator(
        "zip",
        selecting: { arity in
            arity == sharedSequenceArities.lowerBound
                ? [
                    "Combines the elements of the sources at the same index with `resultSelector`. The sources",
                    "may be any `SharedSequenceConvertibleType` of this strategy.",
                    "",
                    "    source1: --1----2-----|",
                    "    source2: ----a-----b--|",
                    "    output:  ----A-----B--|     (A = selector(1, a), B = selector(2, b))",
                    "",
                ]
                : ["Combines the elements of \(arity) sources at the same index with `resultSelector`."]
        },
        tupling: { arity in
            arity == sharedSequenceArities.lowerBound
                ? [
                    "Emits a tuple of the elements of the sources at the same index. The sources may be any",
                    "`SharedSequenceConvertibleType` of one strategy.",
                    "",
                    "    source1: --1----2-----|",
                    "    source2: ----a-----b--|",
                    "    output:  ----A-----B--|     (A = (1, a), B = (2, b))",
                    "",
                ]
                : ["Emits a tuple of the elements of \(arity) sources at the same index."]
        })
}

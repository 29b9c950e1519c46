#!/usr/bin/env python3
"""Checks that DocC symbol links to operators name the operator, not a word that shares its name.

    python3 Scripts/check-symbol-links.py [ROOT]     # check Sources/ (default ROOT: the package)
    python3 Scripts/check-symbol-links.py --self-test

An automated pass once turned code spans into symbol links by name alone, so a parameter, an
event or a field became a link to an unrelated operator: `PublishSubject.onNext` "Sends
``ObservableType/element(at:)`` to every current observer" where it meant its parameter
`element`. The style guide's rule is: link a symbol only where the sentence names that symbol;
parameters, events and fields stay plain code. This script reads the `///` doc comments of every
Swift file under Sources/ and every DocC article (Sources/*/*.docc/*.md) and fails, naming
file:line and the sentence, on an operator link (a link to a member of one of OPERATOR_TYPES) whose
base name

1. is a parameter name or argument label of the declaration the doc comment documents
   (`share(replay:scope:)` "replaying the last ``ObservableType/replay(_:)``");
2. is a stored property or enum case of the enclosing type, or of the documented type, and the
   link is to a function (``ObservableType/buffer(timeSpan:count:scheduler:)`` for the `buffer`
   field);
3. is an Rx event or parameter word (EVENT_WORDS: element, error, completed, next, value, event,
   ...), in comments and articles alike ("never ``ObservableType/error(_:)`` or `completed`").
   The factory `error(_:)` is accepted where the same sentence also links its siblings `just`,
   `empty` or `never` (a list of factories, as in the Creating article).

A link on ALLOWLIST (path, link destination, a piece of its line, and the reason it was reviewed
and kept) is accepted. Only the standard library is used; exits 1 on a finding, 0 otherwise.
"""

import os
import re
import sys
import tempfile

# Types whose members are operators (so a member link reads as "this operator").
OPERATOR_TYPES = {
    "ObservableType", "ObservableConvertibleType", "Observable", "ObserverType",
    "ConnectableObservableType", "InfallibleType", "Infallible", "PrimitiveSequence",
    "PrimitiveSequenceType", "SharedSequence", "SharedSequenceConvertibleType",
}

# Words that in these docs name an event, an element or a parameter, never an operator.
EVENT_WORDS = {
    "element", "elements", "error", "errors", "completed", "completion", "next", "value",
    "event", "events", "success", "failure", "terminated", "stop",
}

# The sibling factories that make a link to error(_:) part of a list of factories.
FACTORY_SIBLINGS = {"just", "empty", "never", "of", "from", "create", "deferred"}

# Reviewed links that are kept: (path suffix, link destination, a piece of the line, reason).
ALLOWLIST = [
    ("Sources/Streams/Operators/Filtering/ElementAt.swift", "ObservableType/element(at:)",
     "Renamed ``ObservableType/element(at:)``",
     "elementAt(_:)'s note names the operator it was renamed to"),
    ("Sources/Streams/Streams.docc/RxSwiftCoverage.md", "ObservableType/element(at:)",
     "| `ElementAt.swift` |", "the ElementAt.swift row lists the operator"),
    ("Sources/Streams/Streams.docc/DifferencesFromRxSwift.md", "ObservableType/element(at:)",
     "with a negative index", "the difference is about the operator element(at:)"),
    ("Sources/Streams/Streams.docc/ObservableType.md", "ObservableType/element(at:)",
     "- ``ObservableType/element(at:)``", "ObservableType's topic list curates the operator"),
    ("Sources/Streams/Streams.docc/ObservableType.md", "ObservableType/error(_:)",
     "- ``ObservableType/error(_:)``", "ObservableType's topic list curates the factory"),
]

LINK = re.compile(r"``([A-Za-z_][\w.]*(?:/[^`\s]+)+)``|\[`[^`]+`\]\(<doc:([A-Za-z_][\w.]*(?:/[^>\s]+)+)>\)")
DECL_KEYWORDS = re.compile(
    r"\b(func|init|subscript|case|var|let|class|struct|enum|actor|protocol|extension|typealias|"
    r"associatedtype|macro)\b")
TYPE_DECL = re.compile(r"\b(class|struct|enum|actor|protocol|extension)\s+([A-Za-z_][\w.]*)")
MEMBER = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open|"
                    r"static|final|lazy|weak|unowned|nonisolated|override|mutating|indirect|"
                    r"\(set\)|private\(set\)|nonisolated\(unsafe\))\s+)*(var|let|case)\s+(.*)")


def split_link(dest):
    """("ObservableType", "element", "element(at:)") for ObservableType/element(at:)."""
    parts = dest.split("/")
    parts = [p for p in parts if p and p not in ("documentation", "Streams", "StreamsTest",
                                                   "StreamsBlocking", "StreamsInspector", "ConfigFeatures")]
    if len(parts) < 2:
        return None
    member = parts[-1]
    base = re.split(r"[(\-]", member, 1)[0]
    return parts[-2], base, member


def strip_strings(line):
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return line.split("//", 1)[0]


def top_level_split(text, sep=","):
    out, depth, cur = [], 0, ""
    text = text.replace("->", "→")
    for ch in text:
        if ch in "([<{":
            depth += 1
        elif ch in ")]>}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def parameter_names(decl):
    """Argument labels and parameter names of a func/init/subscript/case declaration."""
    m = re.search(r"\b(func|init|subscript|case|macro)\b", decl)
    if not m:
        return set()
    rest = decl[m.end():]
    # Skip a name and a generic clause, then take the balanced parameter list.
    start = rest.find("(")
    if start < 0:
        return set()
    depth, end = 0, None
    for i in range(start, len(rest)):
        if rest[i] == "(":
            depth += 1
        elif rest[i] == ")":
            depth -= 1
            if depth == 0:
                end = i
                break
    if end is None:
        return set()
    names = set()
    for param in top_level_split(rest[start + 1:end]):
        head = top_level_split(param, ":")[0] if ":" in param else ""
        for word in head.split():
            word = word.strip("`")
            if re.fullmatch(r"[A-Za-z_]\w*", word) and word not in ("_", "inout", "borrowing",
                                                                     "consuming", "isolated"):
                names.add(word)
    return names


def scan_swift(path, text):
    """Yields (line number, comment paragraph lines, params, fields) per doc comment paragraph."""
    lines = text.split("\n")
    # Members (stored properties, cases) per type name, and the scope stack per line.
    members = {}
    scope_at = []
    stack = []  # (type name, depth of its body)
    depth = 0
    pending_type = None
    for raw in lines:
        scope_at.append([name for name, _ in stack])
        stripped = raw.strip()
        if stripped.startswith("///") or stripped.startswith("//"):
            continue
        code = strip_strings(raw)
        tm = TYPE_DECL.search(code)
        if tm and not re.search(r"\b(func|var|let|case)\b[^{]*" + re.escape(tm.group(1)), code):
            pending_type = tm.group(2).split(".")[-1]
        if stack and depth == stack[-1][1]:
            mm = MEMBER.match(code)
            if mm:
                for item in top_level_split(mm.group(2)):
                    nm = re.match(r"\s*`?([A-Za-z_]\w*)", item)
                    if nm:
                        members.setdefault(stack[-1][0], set()).add(nm.group(1))
        for ch in code:
            if ch == "{":
                depth += 1
                if pending_type:
                    stack.append((pending_type, depth))
                    pending_type = None
            elif ch == "}":
                if stack and stack[-1][1] == depth:
                    stack.pop()
                depth -= 1

    i = 0
    while i < len(lines):
        if not lines[i].strip().startswith("///"):
            i += 1
            continue
        start = i
        while i < len(lines) and lines[i].strip().startswith("///"):
            i += 1
        block = [(n + 1, lines[n].strip()[3:]) for n in range(start, i)]
        # The documented declaration: skip attributes, then read until the signature ends.
        j = i
        while j < len(lines) and (lines[j].strip().startswith("@") or not lines[j].strip()):
            if lines[j].strip().startswith("@") and lines[j].count("(") > lines[j].count(")"):
                while j < len(lines) and not lines[j].rstrip().endswith(")"):
                    j += 1
            j += 1
        decl = ""
        while j < len(lines) and len(decl) < 4000:
            decl += " " + strip_strings(lines[j])
            if decl.count("(") <= decl.count(")") and ("{" in lines[j] or decl.count("(") > 0
                                                       or not lines[j].rstrip().endswith(",")):
                break
            j += 1
        params = parameter_names(decl) if DECL_KEYWORDS.search(decl) else set()
        fields = set()
        for name in scope_at[start][-1:]:
            fields |= members.get(name, set())
        tm = TYPE_DECL.search(decl)
        if tm:
            fields |= members.get(tm.group(2).split(".")[-1], set())
        yield block, params, fields


def paragraphs(numbered_lines):
    """Groups (line number, text) into paragraphs (split at blank lines)."""
    para = []
    for n, t in numbered_lines:
        if t.strip():
            para.append((n, t))
        elif para:
            yield para
            para = []
    if para:
        yield para


def sentences_of(para):
    """(line number, sentence) for each link-bearing sentence of a paragraph."""
    text, starts = "", []
    for n, t in para:
        starts.append((len(text), n))
        text += t.strip() + " "
    pos = 0
    for part in re.split(r"(?<=[.!?])\s+(?=[A-Z`(*\[|-])", text):
        begin = text.find(part, pos)
        pos = begin + len(part)
        line = [n for off, n in starts if off <= begin][-1]
        yield begin, line, part, text, starts


def line_of(offset, starts):
    return [n for off, n in starts if off <= offset][-1]


def allowed(path, dest, line_text):
    for suffix, adest, piece, _ in ALLOWLIST:
        if path.endswith(suffix) and adest == dest and piece in line_text:
            return True
    return False


def check_text(path, numbered_lines, params, fields, all_lines, findings):
    for para in paragraphs(numbered_lines):
        for begin, _, sentence, text, starts in sentences_of(para):
            for m in LINK.finditer(sentence):
                dest = m.group(1) or m.group(2)
                parsed = split_link(dest)
                if not parsed:
                    continue
                owner, base, member = parsed
                if owner not in OPERATOR_TYPES:
                    continue
                line = line_of(begin + m.start(), starts)
                line_text = all_lines[line - 1]
                if allowed(path, dest, line_text):
                    continue
                reason = None
                if base in params:
                    reason = f"`{base}` is a parameter of the declaration this comment documents"
                elif "(" in member and base in fields:
                    reason = f"`{base}` is a field or case of the enclosing type"
                elif base in EVENT_WORDS:
                    siblings = {split_link(d1 or d2)[1] for d1, d2 in LINK.findall(sentence)
                                if split_link(d1 or d2)}
                    if not (base == "error" and siblings & FACTORY_SIBLINGS):
                        reason = f"`{base}` names an event, element or parameter here"
                if reason:
                    findings.append((path, line, dest, reason, sentence.strip()))


def check_file(path, display, findings):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    all_lines = text.split("\n")
    if path.endswith(".swift"):
        for block, params, fields in scan_swift(path, text):
            check_text(display, block, params, fields, all_lines, findings)
    else:
        numbered, fence = [], False
        for n, t in enumerate(all_lines, 1):
            if t.strip().startswith("```"):
                fence = not fence
                numbered.append((n, ""))
                continue
            numbered.append((n, "" if fence else t))
        check_text(display, numbered, set(), set(), all_lines, findings)


def check_tree(root):
    findings = []
    sources = os.path.join(root, "Sources")
    for dirpath, dirnames, filenames in os.walk(sources):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".swift") or (name.endswith(".md") and ".docc" in dirpath):
                path = os.path.join(dirpath, name)
                check_file(path, os.path.relpath(path, root), findings)
    return findings


def report(findings):
    for path, line, dest, reason, sentence in findings:
        print(f"{path}:{line}: ``{dest}``: {reason}; link it only where the sentence names that "
              f"symbol, else write the plain code span.\n    {sentence}")


# The links issue 29 found (each must fail) and their fixed or legitimate forms (each must pass).
BAD = {
    "PublishSubject.swift": """
public final class PublishSubject<Element> {
    /// Sends ``ObservableType/element(at:)`` to every current observer; ignored after a terminal event or disposal.
    public func onNext(_ element: Element) {}
}
""",
    "PublishRelay.swift": """
public final class PublishRelay<Element> {
    /// Subscribes `observer`; it receives elements only (never ``ObservableType/error(_:)`` or `completed`).
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
    }
}
""",
    "ShareReplayScope.swift": """
extension ObservableType {
    /// Shares one subscription to the source among all observers, replaying the last ``ObservableType/replay(_:)``
    /// elements to each new one.
    ///
    /// - Parameters:
    ///   - replay: How many elements to replay.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
    }
}

final private class ShareObservable<Element>: Observable<Element> {
    /// The lock-guarded bookkeeping, without the element type (so the per-element path needs no
    /// runtime metadata lookup); the replay buffer is the ``ObservableType/buffer(timeSpan:count:scheduler:)`` field, under the same lock.
    struct State {
        var observers = ObserverList()
        var buffer = ReplayBuffer<Element>()
    }
}
""",
    "VirtualTimeScheduler.swift": """
open class VirtualTimeScheduler {
    /// Schedules `action` at the virtual time ``ObservableType/interval(_:scheduler:)`` after the current clock, by the rule for
    /// due times.
    private func schedule<StateType>(_ state: StateType, after interval: RxTimeInterval, advancing: Bool, action: @escaping (StateType) -> Disposable)
        -> Disposable
    {
    }
}
""",
    "Maybe.swift": """
extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// A ``Maybe`` that succeeds with ``ObservableType/element(at:)`` at subscription.
    @inlinable
    public static func just(_ element: Element) -> Maybe<Element> {
    }
}
""",
    "Infallible.swift": """
extension ObservableConvertibleType {
    /// Converts to an ``Infallible`` that emits ``ObservableType/element(at:)`` and completes instead of failing.
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
    }
}
""",
    "SharedSequence.swift": """
extension SharedSequenceConvertibleType {
    /// Prepends ``ObservableType/element(at:)``.
    public func startWith(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
    }
}
""",
    "KeyedList.swift": """
struct KeyedList<Value> {
    /// The value held while it is the only one (``ObservableType/buffer(timeSpan:count:scheduler:)`` is then empty).
    private var single: Value?
    private var buffer: ContiguousArray<Value?> = []
}
""",
    "Relays.md": """
# Relays

A relay never sends ``ObservableType/error(_:)`` or `completed`: it only ever sends elements.
It sends [`element`](<doc:ObservableType/element(at:)>) to every observer.
""",
}
BAD_EXPECTED = {
    "PublishSubject.swift": 1, "PublishRelay.swift": 1, "ShareReplayScope.swift": 2,
    "VirtualTimeScheduler.swift": 1, "Maybe.swift": 1, "Infallible.swift": 1,
    "SharedSequence.swift": 1, "KeyedList.swift": 1, "Relays.md": 2,
}
GOOD = {
    "PublishSubject.swift": """
public final class PublishSubject<Element> {
    /// Sends `element` to every current observer; ignored after a terminal event or disposal.
    public func onNext(_ element: Element) {}
    /// Shares like ``ObservableType/share(replay:scope:)``; see also ``ObservableType/replay(_:)``.
    public func multicast(_ subject: Subject) -> Observable<Element> {}
}
""",
    "Creating.md": """
# Creating

``ObservableType/just(_:)``, ``ObservableType/empty()``, ``ObservableType/error(_:)``,
``ObservableType/never()`` emit inside ``ObservableType/subscribe(_:)``. A ``Driver`` of
``ObservableType/interval(_:scheduler:)`` elements; ``PublishSubject/onNext(_:)`` sends one.

```swift
let x = Observable.just(1) // ``ObservableType/element(at:)`` in a code block is not prose
```
""",
}


def self_test(root):
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for cases, expected_of in ((BAD, BAD_EXPECTED), (GOOD, None)):
            for name, content in cases.items():
                path = os.path.join(tmp, name)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(content)
                findings = []
                check_file(path, name, findings)
                expected = expected_of[name] if expected_of else 0
                if len(findings) != expected:
                    ok = False
                    print(f"self-test: {name}: expected {expected} finding(s), got {len(findings)}")
                    report(findings)
    findings = check_tree(root)
    if findings:
        ok = False
        print(f"self-test: the tree has {len(findings)} finding(s):")
        report(findings)
    print("self-test: " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def main(argv):
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    args = argv[1:]
    if args and args[0] == "--self-test":
        return self_test(args[1] if len(args) > 1 else root)
    if args:
        root = args[0]
    findings = check_tree(root)
    report(findings)
    if findings:
        print(f"check-symbol-links: {len(findings)} link(s) name a parameter, event or field "
              f"(see Scripts/check-symbol-links.py)")
        return 1
    print("check-symbol-links: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Fails on a change to the public API that CHANGELOG.md's `## [Unreleased]` section does not name.

    python3 Scripts/check-api.py [--no-build] [--scratch-path DIR]   # check (CI)
    python3 Scripts/check-api.py --write-baseline [--scratch-path DIR]  # at a release (Scripts/api-baseline.sh)
    python3 Scripts/check-api.py --self-test

The baseline is API/<Module>.json, one file per library product's module of Package.swift, written
by the toolchain's API digester (`swift-api-digester -dump-sdk`) from the last release's build and
checked in, so the check needs neither the network nor the git history. It is never edited by
hand: `Scripts/api-baseline.sh` writes it (RELEASING.md says when).

The check builds the library targets (debug, the default traits; `--no-build` when CI has just
built them), then, for each module, asks the digester to compare the built module with its
baseline (`swift-api-digester -diagnose-sdk -baseline-path API/<Module>.json`). Every line it
prints is a change that can break a user's code: a removed or renamed declaration, a changed type
or generic signature, a removed conformance, an enum case added. The digester does not see a public
declaration that became `package` or `@usableFromInline` (it still dumps those), so the check also
compares the two dumps for that; conversely it drops the digester's findings about `package` and
`@usableFromInline` declarations, which are not API. The new API itself (an added function, type or conformance) is
not a finding: additive changes pass.

Two findings are not breaks:
- a case added to an enum that the Versioning article
  (Sources/Streams/Streams.docc/Versioning.md) lists as "may grow": its users end their `switch`
  with `@unknown default`, as its doc comment says;
- nothing else. Every other finding fails unless it is named.

**Named** means: under `### Breaking`, `### Changed` or `### Removed` in the `## [Unreleased]`
section, a code span holds the symbol as this script prints it, with or without its argument list
and with or without its module: `ObservableType.ignoreElements()`, `ObservableType.ignoreElements`
or `Streams.ObservableType.ignoreElements()` name the finding
"Func ObservableType.ignoreElements() has been removed". A removed product is named by its module
name. Naming it is the author's statement that the break is on purpose; RELEASING.md then makes
the next release a minor one (before 1.0.0) or a major one.

The check also keeps the enum contract honest: every public enum with cases in the current API
must have a row in the Versioning article's table ("complete" or "may grow"), and its doc comment
must carry the sentence for that class (see ENUM_SENTENCES). A new enum, or one whose comment and
table disagree, fails with the line to add.

Only the standard library and the toolchain are used. Exits 1 on a finding, 0 otherwise.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BASELINE_DIR = "API"
CHANGELOG = "CHANGELOG.md"
VERSIONING_ARTICLE = "Sources/Streams/Streams.docc/Versioning.md"
NAMING_HEADINGS = ("breaking", "changed", "removed")
ENUM_SENTENCES = {
    "complete": "This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.",
    "may grow": "This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.",
}
DIGESTER = "swift-api-digester"


def run(args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs).stdout


def library_modules(root):
    """The modules of Package.swift's library products, in manifest order."""
    manifest = json.loads(run(["swift", "package", "dump-package", "--package-path", root]))
    modules = []
    for product in manifest.get("products", []):
        if "library" in product.get("type", {}):
            for target in product.get("targets", []):
                if target not in modules:
                    modules.append(target)
    return modules


def target_triple():
    info = json.loads(run(["swift", "-print-target-info"]))
    return info["target"]["triple"]


def build(root, scratch, modules):
    for module in modules:
        print("check-api: building %s" % module, flush=True)
        subprocess.run(["swift", "build", "--package-path", root, "--scratch-path", scratch,
                        "--target", module], check=True, stdout=subprocess.DEVNULL)


def dump(module, modules_dir, triple, output):
    """The digester's JSON dump of a built module's public API."""
    run([DIGESTER, "-dump-sdk", "-module", module, "-I", modules_dir, "-target", triple,
         "-avoid-location", "-avoid-tool-args", "-o", output])


def diagnose(module, baseline, modules_dir, triple):
    """The digester's findings for a built module against its baseline, one string each."""
    result = subprocess.run([DIGESTER, "-diagnose-sdk", "-module", module, "-baseline-path", baseline,
                             "-I", modules_dir, "-target", triple],
                            capture_output=True, text=True)
    findings = []
    for line in (result.stdout + "\n" + result.stderr).splitlines():
        line = line.strip()
        if line and not line.startswith("/*"):
            findings.append(line)
    if result.returncode != 0 and not findings:
        raise RuntimeError("%s -diagnose-sdk failed for %s (exit %d)" % (DIGESTER, module, result.returncode))
    return findings


def walk(node, path, visit):
    for child in node.get("children", []):
        if child.get("kind") in ("TypeNominal", "TypeFunc", "TypeNameAlias"):
            continue
        name = child.get("printedName") or child.get("name", "")
        child_path = path + [name] if child.get("kind") not in ("Root",) else path
        visit(child, child_path)
        walk(child, child_path, visit)


def declarations(tree):
    """{usr: (qualified printed name, is internal)} for every declaration of a dump."""
    found = {}

    def visit(node, path):
        usr = node.get("usr")
        if usr and node.get("declKind") and node.get("kind") != "Import":
            found.setdefault(usr, (".".join(path), bool(node.get("isInternal"))))

    walk(tree["ABIRoot"], [], visit)
    return found


def became_internal(old_tree, new_tree):
    """Findings for public declarations of the baseline that are now `package` or `@usableFromInline`."""
    old, new = declarations(old_tree), declarations(new_tree)
    findings = []
    for usr, (name, internal) in sorted(old.items(), key=lambda item: item[1][0]):
        if not internal and usr in new and new[usr][1]:
            findings.append("Decl %s is no longer public" % name)
    return findings


def not_public(tree):
    """The names of a dump's `package` and `@usableFromInline` declarations (the digester dumps
    them and reports their removal, but they are not API)."""
    names = declarations(tree).values()
    public = {name for name, internal in names if not internal}
    return {name for name, internal in names if internal} - public


def enums_with_cases(tree, module):
    """{qualified name: [cases]} for the public enums with cases that `module` declares."""
    found = {}

    def visit_types(node, path):
        for child in node.get("children", []):
            if child.get("kind") != "TypeDecl":
                continue
            child_path = path + [child["name"]]
            if child.get("moduleName") == module and child.get("declKind") == "Enum" and not child.get("isInternal"):
                cases = [c["name"] for c in child.get("children", []) if c.get("declKind") == "EnumElement"]
                if cases:
                    found[".".join(child_path)] = cases
            visit_types(child, child_path)

    visit_types(tree["ABIRoot"], [])
    return found


ROW = re.compile(r"^\|\s*`([A-Za-z0-9_.]+)`\s*\|\s*(\w+)\s*\|\s*(complete|may grow)\s*\|")


def enum_classes(article_text):
    """{(module, qualified name): "complete" | "may grow"} from the Versioning article's table."""
    found = {}
    for line in article_text.splitlines():
        match = ROW.match(line)
        if match:
            found[(match.group(2), match.group(1))] = match.group(3)
    return found


def unreleased_names(changelog_text):
    """The code spans under Breaking/Changed/Removed in `## [Unreleased]`, normalized."""
    names, in_unreleased, naming = set(), False, False
    for line in changelog_text.splitlines():
        if line.startswith("## "):
            in_unreleased = line.strip().lower().startswith("## [unreleased]")
            naming = False
        elif line.startswith("### ") and in_unreleased:
            naming = line[4:].strip().lower() in NAMING_HEADINGS
        elif in_unreleased and naming:
            for span in re.findall(r"`+([^`]+?)`+", line):
                names.add(normalize(span.strip()))
    return names


def normalize(name):
    """A symbol without its argument list: `A.b(c:)` → `A.b`."""
    return re.sub(r"\(.*\)$", "", name)


def subject(finding):
    """The symbol a digester finding is about ("Func A.b() has been removed" → "A.b()")."""
    parts = finding.split(" ")
    return parts[1] if len(parts) > 1 else finding


def is_named(finding, module, names):
    name = normalize(subject(finding))
    return name in names or "%s.%s" % (module, name) in names


def added_case_enum(finding):
    """The enum a finding adds a case to, or None."""
    if finding.startswith("EnumElement ") and finding.endswith("has been added as a new enum case"):
        return subject(finding).rsplit(".", 1)[0]
    return None


def judge(module, findings, classes, names):
    """(breaks nobody named, findings allowed), each a list of strings to print."""
    unnamed, allowed = [], []
    for finding in findings:
        enum = added_case_enum(finding)
        if enum is not None and classes.get((module, enum)) == "may grow":
            allowed.append("%s: %s (the enum may grow)" % (module, finding))
        elif is_named(finding, module, names):
            allowed.append("%s: %s (named in CHANGELOG.md)" % (module, finding))
        else:
            unnamed.append("%s: %s" % (module, finding))
    return unnamed, allowed


def enclosing_type(lines, index):
    """The name of the type or extension whose body holds line `index`, or None at file scope."""
    indent = len(lines[index]) - len(lines[index].lstrip())
    if indent == 0:
        return None
    opening = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|final|indirect)\s+)*"
                         r"(?:extension|struct|enum|class|actor|protocol)\s+([A-Za-z0-9_.]+)")
    for i in range(index - 1, -1, -1):
        line = lines[i]
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            match = opening.match(line)
            return match.group(1).split(".")[-1] if match else None
    return None


def doc_comment_finding(root, module, qualified, cls):
    """None if the enum's doc comment has its class's sentence, else what is wrong."""
    last = qualified.rsplit(".", 1)[-1]
    outer = qualified.rsplit(".", 1)[0] if "." in qualified else None
    declaration = re.compile(r"^\s*public enum %s\b" % re.escape(last))
    candidates = []
    for dirpath, _, files in sorted(os.walk(os.path.join(root, "Sources", module))):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            path = os.path.join(dirpath, file)
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
            for index, line in enumerate(lines):
                if declaration.match(line) and enclosing_type(lines, index) == (outer.split(".")[-1] if outer else None):
                    candidates.append((path, index, lines))
    if not candidates:
        return "%s: no `public enum %s` found under Sources/%s" % (module, qualified, module)
    path, index, lines = candidates[0]
    comment = []
    i = index - 1
    while i >= 0 and (lines[i].strip().startswith("@") or lines[i].strip().startswith("///")):
        if lines[i].strip().startswith("///"):
            comment.insert(0, lines[i].strip()[3:].strip())
        i -= 1
    text = " ".join(comment)
    if ENUM_SENTENCES[cls] not in text:
        return "%s:%d: %s's doc comment lacks the sentence of its class (%s): \"%s\"" % (
            os.path.relpath(path, root), index + 1, qualified, cls, ENUM_SENTENCES[cls])
    other = [c for c in ENUM_SENTENCES if c != cls and ENUM_SENTENCES[c] in text]
    if other:
        return "%s:%d: %s's doc comment says %s, the Versioning table %s" % (
            os.path.relpath(path, root), index + 1, qualified, other[0], cls)
    return None


def enum_contract_findings(root, module, tree, classes, check_sources=True):
    findings = []
    for qualified in sorted(enums_with_cases(tree, module)):
        cls = classes.get((module, qualified))
        if cls is None:
            findings.append("%s: the public enum %s is not in %s's table; add the row "
                            "\"| `%s` | %s | complete |\" or \"... | may grow |\", and its sentence to its doc comment"
                            % (module, qualified, VERSIONING_ARTICLE, qualified, module))
        elif check_sources:
            problem = doc_comment_finding(root, module, qualified, cls)
            if problem:
                findings.append(problem)
    return findings


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def check(root, modules_dir, triple, modules, baseline_dir, changelog_text, article_text, check_sources=True):
    """Prints the verdicts; returns the number of failures."""
    classes = enum_classes(article_text)
    names = unreleased_names(changelog_text)
    failures = 0
    work = tempfile.mkdtemp(prefix="check-api-")
    try:
        baselines = sorted(f[:-5] for f in os.listdir(baseline_dir) if f.endswith(".json")) if os.path.isdir(baseline_dir) else []
        for module in baselines:
            if module not in modules:
                finding = "Product %s has been removed" % module
                if module in names:
                    print("check-api: allowed: %s (named in CHANGELOG.md)" % finding)
                else:
                    print("check-api: BREAKING, not named in CHANGELOG.md's Unreleased section: %s" % finding)
                    failures += 1
        for module in modules:
            current = os.path.join(work, module + ".json")
            dump(module, modules_dir, triple, current)
            with open(current, encoding="utf-8") as f:
                new_tree = json.load(f)
            for problem in enum_contract_findings(root, module, new_tree, classes, check_sources):
                print("check-api: ENUM CONTRACT: %s" % problem)
                failures += 1
            baseline = os.path.join(baseline_dir, module + ".json")
            if not os.path.exists(baseline):
                print("check-api: %s: no baseline (a new product since the last release): nothing to compare" % module)
                continue
            with open(baseline, encoding="utf-8") as f:
                old_tree = json.load(f)
            findings = [f for f in diagnose(module, baseline, modules_dir, triple)
                        if subject(f) not in not_public(old_tree)] + became_internal(old_tree, new_tree)
            unnamed, allowed = judge(module, findings, classes, names)
            for line in allowed:
                print("check-api: allowed: %s" % line)
            for line in unnamed:
                print("check-api: BREAKING, not named in CHANGELOG.md's Unreleased section: %s" % line)
            failures += len(unnamed)
            print("check-api: %s: %d finding(s), %d not named" % (module, len(findings), len(unnamed)), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("check-api: %d failure(s). Name each intended break under `### Breaking`, `### Changed` or "
              "`### Removed` in CHANGELOG.md's `## [Unreleased]` section as a code span (e.g. `A.b(c:)`); "
              "a renamed API stays one minor version as `@available(*, deprecated, renamed:)` "
              "(see RELEASING.md)." % failures)
    return failures


def write_baseline(modules_dir, triple, modules, baseline_dir):
    os.makedirs(baseline_dir, exist_ok=True)
    for name in os.listdir(baseline_dir):
        if name.endswith(".json") and name[:-5] not in modules:
            os.remove(os.path.join(baseline_dir, name))
    for module in modules:
        output = os.path.join(baseline_dir, module + ".json")
        dump(module, modules_dir, triple, output)
        print("check-api: wrote %s (%d bytes)" % (output, os.path.getsize(output)))


# --- self-test: two versions of a small module, compiled and compared by the real digester -------

FIXTURE_V1 = """
/// A shape.
public enum Shape { case circle, square }
/// What can go wrong.
public enum Failure: Error { case broken }
public func kept() {}
public func removedLater() {}
public func hiddenLater() {}
public func renamedLater() {}
package func internalLater() {}
@usableFromInline func helper() {}
"""

FIXTURE_ARTICLE = """
| Enum | Module | Cases |
|---|---|---|
| `Shape` | Fixture | complete |
| `Failure` | Fixture | may grow |
"""


def fixture_changelog(section, *spans):
    lines = ["# Changelog", "", "## [Unreleased]", "", "### %s" % section, ""]
    lines += ["- `%s` changed on purpose." % span for span in spans]
    lines += ["", "## [0.1.0] - 2026-12-07", "", "### Breaking", "", "- `kept()` (an old release: does not count)."]
    return "\n".join(lines) + "\n"


def compile_fixture(source, folder):
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)
    path = os.path.join(folder, "Fixture.swift")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    run(["swiftc", "-emit-module", "-parse-as-library", "-module-name", "Fixture", "-package-name", "fixture",
         "-o", os.path.join(folder, "Fixture.swiftmodule"), path])


def self_test():
    import contextlib
    import io

    failures = []

    def expect(condition, message):
        if not condition:
            failures.append(message)

    # The pure parts.
    changelog = fixture_changelog("Removed", "Streams.Observable.foo(_:)", "Bar.baz")
    names = unreleased_names(changelog)
    expect(names == {"Streams.Observable.foo", "Bar.baz"}, "unreleased_names read %r" % names)
    expect(is_named("Func Observable.foo(_:) has been removed", "Streams", names), "a module-qualified span names")
    expect(is_named("Var Bar.baz has been removed", "Other", names), "a span without argument list names")
    expect(not is_named("Func kept() has been removed", "Fixture", unreleased_names(changelog)),
           "an older release's section does not name")
    expect(not unreleased_names(fixture_changelog("Added", "removedLater()")), "Added does not name a break")
    expect(added_case_enum("EnumElement A.B.c has been added as a new enum case") == "A.B", "nested enum")
    expect(enum_classes(FIXTURE_ARTICLE) == {("Fixture", "Shape"): "complete", ("Fixture", "Failure"): "may grow"},
           "enum_classes")

    if shutil.which(DIGESTER) is None or shutil.which("swiftc") is None:
        print("check-api: self-test: %s or swiftc not on PATH" % DIGESTER)
        return 1
    triple = target_triple()
    work = tempfile.mkdtemp(prefix="check-api-self-test-")
    try:
        base_dir = os.path.join(work, "baseline")
        os.makedirs(base_dir)
        compile_fixture(FIXTURE_V1, os.path.join(work, "v1"))
        dump("Fixture", os.path.join(work, "v1"), triple, os.path.join(base_dir, "Fixture.json"))

        cases = [
            # (what, the new source, the changelog, expected failures)
            ("unchanged", FIXTURE_V1, fixture_changelog("Added"), 0),
            ("additions only (a function, a type, a case of an enum that may grow)",
             FIXTURE_V1.replace("case broken", "case broken, worse") + "public func added() {}\npublic struct New {}\n",
             fixture_changelog("Added"), 0),
            ("a public function removed", FIXTURE_V1.replace("public func removedLater() {}\n", ""),
             fixture_changelog("Added", "removedLater()"), 1),
            ("a public function removed, named under Removed", FIXTURE_V1.replace("public func removedLater() {}\n", ""),
             fixture_changelog("Removed", "removedLater()"), 0),
            ("a case added to a complete enum", FIXTURE_V1.replace("case circle, square", "case circle, square, triangle"),
             fixture_changelog("Added"), 1),
            ("a case added to a complete enum, named under Breaking",
             FIXTURE_V1.replace("case circle, square", "case circle, square, triangle"),
             fixture_changelog("Breaking", "Shape.triangle"), 0),
            ("a public function made package", FIXTURE_V1.replace("public func hiddenLater", "package func hiddenLater"),
             fixture_changelog("Fixed"), 1),
            ("a package function and a @usableFromInline one removed, @inlinable added",
             FIXTURE_V1.replace("public func kept() {}", "@inlinable public func kept() {}")
             .replace("package func internalLater() {}\n", "").replace("@usableFromInline func helper() {}\n", ""),
             fixture_changelog("Fixed"), 0),
            ("a rename: the old name kept as deprecated, renamed:",
             FIXTURE_V1.replace("public func renamedLater() {}",
                                "public func renamed() {}\n@available(*, deprecated, renamed: \"renamed()\")\n"
                                "public func renamedLater() { renamed() }"),
             fixture_changelog("Deprecated"), 0),
            ("a rename without the deprecated name", FIXTURE_V1.replace("renamedLater", "renamed"),
             fixture_changelog("Deprecated"), 1),
            ("a new public enum with cases, not in the Versioning table",
             FIXTURE_V1 + "/// New.\npublic enum Mood { case calm }\n", fixture_changelog("Added"), 1),
        ]
        for what, source, changelog, expected in cases:
            folder = os.path.join(work, "v2")
            compile_fixture(source, folder)
            output = io.StringIO()
            with contextlib.redirect_stdout(output):
                got = check(work, folder, triple, ["Fixture"], base_dir, changelog, FIXTURE_ARTICLE,
                            check_sources=False)
            expect(got == expected, "%s: %d failure(s), expected %d:\n%s" % (what, got, expected, output.getvalue()))
            print("check-api: self-test: %-80s %d failure(s)%s" % (what, got, "" if got == expected else "  <-- WRONG"))

        # A product removed since the release.
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            got = check(work, folder, triple, [], base_dir, fixture_changelog("Added"), FIXTURE_ARTICLE, False)
            named = check(work, folder, triple, [], base_dir, fixture_changelog("Removed", "Fixture"), FIXTURE_ARTICLE, False)
        expect(got == 1 and named == 0, "a removed product: %d, named: %d\n%s" % (got, named, output.getvalue()))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    # The doc-comment sentence, read from a source tree.
    with tempfile.TemporaryDirectory() as root:
        folder = os.path.join(root, "Sources", "M")
        os.makedirs(folder)
        with open(os.path.join(folder, "E.swift"), "w", encoding="utf-8") as f:
            f.write("/// Good.\n///\n/// %s\n@frozen\npublic enum Good { case a }\n\n/// Bad.\npublic enum Bad { case b }\n"
                    "extension Outer {\n    /// Nested.\n    ///\n    /// %s\n    public enum Kind { case c }\n}\n"
                    % (ENUM_SENTENCES["complete"], ENUM_SENTENCES["may grow"]))
        expect(doc_comment_finding(root, "M", "Good", "complete") is None, "Good's sentence is found")
        expect(doc_comment_finding(root, "M", "Good", "may grow") is not None, "Good is not may grow")
        expect(doc_comment_finding(root, "M", "Bad", "complete") is not None, "Bad has no sentence")
        expect(doc_comment_finding(root, "M", "Outer.Kind", "may grow") is None, "a nested enum's sentence")

    for failure in failures:
        print("check-api: self-test FAILED: %s" % failure)
    if not failures:
        print("check-api: self-test passed")
    return 1 if failures else 0


def main(argv):
    args = argv[1:]
    if args == ["--self-test"]:
        return self_test()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    scratch = os.path.join(root, ".build")
    no_build = write = False
    while args:
        arg = args.pop(0)
        if arg == "--no-build":
            no_build = True
        elif arg == "--write-baseline":
            write = True
        elif arg == "--scratch-path" and args:
            scratch = os.path.abspath(args.pop(0))
        else:
            print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
            return 64
    if shutil.which(DIGESTER) is None:
        print("check-api: %s not found on PATH" % DIGESTER, file=sys.stderr)
        return 69
    modules = library_modules(root)
    if not no_build:
        build(root, scratch, modules)
    modules_dir = os.path.join(scratch, "debug", "Modules")
    triple = target_triple()
    baseline_dir = os.path.join(root, BASELINE_DIR)
    if write:
        write_baseline(modules_dir, triple, modules, baseline_dir)
        return 0
    failures = check(root, modules_dir, triple, modules, baseline_dir, read(os.path.join(root, CHANGELOG)),
                     read(os.path.join(root, VERSIONING_ARTICLE)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

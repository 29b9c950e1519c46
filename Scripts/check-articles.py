#!/usr/bin/env python3
"""Checks that the commands and paths the articles give a reader exist.

    python3 Scripts/check-articles.py [ROOT]     # check the package at ROOT (default: this one)
    python3 Scripts/check-articles.py --self-test

The style guide says "commands and virtual-time examples in articles are checked by CI". The
virtual-time examples are tests (Tests/*/Articles/, which read the articles' blocks); this script
checks the rest. An article once sent readers to `swift run item-list-feature-demo` and
`Examples/ItemListFeatureDemo/main.swift`, neither of which existed. In README.md, Guides/*.md and
every DocC article (Sources/*/*.docc/*.md) it fails, naming file:line, on

1. `swift run [options] PRODUCT [arguments]` (in prose, code spans and shell blocks) whose PRODUCT
   is not an executable product of Package.swift, or whose `--flag` arguments do not occur as a
   string literal ("--flag") in the sources of that product's target or the package targets it
   depends on (so a renamed or removed flag is caught), or whose own target never reads its
   arguments (no `CommandLine.arguments` in its sources: a flag found in a shared library
   target is then silently ignored, as `swift run group-comments-demo --local-server` once was);
2. `swift build --product PRODUCT` naming no product;
3. a path under Examples/, Sources/, Scripts/, Tests/, Benchmarks/, Fuzz/, Guides/ or .ci/ (or a
   relative link such as ../Sources/...) that does not exist. Paths inside ```swift blocks are the
   reader's own files in an example and are not checked; nor are paths through `.build`, which a
   build creates.

Products and target folders come from `swift package dump-package` (the manifest as SwiftPM reads
it). Only the standard library is used; exits 1 on a finding, 0 otherwise.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP_DIRS = ("Examples", "Sources", "Scripts", "Tests", "Benchmarks", "Fuzz", "Guides", ".ci")
PATH = re.compile(r"(?<![\w./>-])((?:\.\./)*(?:%s)/[A-Za-z0-9_.+/-]*)" % "|".join(re.escape(d) for d in TOP_DIRS))
RUN = re.compile(r"\bswift run\b([^`\n]*)")
BUILD_PRODUCT = re.compile(r"\bswift build\b[^`\n]*?--product[ =]([A-Za-z0-9_.-]+)")
# `swift run` options that take a value, and those that do not (the first other word is the product).
RUN_OPTIONS_WITH_VALUE = {"-c", "--configuration", "-Xswiftc", "-Xcc", "-Xlinker", "-Xcxx",
                          "--scratch-path", "--package-path", "--sanitize", "--triple", "--sdk",
                          "--swift-sdk", "-j", "--jobs"}
COMMAND_END = re.compile(r"\s(?:#|\||&&|;|>|2>|<)")


def articles(root):
    """README.md, Guides/*.md and every DocC article, as paths relative to root."""
    found = []
    if os.path.exists(os.path.join(root, "README.md")):
        found.append("README.md")
    guides = os.path.join(root, "Guides")
    if os.path.isdir(guides):
        found += sorted("Guides/" + n for n in os.listdir(guides) if n.endswith(".md"))
    sources = os.path.join(root, "Sources")
    if os.path.isdir(sources):
        for module in sorted(os.listdir(sources)):
            module_dir = os.path.join(sources, module)
            if not os.path.isdir(module_dir):
                continue
            for catalog in sorted(os.listdir(module_dir)):
                if catalog.endswith(".docc"):
                    for dirpath, _, names in sorted(os.walk(os.path.join(module_dir, catalog))):
                        for name in sorted(names):
                            if name.endswith(".md"):
                                found.append(os.path.relpath(os.path.join(dirpath, name), root))
    return found


def load_manifest(root):
    """The manifest as `swift package dump-package` prints it."""
    out = subprocess.run(["swift", "package", "dump-package", "--package-path", root],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def executables(manifest):
    """{product name: [target names]} for every product `swift run` accepts."""
    found = {}
    for product in manifest.get("products", []):
        if "executable" in product.get("type", {}):
            found[product["name"]] = list(product.get("targets", []))
    for target in manifest.get("targets", []):
        if target.get("type") == "executable" and target["name"] not in found:
            found[target["name"]] = [target["name"]]
    return found


def target_dirs(manifest, names):
    """The source folders of the targets `names` and of the package targets they depend on."""
    by_name = {t["name"]: t for t in manifest.get("targets", [])}
    seen, stack, dirs = set(), list(names), []
    while stack:
        name = stack.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        target = by_name[name]
        default = "Tests" if target.get("type") == "test" else "Sources"
        dirs.append(target.get("path") or os.path.join(default, name))
        for dep in target.get("dependencies", []):
            for kind in ("byName", "target"):
                if kind in dep and dep[kind]:
                    stack.append(dep[kind][0])
    return dirs


def reads_arguments(root, manifest, targets):
    """Whether the product's own targets (not their dependencies) read `CommandLine.arguments`."""
    by_name = {t["name"]: t for t in manifest.get("targets", [])}
    for name in targets:
        target = by_name.get(name, {})
        folder = os.path.join(root, target.get("path") or os.path.join("Sources", name))
        for dirpath, _, names in os.walk(folder):
            for file in names:
                if file.endswith(".swift"):
                    with open(os.path.join(dirpath, file), encoding="utf-8") as f:
                        if "CommandLine.arguments" in f.read():
                            return True
    return False


def flag_is_parsed(root, dirs, flag, cache):
    """Whether "flag" occurs as a string literal in a Swift file under dirs."""
    literal = '"%s"' % flag
    for d in dirs:
        if d not in cache:
            texts = []
            for dirpath, _, names in os.walk(os.path.join(root, d)):
                for name in names:
                    if name.endswith(".swift"):
                        with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                            texts.append(f.read())
            cache[d] = "\n".join(texts)
        if literal in cache[d]:
            return True
    return False


def parse_run(arguments):
    """(product, [--flags]) from what follows `swift run`; product None when there is none."""
    arguments = COMMAND_END.split(" " + arguments, maxsplit=1)[0]
    words = arguments.replace("\\", " ").split()
    i, product = 0, None
    while i < len(words):
        word = words[i]
        if word in RUN_OPTIONS_WITH_VALUE:
            i += 2
            continue
        if word.startswith("-"):
            i += 1
            continue
        product = word
        break
    if product is None:
        return None, []
    flags = []
    for word in words[i + 1:]:
        word = word.strip("[](),.")
        if re.fullmatch(r"--[a-z][a-z0-9-]*(=.*)?", word):
            flags.append(word.split("=", 1)[0])
    return product, flags


def check(root, manifest):
    products = executables(manifest)
    all_products = {p["name"] for p in manifest.get("products", [])} | set(products)
    findings, cache = [], {}
    for rel in articles(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            lines = f.read().split("\n")
        fence = None
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if stripped.startswith("```"):
                fence = None if fence is not None else (stripped[3:].strip() or "text")
                continue
            where = "%s:%d" % (rel, number)
            for match in RUN.finditer(line):
                product, flags = parse_run(match.group(1))
                if product is None or not re.fullmatch(r"[A-Za-z0-9_.-]+", product):
                    continue  # `swift run` named as a command in prose, or a placeholder
                if product not in products:
                    findings.append("%s: `swift run %s`: no executable product %r in Package.swift (products: %s)"
                                    % (where, product, product, ", ".join(sorted(products))))
                    continue
                dirs = target_dirs(manifest, products[product])
                if flags and not reads_arguments(root, manifest, products[product]):
                    findings.append("%s: `swift run %s %s`: %s never reads its arguments (no CommandLine.arguments in %s)"
                                    % (where, product, " ".join(flags), product, ", ".join(products[product])))
                    continue
                for flag in flags:
                    if not flag_is_parsed(root, dirs, flag, cache):
                        findings.append("%s: `swift run %s %s`: no \"%s\" in the sources of %s (%s)"
                                        % (where, product, flag, flag, product, ", ".join(dirs)))
            for match in BUILD_PRODUCT.finditer(line):
                if match.group(1) not in all_products:
                    findings.append("%s: `swift build --product %s`: no such product" % (where, match.group(1)))
            if fence == "swift":
                continue
            for match in PATH.finditer(line):
                path = match.group(1).rstrip(".,:;")
                if "/.build" in path or path.startswith(".build"):
                    continue
                base = root if not path.startswith("../") else os.path.dirname(os.path.join(root, rel))
                if not os.path.exists(os.path.normpath(os.path.join(base, path))):
                    findings.append("%s: %s does not exist" % (where, path))
    return findings


def self_test():
    tmp = tempfile.mkdtemp(prefix="check-articles-")
    try:
        def write(rel, text):
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        write("Package.swift", """// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "Fixture", targets: [
    .target(name: "Lib", path: "Examples/Lib"),
    .executableTarget(name: "good-demo", dependencies: ["Lib"], path: "Examples/GoodDemo"),
    .executableTarget(name: "deaf-demo", dependencies: ["Lib"], path: "Examples/DeafDemo"),
])
""")
        write("Examples/GoodDemo/main.swift", "import Lib\nprint(parse(CommandLine.arguments))\n")
        write("Examples/DeafDemo/main.swift", "import Lib\nprint(1)\n")
        write("Examples/Lib/Lib.swift", 'public func parse(_ arguments: [String]) -> Bool { arguments.contains("--fast") }\n')
        write("Guides/Good.md", "Run `swift run good-demo --fast` (source: `Examples/GoodDemo/main.swift`);\n"
              "or `swift run -c release good-demo`. Link: [x](../Examples/GoodDemo/main.swift).\n"
              "```swift\n// Sources/Tool/main.swift\n```\nBuild output: `Fuzz/.build/debug/<Target>`; `Examples/<Name>Demo/main.swift`.\n")
        write("README.md", "```sh\nswift run good-demo   # runs it\n```\n`swift run` alone is prose.\n")
        manifest = load_manifest(tmp)
        assert check(tmp, manifest) == [], check(tmp, manifest)
        write("Sources/Lib/Lib.docc/Bad.md", "Example: `Examples/BadDemo/main.swift` (`swift run bad-demo`)\n"
              "```sh\nswift run -c release good-demo --slow\nswift build -c release --product nope\n```\n"
              "[link](../../../Examples/Nothing.swift)\n`swift run deaf-demo --fast`; `swift run deaf-demo`\n")
        found = check(tmp, manifest)
        expected = [
            ("Bad.md:1", "Examples/BadDemo/main.swift does not exist"),
            ("Bad.md:1", "no executable product 'bad-demo'"),
            ("Bad.md:3", 'no "--slow" in the sources of good-demo'),
            ("Bad.md:4", "`swift build --product nope`: no such product"),
            ("Bad.md:6", "Examples/Nothing.swift does not exist"),
            ("Bad.md:7", "deaf-demo never reads its arguments"),
        ]
        for where, text in expected:
            assert any(where in f and text in f for f in found), (where, text, found)
        assert len(found) == len(expected), found
        assert parse_run(" -c release -Xswiftc -cross-module-optimization streams-bench --scale 0.1") == (
            "streams-bench", ["--scale"])
        assert parse_run(" firebase-test-server [--port N] [--api-key KEY]") == (
            "firebase-test-server", ["--port", "--api-key"])
        assert parse_run(" x --a | tee log --b") == ("x", ["--a"])
        assert parse_run("") == (None, [])
    finally:
        shutil.rmtree(tmp)
    print("check-articles: self-test passed")


def main(argv):
    if "--self-test" in argv:
        self_test()
        argv = [a for a in argv if a != "--self-test"]
    root = os.path.abspath(argv[0] if argv else os.path.join(os.path.dirname(__file__), ".."))
    findings = check(root, load_manifest(root))
    for finding in findings:
        print(finding)
    if findings:
        print("check-articles: %d finding(s)" % len(findings), file=sys.stderr)
        return 1
    print("check-articles: %d articles, every command names a product and every path exists" % len(articles(root)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Keeps the version the documentation shows equal to VERSION.

    python3 Scripts/docs-version.py           # check (CI): exit 1 when a landing page disagrees
    python3 Scripts/docs-version.py --write   # at a release (RELEASING.md): rewrite the pages
    python3 Scripts/docs-version.py --self-test

Each DocC catalog's landing page (Sources/<Module>/<Module>.docc/<Module>.md) says, in its
Overview, "This documentation is for version X.Y.Z of the Streams packages". VERSION at the root
holds the version of the last release (or of the release being cut); the Swift Package Index and
Scripts/build-docs.sh build the pages from the same commit, so the site shows the version it
documents, and Scripts/check-docs.py checks that it is rendered. Only the standard library is used.
"""

import os
import re
import sys
import tempfile

SENTENCE = re.compile(r"This documentation is for version (\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?) of the Streams packages")
VERSION = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$")


def landing_pages(root):
    found = []
    sources = os.path.join(root, "Sources")
    for module in sorted(os.listdir(sources)):
        page = os.path.join(sources, module, module + ".docc", module + ".md")
        if os.path.isfile(page):
            found.append(page)
    return found


def read_version(root):
    with open(os.path.join(root, "VERSION"), encoding="utf-8") as f:
        version = f.read().strip()
    if not VERSION.match(version):
        raise SystemExit("docs-version: VERSION holds %r, not a semantic version" % version)
    return version


def run(root, write):
    version = read_version(root)
    problems = []
    for page in landing_pages(root):
        with open(page, encoding="utf-8") as f:
            text = f.read()
        found = SENTENCE.findall(text)
        name = os.path.relpath(page, root)
        if len(found) != 1:
            problems.append("%s: %d sentences \"This documentation is for version … of the Streams packages\", expected 1"
                            % (name, len(found)))
        elif found[0] != version:
            if write:
                with open(page, "w", encoding="utf-8") as f:
                    f.write(SENTENCE.sub(lambda m: m.group(0).replace(m.group(1), version), text))
                print("docs-version: %s: %s -> %s" % (name, found[0], version))
            else:
                problems.append("%s says version %s, VERSION %s (run python3 Scripts/docs-version.py --write)"
                                % (name, found[0], version))
    for problem in problems:
        print("docs-version: %s" % problem)
    if not problems and not write:
        print("docs-version: every landing page shows version %s" % version)
    return 1 if problems else 0


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "Sources", "M", "M.docc"))
        page = os.path.join(root, "Sources", "M", "M.docc", "M.md")
        with open(os.path.join(root, "VERSION"), "w") as f:
            f.write("0.2.0\n")
        with open(page, "w") as f:
            f.write("# M\n\nThis documentation is for version 0.1.0 of the Streams packages.\n")
        failures = []
        if run(root, write=False) != 1:
            failures.append("a stale page passed")
        run(root, write=True)
        if run(root, write=False) != 0 or "version 0.2.0 of" not in open(page).read():
            failures.append("--write did not update the page")
        with open(page, "w") as f:
            f.write("# M\n")
        if run(root, write=False) != 1:
            failures.append("a page without the sentence passed")
    for failure in failures:
        print("docs-version: self-test FAILED: %s" % failure)
    print("docs-version: self-test %s" % ("failed" if failures else "passed"))
    return 1 if failures else 0


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if argv[1:] == ["--self-test"]:
        return self_test()
    if argv[1:] not in ([], ["--write"]):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 64
    return run(root, write=argv[1:] == ["--write"])


if __name__ == "__main__":
    sys.exit(main(sys.argv))

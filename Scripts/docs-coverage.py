#!/usr/bin/env python3
"""Checks one converted DocC archive: no diagnostics, and every public symbol curated.

usage: Scripts/docs-coverage.py ARCHIVE.doccarchive DIAGNOSTICS.json

Fails (exit 1) when
- DocC reported any diagnostic (warning or note; the build runs `docc convert --analyze`), or
- a page that must be fully curated has a topic group DocC generated itself. Those pages are the
  module's landing page (every top-level symbol sits in a named group there) and, in Streams,
  ObservableType (every operator sits in its family's group). A generated group means a public
  symbol was added without a place in the docs.
"""

import json
import pathlib
import sys

# Pages, relative to data/documentation/<module>/, whose topics must all be curated by hand.
CURATED_PAGES = {"streams": ["observabletype"]}


def diagnostics_of(path: pathlib.Path) -> list[str]:
    if not path.exists():
        return []
    report = json.loads(path.read_text())
    found = []
    for diagnostic in report.get("diagnostics", []):
        where = diagnostic.get("source", "") or ""
        start = (diagnostic.get("range") or {}).get("start") or {}
        line = f":{start['line']}" if "line" in start else ""
        found.append(f"{diagnostic.get('severity', '?')}: {where}{line}: {diagnostic.get('summary', '')}")
    return found


def generated_groups(page: pathlib.Path) -> list[str]:
    render = json.loads(page.read_text())
    problems = []
    for section in render.get("topicSections", []):
        if section.get("generated"):
            names = [identifier.rsplit("/", 1)[-1] for identifier in section.get("identifiers", [])]
            problems.append(f"{page.name}: uncurated group '{section.get('title')}': {', '.join(names)}")
    return problems


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 64
    archive, diagnostics = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    documentation = archive / "data" / "documentation"
    landing_pages = sorted(documentation.glob("*.json"))
    if len(landing_pages) != 1:
        print(f"docs-coverage: expected one module page in {documentation}, found {len(landing_pages)}", file=sys.stderr)
        return 1
    module = landing_pages[0].stem
    problems = diagnostics_of(diagnostics)
    pages = [landing_pages[0]] + [documentation / module / f"{name}.json" for name in CURATED_PAGES.get(module, [])]
    for page in pages:
        if not page.exists():
            problems.append(f"{page}: missing")
            continue
        problems += generated_groups(page)
    if problems:
        print(f"docs-coverage: {module}: {len(problems)} problem(s)", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print(f"docs-coverage: {module}: no diagnostics, every public symbol on {len(pages)} page(s) curated")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks the static DocC site that Scripts/build-docs.sh writes, in a real browser.

    Scripts/check-docs.py SITE_DIR [--screenshots DIR]   check the site
    Scripts/check-docs.py --self-test SITE_DIR            prove the check can fail

The site is served on 127.0.0.1 (a free port) and the pages in PAGES are loaded
in headless Chromium (--dump-dom); the rendered DOM must show the expected <h1>,
no DocC error state, a non-empty abstract and real content, and a module page the
version it documents (VERSION at the root).  Every internal link
(the rendered pages' <a href>, every render JSON's references and inline links,
the navigator index) must name a page or file of the site.  Screenshots of the
pages in SCREENSHOTS are written to the screenshot directory.

Exit status 0 when every check passes, 1 when one fails (one line per failure),
2 on a usage or environment error.  Standard library only.
"""

import argparse
import concurrent.futures
import functools
import html.parser
import http.server
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

# --------------------------------------------------------------------------------------
# What is checked.  One row per page: (label, where, expected <h1>, kind).
#   where: a site path, or ("method", parent path, name prefix) to find a symbol page
#          through index/index.json (overloads carry a hash suffix in their URL).
#   expected <h1>: the title as DocC renders it; None takes the page's own render JSON
#          title (used for the articles until their titles are settled; pin them then).
#   kind: "module" (Topics with links), "symbol" (a declaration), "article" (body text).
PAGES = [
    ("Streams module", "/documentation/streams", "Streams", "module"),
    ("StreamsTest module", "/documentation/streamstest", "StreamsTest", "module"),
    ("StreamsBlocking module", "/documentation/streamsblocking", "StreamsBlocking", "module"),
    ("StreamsInspector module", "/documentation/streamsinspector", "StreamsInspector", "module"),
    ("ConfigFeatures module", "/documentation/configfeatures", "ConfigFeatures", "module"),
    ("PublishSubject", "/documentation/streams/publishsubject", "PublishSubject", "symbol"),
    ("ObservableType.flatMapLatest", ("method", "/documentation/streams/observabletype", "flatmaplatest"),
     "flatMapLatest(_:)", "symbol"),
    ("TestScheduler", "/documentation/streamstest/testscheduler", "TestScheduler", "symbol"),
    ("RemoteConfig", "/documentation/configfeatures/remoteconfig", "RemoteConfig", "symbol"),
    ("Streams article", "/documentation/streams/subjects", "Subjects and Relays", "article"),
    ("StreamsTest article", "/documentation/streamstest/testing", "Testing", "article"),
    ("StreamsBlocking article", "/documentation/streamsblocking/blocking", "Blocking", "article"),
    ("StreamsInspector article", "/documentation/streamsinspector/debuggingstreams", "Debugging streams", "article"),
    ("ConfigFeatures article", "/documentation/configfeatures/features-launch", "Launch gate (LaunchViewModel)", "article"),
    ("Versioning article", "/documentation/streams/versioning", "Versioning and API stability", "article"),
]
SCREENSHOTS = [
    "/documentation/streams",
    "/documentation/streamstest",
    "/documentation/configfeatures",
    "/documentation/streams/subjects",
]
# Each module page shows the version it documents (VERSION at the root; Scripts/docs-version.py).
with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "VERSION"), encoding="utf-8") as _f:
    VERSION_TEXT = "This documentation is for version %s of the Streams packages" % _f.read().strip()
MIN_MAIN_TEXT = {"module": 200, "symbol": 80, "article": 80}  # characters of text in <main>
MIN_TOPIC_LINKS = 3  # a module page's Topics section lists at least this many pages
WINDOW_SIZE = "1280,1600"
VIRTUAL_TIME_BUDGET_MS = 15000
BROWSER_TIMEOUT_S = 120
BROWSER_PROCESSES = 2
DOC_ROOTS = ("/documentation", "/tutorials")  # pages whose content is data/<path>.json
SOURCE_SUFFIXES = (".md", ".swift", ".docc", ".tutorial")  # never a page of the built site


# --------------------------------------------------------------------------------------
# Serving the site.

class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static hosting as DocC expects it: a folder is served as its index.html, with or
    without the trailing slash (the default handler answers 301 to the slashed form and
    lists folders without an index.html; here there is no redirect and no listing)."""

    def __init__(self, *args, record=None, **kwargs):
        self.record = record
        super().__init__(*args, **kwargs)

    def send_head(self):
        parts = urllib.parse.urlsplit(self.path)
        local = self.translate_path(parts.path)
        if os.path.isdir(local):
            if not os.path.isfile(os.path.join(local, "index.html")):
                self.send_error(404, "No index.html in this folder")
                return None
            self.path = urllib.parse.urlunsplit(
                ("", "", parts.path.rstrip("/") + "/index.html", parts.query, ""))
        return super().send_head()

    def log_message(self, format, *args):
        pass

    def log_request(self, code="-", size="-"):
        if self.record is not None:
            self.record.append((str(code), self.path))


class SiteServer:
    def __init__(self, root):
        self.requests = []
        handler = functools.partial(SiteHandler, directory=root, record=self.requests)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.base = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


# --------------------------------------------------------------------------------------
# The rendered DOM.

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr"}


class Dom(html.parser.HTMLParser):
    """What the checks need from a page Chromium rendered."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, classes, id, capture) of the open elements
        self.h1 = []  # [classes, text, in main]
        self.hero_abstract = None
        self.error = False
        self.main_text = []
        self.declarations = 0
        self.topic_links = 0
        self.paragraphs = 0
        self.links = []

    def _inside(self, cls=None, id=None):
        return any((cls and cls in c) or (id and i == id) for _, c, i, _ in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        ident = a.get("id")
        if tag == "a" and a.get("href") is not None:
            self.links.append(a["href"])
        if "generic-error" in classes or "error-content" in classes:
            self.error = True
        in_main = self._inside(id="app-main")
        if in_main and tag == "section" and "declaration" in classes:
            self.declarations += 1
        if in_main and "link-block" in classes and self._inside(cls="contenttable"):
            self.topic_links += 1
        if in_main and tag == "p" and self._inside(cls="primary-content"):
            self.paragraphs += 1
        if tag in VOID:
            return
        capture = None
        if tag == "h1":
            capture = [classes, [], in_main]
            self.h1.append(capture)
        elif ("abstract" in classes and self.hero_abstract is None
              and self._inside(cls="documentation-hero__content")):
            capture = self.hero_abstract = [classes, [], True]
        self.stack.append((tag, classes, ident, capture))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        for n in range(len(self.stack) - 1, -1, -1):
            if self.stack[n][0] == tag:
                del self.stack[n:]
                return

    def handle_data(self, data):
        if any(t in ("script", "style", "noscript") for t, _, _, _ in self.stack):
            return
        for _, _, _, capture in self.stack:
            if capture is not None:
                capture[1].append(data)
        if self._inside(id="app-main"):
            self.main_text.append(data)

    @staticmethod
    def text(parts):
        return re.sub(r"\s+", " ", "".join(parts)).strip()

    def title(self):
        """The DocC title element: <h1 class="title"> in <main> (not the noscript one)."""
        for classes, parts, in_main in self.h1:
            if in_main and "title" in classes:
                return self.text(parts)
        for classes, parts, in_main in self.h1:
            if "noscript-title" not in classes:
                return self.text(parts)
        return None


# --------------------------------------------------------------------------------------
# Chromium.

def find_chromium():
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def run_chromium(chromium, url, *flags):
    profile = tempfile.mkdtemp(prefix="check-docs-profile-")
    try:
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--no-first-run", "--no-default-browser-check", "--disable-extensions",
               "--hide-scrollbars", "--mute-audio", "--user-data-dir=" + profile,
               "--virtual-time-budget=%d" % VIRTUAL_TIME_BUDGET_MS, *flags, url]
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=BROWSER_TIMEOUT_S, text=True, errors="replace")
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def render(chromium, url):
    """The page's DOM after DocC rendered it; one retry when the title is not there yet."""
    dom = None
    for attempt in range(2):
        try:
            proc = run_chromium(chromium, url, "--dump-dom")
        except subprocess.TimeoutExpired:
            dom, err = None, "Chromium timed out after %ds" % BROWSER_TIMEOUT_S
            continue
        dom, err = Dom(), None
        dom.feed(proc.stdout)
        dom.close()
        if not proc.stdout.strip():
            err = "Chromium returned no DOM (exit %d): %s" % (proc.returncode, proc.stderr.strip()[-300:])
        elif dom.title() is not None or dom.error:
            break
    return dom, err


def screenshot(chromium, url, path):
    try:
        proc = run_chromium(chromium, url, "--screenshot=" + path, "--window-size=" + WINDOW_SIZE,
                            "--run-all-compositor-stages-before-draw")
    except subprocess.TimeoutExpired:
        return "Chromium timed out after %ds" % BROWSER_TIMEOUT_S
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return "no screenshot written (exit %d): %s" % (proc.returncode, proc.stderr.strip()[-300:])
    return None


# --------------------------------------------------------------------------------------
# The site's files.

def data_file(site, path):
    return os.path.join(site, "data", path.strip("/") + ".json")


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def navigator_nodes(site):
    path = os.path.join(site, "index", "index.json")
    if not os.path.isfile(path):
        return None
    out = []

    def walk(nodes):
        for node in nodes or []:
            out.append(node)
            walk(node.get("children"))

    for nodes in load_json(path).get("interfaceLanguages", {}).values():
        walk(nodes)
    return out


def resolve_page(site, where, nodes):
    """The site paths of a PAGES row (several for an overloaded method)."""
    if isinstance(where, str):
        return [where]
    _, parent, prefix = where
    found = []
    for node in nodes or []:
        path = node.get("path") or ""
        if (posixpath.dirname(path) == parent and posixpath.basename(path).startswith(prefix)
                and node.get("type") == "method"):
            found.append(path)
    if not found:  # no navigator index: look in the data folder
        folder = os.path.join(site, "data", parent.strip("/"))
        if os.path.isdir(folder):
            found = [parent + "/" + f[:-5] for f in sorted(os.listdir(folder))
                     if f.startswith(prefix) and f.endswith(".json")]
    return sorted(set(found))


class Links:
    """Every link met, where it was met, and the verdict on each internal one."""

    def __init__(self, site):
        self.site = site
        self.internal = {}  # target path -> set of pages it is on
        self.external = {}
        self.problems = []  # (kind, url, page)
        self.count = 0

    def add(self, url, page):
        """url as written on page (an href of a rendered page, a URL of a render JSON)."""
        self.count += 1
        parts = urllib.parse.urlsplit(url)
        if parts.scheme in ("http", "https", "mailto"):
            self.external.setdefault(url, set()).add(page)
            return
        if parts.scheme in ("doc", ""):
            if url.startswith("doc:"):
                self.problems.append(("an unresolved DocC link", url, page))
                return
        else:
            self.problems.append(("a link with an unexpected scheme", url, page))
            return
        if not parts.path:  # "#anchor" on the same page
            return
        path = urllib.parse.unquote(parts.path)
        source = path.lower().endswith(SOURCE_SUFFIXES)
        if not path.startswith("/"):  # DocC writes every link to the site from its root
            what = "a relative link to a source file" if source else "a relative link"
            self.problems.append((what + " (leaves the site's folder structure)", url, page))
            return
        if source:
            self.problems.append(("a link to a source file", url, page))
            return
        self.internal.setdefault(path, set()).add(page)

    def verify(self):
        for path, pages in sorted(self.internal.items()):
            why = self.missing(path)
            if why:
                for page in sorted(pages):
                    self.problems.append(("a broken link (%s)" % why, path, page))

    @functools.lru_cache(maxsize=None)
    def missing(self, path):
        clean = posixpath.normpath(path) if path not in ("", "/") else "/"
        if clean.startswith(".."):
            return "outside the site"
        local = os.path.join(self.site, clean.lstrip("/"))
        if any(clean == r or clean.startswith(r + "/") for r in DOC_ROOTS):
            if not os.path.isfile(data_file(self.site, clean)):
                return "no render JSON data%s.json" % clean
            if not os.path.isfile(os.path.join(local, "index.html")):
                return "no %s/index.html for static hosting" % clean
            return None
        if os.path.isfile(local) or os.path.isfile(os.path.join(local, "index.html")):
            return None
        return "no such file"


def crawl_render_json(site, links):
    """Links in every render JSON: references (url, variants) and inline content; and
    identifiers the content uses that its references do not define."""
    count = 0
    data = os.path.join(site, "data")
    for folder, _, files in os.walk(data):
        for name in files:
            if not name.endswith(".json"):
                continue
            file = os.path.join(folder, name)
            page = "/" + os.path.relpath(file, data)[:-5].replace(os.sep, "/")
            try:
                doc = load_json(file)
            except (OSError, ValueError) as e:
                links.problems.append(("an unreadable render JSON (%s)" % e, file, page))
                continue
            count += 1
            refs = doc.get("references") or {}
            for ref in refs.values():
                if isinstance(ref.get("url"), str):
                    links.add(ref["url"], page)
                for variant in ref.get("variants") or []:
                    if isinstance(variant, dict) and isinstance(variant.get("url"), str):
                        links.add(variant["url"], page)
            used = set()

            def walk(node):
                if isinstance(node, dict):
                    if node.get("type") == "reference" and isinstance(node.get("identifier"), str):
                        used.add(node["identifier"])
                    if isinstance(node.get("destination"), str):
                        links.add(node["destination"], page)
                    for k, v in node.items():
                        if k == "identifiers" and isinstance(v, list):  # topic, see also, relationships
                            used.update(i for i in v if isinstance(i, str))
                        elif k != "references":
                            walk(v)
                elif isinstance(node, list):
                    for v in node:
                        walk(v)

            walk(doc)
            for path in (doc.get("hierarchy") or {}).get("paths") or []:  # the breadcrumbs
                used.update(i for i in path if isinstance(i, str))
            for identifier in sorted(used):
                if isinstance(identifier, str) and identifier not in refs:
                    links.problems.append(("a reference its JSON does not define", identifier, page))
    return count


# --------------------------------------------------------------------------------------
# The check.

def check_page(dom, err, expected, kind):
    """The failures of one rendered page (empty when it is fine)."""
    if err:
        return [err]
    if dom.error:
        return ["DocC shows its error state (%r)" % (dom.title() or "")]
    out = []
    title = dom.title()
    if title is None:
        out.append("no <h1> title rendered")
    elif title != expected:
        out.append("<h1> is %r, expected %r" % (title, expected))
    abstract = Dom.text(dom.hero_abstract[1]) if dom.hero_abstract else ""
    if not abstract:
        out.append("no abstract (the summary paragraph under the title is missing or empty)")
    main = len(Dom.text(dom.main_text))
    if main < MIN_MAIN_TEXT[kind]:
        out.append("only %d characters of text in <main>, expected at least %d" % (main, MIN_MAIN_TEXT[kind]))
    if kind == "module" and dom.topic_links < MIN_TOPIC_LINKS:
        out.append("Topics lists %d pages, expected at least %d" % (dom.topic_links, MIN_TOPIC_LINKS))
    if kind == "symbol" and dom.declarations == 0:
        out.append("no declaration section")
    if kind == "article" and dom.paragraphs == 0:
        out.append("no paragraph of body text")
    return out


def check(site, shots, quiet=False, only=None):
    """Runs every check on site; returns the list of failures.  only: the PAGES labels to
    render (all when None); shots None: no screenshots."""
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, flush=True))
    start = time.monotonic()
    chromium = find_chromium()
    if not chromium:
        return ["no Chromium found (install Debian's chromium, or set CHROMIUM)"]
    site = os.path.abspath(site)
    failures = []
    if not os.path.isfile(os.path.join(site, "index.html")):
        failures.append("site: no index.html in %s" % site)
    nodes = navigator_nodes(site)
    if nodes is None:
        failures.append("site: no navigator index index/index.json")

    # The pages: which exist, what title each must show.
    jobs = []  # (label, path, expected, kind)
    for label, where, expected, kind in PAGES:
        if only is not None and label not in only:
            continue
        paths = resolve_page(site, where, nodes)
        if not paths:
            failures.append("%s: no page found for %r (not in index/index.json nor data/)" % (label, where))
        for path in paths:
            file = data_file(site, path)
            if not os.path.isfile(file):
                failures.append("%s %s: page missing from the site (no data%s.json)" % (label, path, path))
                continue
            want = expected
            if want is None:
                want = (load_json(file).get("metadata") or {}).get("title") or "?"
            jobs.append((label, path, want, kind))

    links = Links(site)
    with SiteServer(site) as server:
        with concurrent.futures.ThreadPoolExecutor(BROWSER_PROCESSES) as pool:
            rendered = list(pool.map(lambda j: render(chromium, server.base + j[1]), jobs))
            for (label, path, want, kind), (dom, err) in zip(jobs, rendered):
                problems = check_page(dom, err, want, kind)
                if kind == "module" and dom and not err and VERSION_TEXT not in Dom.text(dom.main_text):
                    problems.append("the page does not show %r (VERSION; Scripts/docs-version.py)" % VERSION_TEXT)
                say("page %-30s %-62s %s" % (label, path, "ok" if not problems else "FAILED"))
                failures += ["%s %s: %s" % (label, path, p) for p in problems]
                for href in (dom.links if dom else []):
                    links.add(href, path)
            dom_links = links.count

            # Screenshots, of the pages that exist.
            targets = []
            for path in SCREENSHOTS if shots is not None else []:
                if os.path.isfile(data_file(site, path)):
                    name = path.strip("/").replace("/", "-") or "index"
                    targets.append((path, os.path.join(os.path.abspath(shots), name + ".png")))
                else:
                    say("screenshot of %s skipped: the page is missing" % path)
            if targets:
                os.makedirs(shots, exist_ok=True)
            errors = pool.map(lambda t: screenshot(chromium, server.base + t[0], t[1]), targets)
            written = []
            for (path, file), err in zip(targets, errors):
                if err:
                    failures.append("screenshot %s: %s" % (path, err))
                else:
                    written.append(file)
        not_found = sorted({p for code, p in server.requests if code == "404"})

    # Every link of the site, statically.
    documents = crawl_render_json(site, links)
    for node in nodes or []:
        if node.get("path"):
            links.add(node["path"], "index/index.json")
    links.verify()
    seen = set()
    for kind, url, page in links.problems:
        if (kind, url, page) not in seen:
            seen.add((kind, url, page))
            failures.append("link: %s on %s: %s" % (kind, page, url))
    broken = len(seen)

    say("")
    say("external links (listed, not fetched): %d" % len(links.external))
    for url in sorted(links.external):
        say("  %s  (on %d page%s, e.g. %s)" % (url, len(links.external[url]),
                                                 "" if len(links.external[url]) == 1 else "s",
                                                 sorted(links.external[url])[0]))
    if not_found:
        say("requests the server answered 404 while rendering (informational): " + ", ".join(not_found))
    say("")
    say("summary")
    say("  pages checked:    %d rendered of %d in the table" % (len(jobs), len(PAGES) if only is None else len(only)))
    say("  links crawled:    %d (%d from rendered pages, %d from %d render JSON files and the navigator), "
        "%d distinct internal targets, %d external"
        % (links.count, dom_links, links.count - dom_links, documents, len(links.internal), len(links.external)))
    say("  broken links:     %d" % broken)
    say("  screenshots:      " + (", ".join(written) if written else "none"))
    say("  elapsed:          %.1f s" % (time.monotonic() - start))
    return failures


def report(failures):
    if failures:
        print("\nFAILED: %d problem%s" % (len(failures), "" if len(failures) == 1 else "s"))
        for f in failures:
            print("  - " + f)
        return 1
    print("\nall checks passed")
    return 0


# --------------------------------------------------------------------------------------
# The self-test: break a copy of the site twice and see both reported.

def self_test(site):
    start = time.monotonic()
    work = tempfile.mkdtemp(prefix="check-docs-selftest-")
    try:
        copy = os.path.join(work, "site")
        shutil.copytree(site, copy)
        emptied = "/documentation/streams/publishsubject"
        linked_from = "/documentation/streamstest/testscheduler"
        target = "/documentation/streamstest/no-such-page"
        # The intact copy must not already show the two failures the self-test expects.
        before = check(copy, None, quiet=True, only={"PublishSubject", "TestScheduler"})
        before = [f for f in before if emptied in f or target in f]
        if before:
            print("self-test FAILED: the intact site already reports:\n  - " + "\n  - ".join(before))
            return 1
        print("self-test: the intact copy reports nothing about %s nor %s" % (emptied, target))
        # (a) empty a checked page: its abstract, sections and declarations go.
        file = data_file(copy, emptied)
        doc = load_json(file)
        for key in ("abstract", "primaryContentSections", "topicSections", "relationshipsSections",
                    "seeAlsoSections", "sections"):
            doc.pop(key, None)
        with open(file, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        # (b) a broken link on another page: a See Also entry to a page that does not exist.
        file = data_file(copy, linked_from)
        doc = load_json(file)
        identifier = "doc://org.streams.StreamsTest" + target
        doc.setdefault("seeAlsoSections", []).append(
            {"title": "Self-test", "identifiers": [identifier], "generated": False})
        doc["references"][identifier] = {
            "type": "topic", "kind": "article", "role": "article", "identifier": identifier,
            "title": "No such page", "url": target, "abstract": []}
        with open(file, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        print("self-test: broke a copy of the site in %s" % copy)
        print("  (a) emptied %s: removed its abstract and content sections from data%s.json"
              % (emptied, emptied))
        print("  (b) added a See Also link on %s to %s, which does not exist" % (linked_from, target))
        failures = check(copy, os.path.join(work, "shots"), quiet=True)
        print("the check reported %d problem%s:" % (len(failures), "" if len(failures) == 1 else "s"))
        for f in failures:
            print("  - " + f)
        expected = {
            "(a) the emptied page fails": lambda f: f.startswith("PublishSubject " + emptied + ": no abstract"),
            "(b) the broken link is reported with its page":
                lambda f: f.startswith("link: a broken link") and linked_from in f and f.endswith(target),
        }
        ok = True
        for what, test in expected.items():
            hit = any(test(f) for f in failures)
            ok &= hit
            print("%s: %s" % ("ok  " if hit else "MISSED", what))
        print("self-test %s (%.1f s)" % ("passed" if ok and failures else "FAILED", time.monotonic() - start))
        return 0 if ok and failures else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", metavar="SITE_DIR")
    parser.add_argument("--screenshots", metavar="DIR", default=os.path.join(".build", "docs-screenshots"))
    parser.add_argument("--self-test", action="store_true", help="break a copy of the site, expect failures")
    args = parser.parse_args()
    if not os.path.isdir(args.site):
        print("check-docs: no such site folder: %s" % args.site, file=sys.stderr)
        return 2
    if args.self_test:
        return self_test(args.site)
    print("checking the DocC site in %s" % os.path.abspath(args.site))
    return report(check(args.site, args.screenshots))


if __name__ == "__main__":
    sys.exit(main())

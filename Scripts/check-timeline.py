#!/usr/bin/env python3
"""Checks the stream inspector's timeline page in headless Chromium.

usage: Scripts/check-timeline.py TIMELINE.html [--screenshot FILE.png] [--expect LABEL ...]
                                 [--allow-missing-debug-info]

Written by `swift run streams-demo --timeline TIMELINE.html`. The page is loaded in headless
Chromium (Debian's `chromium`, or $CHROMIUM) and its rendered DOM must show:
- the "Named streams" timeline, one lane per label that delivered events, every label given
  with --expect among them;
- in each lane, as many marbles (elements, errors, completions) as the page's own JSON data
  records for that label, and as the lane's data-marks says;
- marble positions that grow with time, lane by lane;
- the live graph, one section per chain in the JSON;
- where and when, measured by a probe script run in the page after its own (a copy of the page
  with the probe appended, loaded in a 1400x1200 window):
  - fit to width: every --expect lane has a marble inside the initial viewport (and inside its
    timeline box, unscrolled); the + button zooms in (the box then scrolls sideways) and Fit
    zooms back out;
  - call sites: every chain's "Subscribed from" names a Swift function and a `file.swift:line`,
    never a raw address alone (--allow-missing-debug-info accepts a function or an address with
    the page's note on what is missing, for release or stripped builds);
  - threads: no thread is shown by libdispatch's worker name (`-qos.overcommit`);
  - values: clicking the marble with the longest value, and Return on another focused marble,
    show that whole value (as the page's JSON records it) in the detail panel; hovering shows it
    in the tooltip.
Exit status 0 when everything holds, 1 with one line per problem, 2 on usage errors.
"""

import argparse
import html
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

WINDOW = (1400, 1200)

# Run in the page after its own script; writes what it measured into <pre id="timeline-check">.
PROBE = r"""
<script>
(function () {
  var result = { ready: document.documentElement.dataset.timelineReady === "1", lanes: {}, origins: [], threads: [] };
  var data = JSON.parse(document.getElementById("inspector-data").textContent);
  var width = document.documentElement.clientWidth, height = window.innerHeight;
  var box = document.getElementById("named-streams");
  var area = box ? box.getBoundingClientRect() : null;
  document.querySelectorAll("#named-streams g.lane").forEach(function (lane) {
    var inside = 0, marks = lane.querySelectorAll("g.next, g.error, g.completion");
    marks.forEach(function (mark) {
      var b = mark.getBoundingClientRect(), x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
      if (x >= Math.max(0, area.left) && x <= Math.min(width, area.right) && y >= 0 && y <= height) inside += 1;
    });
    result.lanes[lane.dataset.title] = { marks: marks.length, inside: inside };
  });
  document.querySelectorAll(".origin").forEach(function (cell) { result.origins.push(cell.textContent); });
  document.querySelectorAll(".thread").forEach(function (cell) { result.threads.push(cell.textContent); });
  data.events.forEach(function (event) { result.threads.push(event.thread); });
  function shows(mark, selector) {
    var event = data.events[parseInt(mark.dataset.event, 10)];
    var node = document.querySelector(selector);
    var shown = node ? node.textContent : null;
    var holder = node && node.closest("[hidden]");
    return { index: parseInt(mark.dataset.event, 10), expected: event.value, shown: shown, visible: !!node && !holder };
  }
  var marks = Array.prototype.slice.call(document.querySelectorAll("#named-streams [data-event]"));
  var valued = marks.filter(function (mark) { return data.events[parseInt(mark.dataset.event, 10)].value; });
  valued.sort(function (a, b) {
    return data.events[parseInt(b.dataset.event, 10)].value.length - data.events[parseInt(a.dataset.event, 10)].value.length;
  });
  if (valued.length > 0) {
    valued[0].dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
    result.hover = shows(valued[0], "#hover pre.value");
    valued[0].dispatchEvent(new MouseEvent("click", { bubbles: true }));
    result.click = shows(valued[0], "#detail pre.value");
    var other = valued[valued.length > 1 ? 1 : 0];
    other.focus();
    result.focusable = document.activeElement === other;
    other.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    result.key = shows(other, "#detail pre.value");
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    result.escapeCloses = document.getElementById("detail").hidden;
  }
  var svg = box && box.querySelector("svg");
  var toolbar = box && box.previousElementSibling;
  if (svg && toolbar && toolbar.classList.contains("zoom")) {
    var fitted = parseFloat(svg.dataset.zoom);
    result.fitScrolls = box.scrollWidth > box.clientWidth + 1;
    toolbar.querySelector("[data-zoom=in]").click();
    result.zoomedIn = parseFloat(svg.dataset.zoom) > fitted && box.scrollWidth > box.clientWidth + 1;
    toolbar.querySelector("[data-zoom=fit]").click();
    result.fitAgain = Math.abs(parseFloat(svg.dataset.zoom) - fitted) < 1e-6;
  }
  var out = document.createElement("pre");
  out.id = "timeline-check";
  out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
})();
</script>
"""
FUNCTION_AND_LINE = re.compile(r"^Subscribed from (?!0x)\S.* at [\w.+-]+\.swift:\d+\b")
ADDRESS_ONLY = re.compile(r"^Subscribed from (\S*\(\+0x[0-9a-f]+\)|\S+ 0x[0-9a-f]+|0x[0-9a-f]+)\s*$")


def probe_problems(measured, expect, allow_missing_debug_info):
    """What the probe measured, against the requirements; one line per problem."""
    problems = []
    if not measured.get("ready"):
        problems.append("the page's script did not run (no data-timeline-ready)")
    for label in expect:
        lane = measured["lanes"].get(label)
        if lane and lane["inside"] == 0:
            problems.append(f"lane {label}: none of its {lane['marks']} marbles is inside the initial {WINDOW[0]}x{WINDOW[1]} viewport")
    if not measured["origins"]:
        problems.append("no \"Subscribed from\" cells")
    for origin in measured["origins"]:
        origin = " ".join(origin.split())
        if ADDRESS_ONLY.match(origin):
            problems.append(f"a raw address only: {origin}")
        elif not allow_missing_debug_info and not FUNCTION_AND_LINE.match(origin):
            problems.append(f"no Swift function and file.swift:line: {origin}")
    bad_threads = sorted({thread for thread in measured["threads"] if thread.startswith("-") or thread.endswith("qos.overcommit")})
    for thread in bad_threads:
        problems.append(f"a thread shown by libdispatch's worker name: {thread}")
    for name, what in (("hover", "hovering"), ("click", "clicking"), ("key", "Return on")):
        shown = measured.get(name)
        if shown is None:
            problems.append(f"{what} a marble: no marble with a value to try")
        elif not shown["visible"] or shown["shown"] != shown["expected"]:
            length = None if shown["shown"] is None else len(shown["shown"])
            problems.append(f"{what} the marble of event {shown['index']} shows {length} characters, not its whole value ({len(shown['expected'])})")
    if measured.get("focusable") is False:
        problems.append("a marble cannot take the keyboard focus")
    if measured.get("escapeCloses") is False:
        problems.append("Escape does not close the detail panel")
    if measured.get("zoomedIn") is not True:
        problems.append("the + button does not zoom the named-streams timeline in (with a sideways scroll)")
    if measured.get("fitAgain") is not True:
        problems.append("Fit does not return to the fitted zoom")
    if measured.get("fitScrolls"):
        problems.append("fitted, the named-streams timeline still scrolls sideways")
    return problems


class TimelineParser(html.parser.HTMLParser):
    """Collects the named-streams lanes, their marks, the chain sections and the JSON data."""

    def __init__(self):
        super().__init__()
        self.in_named = 0
        self.lane = None
        self.lanes = []
        self.chains = 0
        self.in_data = False
        self.data = ""

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "div" and attributes.get("id") == "named-streams":
            self.in_named = 1
            return
        if self.in_named and tag == "div":
            self.in_named += 1
        if self.in_named and tag == "g" and "lane" in classes:
            self.lane = {"title": attributes.get("data-title"), "declared": int(attributes.get("data-marks", "-1")), "marks": []}
            self.lanes.append(self.lane)
        elif self.in_named and self.lane is not None and tag == "g" and classes and classes[0] in ("next", "error", "completion"):
            self.lane["marks"].append((float(attributes.get("data-time", "nan")), float(attributes.get("data-x", "nan"))))
        if tag == "section" and "chain" in classes:
            self.chains += 1
        if tag == "script" and attributes.get("id") == "inspector-data":
            self.in_data = True

    def handle_endtag(self, tag):
        if self.in_named and tag == "div":
            self.in_named -= 1
            if self.in_named == 0:
                self.lane = None
        if tag == "script":
            self.in_data = False

    def handle_data(self, data):
        if self.in_data:
            self.data += data


def main():
    parser = argparse.ArgumentParser(description="Check the inspector timeline page in headless Chromium.")
    parser.add_argument("page")
    parser.add_argument("--screenshot")
    parser.add_argument("--expect", nargs="*", default=[])
    parser.add_argument("--allow-missing-debug-info", action="store_true",
                        help="accept call sites without file:line (a release or stripped build), not raw addresses alone")
    arguments = parser.parse_args()
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("check-timeline: chromium not found (install Debian's chromium)", file=sys.stderr)
        return 2
    if not os.path.isfile(arguments.page):
        print(f"check-timeline: no page at {arguments.page}", file=sys.stderr)
        return 2
    url = "file://" + os.path.abspath(arguments.page)
    flags = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000", f"--window-size={WINDOW[0]},{WINDOW[1]}"]
    with open(arguments.page, encoding="utf-8") as source:
        original = source.read()
    cut = original.rfind("</body>")
    with tempfile.TemporaryDirectory() as directory:
        probed = os.path.join(directory, "probed.html")
        with open(probed, "w", encoding="utf-8") as copy:
            copy.write(original[:cut] + PROBE + original[cut:] if cut >= 0 else original + PROBE)
        dom = subprocess.run(flags + ["--dump-dom", "file://" + probed], capture_output=True, text=True, timeout=180).stdout
    page = TimelineParser()
    page.feed(dom)
    problems = []
    if not dom.strip():
        problems.append("the page rendered nothing")
    try:
        data = json.loads(page.data)
    except ValueError:
        data = {"snapshot": {"chains": []}, "events": []}
        problems.append("the page's inspector data is not JSON")
    expected = {}
    for event in data["events"]:
        if event.get("label"):
            expected[event["label"]] = expected.get(event["label"], 0) + 1
    titles = [lane["title"] for lane in page.lanes]
    if not page.lanes:
        problems.append("no named-streams lanes rendered")
    for label in arguments.expect:
        if label not in titles:
            problems.append(f"no lane for the named stream {label}")
    if sorted(titles) != sorted(expected):
        problems.append(f"lanes {sorted(titles)} differ from the labels in the data {sorted(expected)}")
    for lane in page.lanes:
        count = len(lane["marks"])
        if count != lane["declared"] or count != expected.get(lane["title"], -1):
            problems.append(f"lane {lane['title']}: {count} marbles drawn, data-marks {lane['declared']}, {expected.get(lane['title'])} events recorded")
        ordered = sorted(lane["marks"])
        if [x for _, x in ordered] != sorted(x for _, x in ordered):
            problems.append(f"lane {lane['title']}: positions do not grow with time")
    if page.chains != len(data["snapshot"]["chains"]):
        problems.append(f"{page.chains} chain sections rendered, {len(data['snapshot']['chains'])} chains in the data")
    found = re.search(r'<pre id="timeline-check">(.*?)</pre>', dom, re.S)
    measured = None
    if not found:
        problems.append("the probe wrote no measurements (the page's script failed?)")
    else:
        measured = json.loads(html.unescape(found.group(1)))
        problems += probe_problems(measured, arguments.expect, arguments.allow_missing_debug_info)
    if arguments.screenshot:
        os.makedirs(os.path.dirname(os.path.abspath(arguments.screenshot)), exist_ok=True)
        subprocess.run(flags + [f"--screenshot={arguments.screenshot}", url], capture_output=True, timeout=180)
        if not os.path.isfile(arguments.screenshot):
            problems.append(f"no screenshot written to {arguments.screenshot}")
    for lane in page.lanes:
        inside = measured["lanes"].get(lane["title"], {}).get("inside", "?") if measured else "?"
        print(f"lane {lane['title']:32} {len(lane['marks']):4} marbles, {inside} in the initial viewport")
    if measured:
        print(f"subscribed from, e.g.: {' '.join(measured['origins'][0].split()) if measured['origins'] else '(none)'}")
        print(f"threads: {', '.join(sorted(set(measured['threads']))[:8])}")
    print(f"{page.chains} chains in the live graph; screenshot: {arguments.screenshot or '(none)'}")
    if problems:
        print(f"check-timeline: {len(problems)} problem(s)", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        return 1
    print("check-timeline: the timeline renders as recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main())

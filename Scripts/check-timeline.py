#!/usr/bin/env python3
"""Checks the stream inspector's timeline page in headless Chromium.

usage: Scripts/check-timeline.py TIMELINE.html [--screenshot FILE.png] [--expect LABEL ...]

Written by `swift run streams-demo --timeline TIMELINE.html`. The page is loaded in headless
Chromium (Debian's `chromium`, or $CHROMIUM) and its rendered DOM must show:
- the "Named streams" timeline, one lane per label that delivered events, every label given
  with --expect among them;
- in each lane, as many marbles (elements, errors, completions) as the page's own JSON data
  records for that label, and as the lane's data-marks says;
- marble positions that grow with time, lane by lane;
- the live graph, one section per chain in the JSON.
Exit status 0 when everything holds, 1 with one line per problem, 2 on usage errors.
"""

import argparse
import html.parser
import json
import os
import shutil
import subprocess
import sys


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
    arguments = parser.parse_args()
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("check-timeline: chromium not found (install Debian's chromium)", file=sys.stderr)
        return 2
    if not os.path.isfile(arguments.page):
        print(f"check-timeline: no page at {arguments.page}", file=sys.stderr)
        return 2
    url = "file://" + os.path.abspath(arguments.page)
    flags = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000"]
    dom = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
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
    if arguments.screenshot:
        os.makedirs(os.path.dirname(os.path.abspath(arguments.screenshot)), exist_ok=True)
        subprocess.run(flags + [f"--screenshot={arguments.screenshot}", "--window-size=1400,1200", url], capture_output=True, timeout=120)
        if not os.path.isfile(arguments.screenshot):
            problems.append(f"no screenshot written to {arguments.screenshot}")
    for lane in page.lanes:
        print(f"lane {lane['title']:32} {len(lane['marks']):4} marbles")
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

#!/usr/bin/env python3
"""Reads `strace -f -e trace=connect` logs and fails on any connection that leaves this machine.

    python3 Scripts/check-loopback.py TRACE... [--home DIR]
    python3 Scripts/check-loopback.py --self-test

Allowed: AF_INET to 127.0.0.0/8, AF_INET6 to ::1 (or ::ffff:127.x.x.x), and local IPC (AF_UNIX,
AF_NETLINK, AF_UNSPEC). Refused: every other address, and any connection to port 53 even on
loopback (a DNS lookup means some code tried to resolve a host name). With --home, the folder
must hold no file afterwards: nothing may write into the user's home (the empty folders
Foundation's URLSession creates on Linux for its shared cache and cookie store are listed, not
refused). Exits 1 on a finding,
2 on bad usage; prints what it counted.
"""
import os
import re
import sys

CONNECT = re.compile(r"connect\(\d+, \{sa_family=(?P<family>AF_\w+)(?P<rest>.*?)\}, \d+\)")
IPV4 = re.compile(r'sin_port=htons\((?P<port>\d+)\), sin_addr=inet_addr\("(?P<addr>[\d.]+)"\)')
IPV6 = re.compile(r'sin6_port=htons\((?P<port>\d+)\).*inet_pton\(AF_INET6, "(?P<addr>[0-9a-fA-F:.]+)"')
LOCAL_FAMILIES = {"AF_UNIX", "AF_NETLINK", "AF_UNSPEC"}
# The empty folders swift-corelibs-foundation makes on Linux when any URLSessionConfiguration is
# created (URLCache.shared under the cache folder, HTTPCookieStorage.shared under the data folder,
# named after the process): allowed while empty, listed; a file anywhere in HOME is a finding.
FOUNDATION_FOLDERS = re.compile(r"^(\.cache(/org\.swift\.foundation\.URLCache(/[^/]+)?)?|\.local(/share(/[^/]+)?)?)$")


def classify(line):
    """(verdict, what) for one trace line: verdict is None (not a connect), 'ok' or 'refused'."""
    match = CONNECT.search(line)
    if not match:
        return None, None
    family, rest = match.group("family"), match.group("rest")
    if family in LOCAL_FAMILIES:
        return "ok", family
    if family == "AF_INET":
        address = IPV4.search(rest)
        if not address:
            return "refused", "unparsed AF_INET address: " + line.strip()
        host, port = address.group("addr"), int(address.group("port"))
        where = "%s:%d" % (host, port)
        if port == 53:
            return "refused", "DNS lookup via " + where
        return ("ok", where) if host.startswith("127.") else ("refused", "connect to " + where)
    if family == "AF_INET6":
        address = IPV6.search(rest)
        if not address:
            return "refused", "unparsed AF_INET6 address: " + line.strip()
        host, port = address.group("addr").lower(), int(address.group("port"))
        where = "[%s]:%d" % (host, port)
        if port == 53:
            return "refused", "DNS lookup via " + where
        loopback = host == "::1" or host.startswith("::ffff:127.")
        return ("ok", where) if loopback else ("refused", "connect to " + where)
    return "refused", "connect with address family %s: %s" % (family, line.strip())


def check(traces, home=None):
    """The findings (a list of strings) and counts for the given trace files."""
    findings, allowed = [], {}
    for path in traces:
        with open(path, encoding="utf-8", errors="replace") as trace:
            for line in trace:
                verdict, what = classify(line)
                if verdict == "ok":
                    key = "AF_UNIX/NETLINK/UNSPEC" if what in LOCAL_FAMILIES else "loopback"
                    allowed[key] = allowed.get(key, 0) + 1
                elif verdict == "refused":
                    findings.append("%s: %s" % (os.path.basename(path), what))
    notes = []
    if home is not None:
        for folder, _, files in os.walk(home):
            for name in files:
                findings.append("written into HOME: " + os.path.relpath(os.path.join(folder, name), home))
            if folder != home:
                relative = os.path.relpath(folder, home)
                if FOUNDATION_FOLDERS.match(relative):
                    notes.append(relative + "/")
                else:
                    findings.append("created in HOME: " + relative + "/")
    return findings, allowed, notes


def self_test():
    lines = {
        'connect(3, {sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr("127.0.0.1")}, 16) = -1': "ok",
        'connect(4, {sa_family=AF_INET6, sin6_port=htons(9), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0': "ok",
        'connect(3, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT': "ok",
        'connect(3, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16) = 0': "refused",
        'connect(3, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.53")}, 16) = 0': "refused",
        'connect(7, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("142.250.74.106")}, 16) = -1 ENETUNREACH': "refused",
        'connect(7, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2a00:1450::5f", &sin6_addr), sin6_scope_id=0}, 28) = -1': "refused",
        "12 --- SIGCHLD {si_signo=SIGCHLD} ---": None,
    }
    failures = 0
    for line, expected in lines.items():
        verdict, what = classify(line)
        if verdict != expected:
            failures += 1
            print("self-test: %r gave %s (%s), expected %s" % (line, verdict, what, expected))
    import tempfile
    with tempfile.TemporaryDirectory() as home:
        os.makedirs(os.path.join(home, ".cache/org.swift.foundation.URLCache/tool"))
        os.makedirs(os.path.join(home, ".local/share/debug"))
        if check([], home)[0]:
            failures += 1
            print("self-test: Foundation's empty folders were refused")
        os.makedirs(os.path.join(home, ".local/share/Firebase"))
        with open(os.path.join(home, ".local/share/Firebase/Installations-test.json"), "w") as f:
            f.write("{}")
        if check([], home)[0] != ["written into HOME: .local/share/Firebase/Installations-test.json"]:
            failures += 1
            print("self-test: a file in HOME was not reported: %s" % check([], home)[0])
    print("self-test: %s" % ("passed" if failures == 0 else "%d failure(s)" % failures))
    return 1 if failures else 0


def main(arguments):
    if arguments == ["--self-test"]:
        return self_test()
    home = None
    if "--home" in arguments:
        index = arguments.index("--home")
        if index + 1 >= len(arguments):
            print("check-loopback: --home needs a folder", file=sys.stderr)
            return 2
        home = arguments[index + 1]
        arguments = arguments[:index] + arguments[index + 2:]
    if not arguments:
        print(__doc__, file=sys.stderr)
        return 2
    findings, allowed, notes = check(arguments, home)
    counted = ", ".join("%d %s" % (count, kind) for kind, count in sorted(allowed.items())) or "no connections"
    if findings:
        print("check-loopback: %d finding(s) (allowed: %s):" % (len(findings), counted))
        for finding in findings[:50]:
            print("  - " + finding)
        return 1
    print("check-loopback: every connection stayed on this machine (%s)%s" % (counted, "; no file in HOME" if home else ""))
    if notes:
        print("  (empty folders Foundation's URLSession makes on Linux: %s)" % ", ".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

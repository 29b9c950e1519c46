#!/usr/bin/env bash
# Proves that the test suite and the demos touch nothing but loopback and write nothing into the
# user's home: Scripts/check-loopback.sh (after `swift build --build-tests`).
#
# Runs the XCTest bundle, `streams-demo` and `streams-demo --local-server` under
# `strace -f -e trace=connect` with an empty HOME (and TMPDIR in a scratch folder), then
# Scripts/check-loopback.py fails on any connection to an address that is not loopback, any DNS
# lookup, and any file left in that HOME. Installs Debian's strace if it is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [[ -d /opt/swift/usr/bin ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
if ! command -v strace >/dev/null; then
    echo "check-loopback: installing strace"
    apt-get install -y -q strace >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q strace >/dev/null; }
fi
python3 Scripts/check-loopback.py --self-test
bin="$(swift build --show-bin-path)"
for product in StreamsPackageTests.xctest streams-demo; do
    [[ -x "$bin/$product" ]] || { echo "check-loopback: $bin/$product is missing; run swift build --build-tests first" >&2; exit 1; }
done
work="$(mktemp -d "${TMPDIR:-/tmp}/check-loopback.XXXXXX")"
home="$work/home"
mkdir -p "$home" "$work/tmp"
status=0
traced() {
    local label="$1"; shift
    echo "check-loopback: $label"
    if ! env -i PATH="$PATH" HOME="$home" TMPDIR="$work/tmp" LANG=C.UTF-8 \
        strace -f -qq --seccomp-bpf -e trace=connect -o "$work/$label.trace" "$@" > "$work/$label.log" 2>&1; then
        echo "check-loopback: $label failed; the end of its output ($work/$label.log):" >&2
        tail -40 "$work/$label.log" >&2
        status=1
    fi
}
traced tests "$bin/StreamsPackageTests.xctest"
traced demo "$bin/streams-demo"
traced demo-local-server "$bin/streams-demo" --local-server
python3 Scripts/check-loopback.py "$work"/*.trace --home "$home" || status=1
[[ $status -eq 0 ]] && rm -rf "$work"
exit $status

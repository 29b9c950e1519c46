#!/usr/bin/env bash
# Writes the release's public API baseline: Scripts/api-baseline.sh
#
# Builds every library product's module of Package.swift (debug, default traits, in .build or in
# API_SCRATCH if set) and writes API/<Module>.json with the toolchain's API digester
# (`swift-api-digester -dump-sdk`, no file paths, no tool arguments), replacing the old files.
# CI's `python3 Scripts/check-api.py` compares the built modules with these files and fails on a
# break that CHANGELOG.md's `## [Unreleased]` section does not name.
#
# Run it at a release, on the commit that becomes the release (RELEASING.md), after merging
# branches that change the API on purpose, and after a toolchain update; never edit API/ by hand.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [[ -d /opt/swift/usr/bin ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
python3 Scripts/check-api.py --write-baseline --scratch-path "${API_SCRATCH:-$root/.build}"

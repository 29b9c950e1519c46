#!/usr/bin/env bash
# Checks FirebaseTestServer against Google's official client: installs `firebase-admin` from
# PyPI into a virtual environment (FIREBASE_ADMIN_VENV, default .build/firebase-admin-venv),
# starts `firebase-test-server --require-token owner` on loopback and runs
# Scripts/firebase_admin_check.py against it (FIREBASE_DATABASE_EMULATOR_HOST).
#
# Exits non-zero when a check fails. When the package index cannot be reached, it says so and
# exits 0 (skipped): the checks need the official package, which cannot be vendored here.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

venv="${FIREBASE_ADMIN_VENV:-.build/firebase-admin-venv}"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import firebase_admin' 2>/dev/null; then
    python3 -m venv "$venv"
    if ! "$venv/bin/pip" install --quiet --disable-pip-version-check firebase-admin; then
        if ! "$venv/bin/pip" download --quiet --no-deps -d "$(mktemp -d)" six >/dev/null 2>&1; then
            echo "firebase-admin-check: SKIPPED: the Python package index cannot be reached to install firebase-admin"
            exit 0
        fi
        echo "firebase-admin-check: could not install firebase-admin" >&2
        exit 1
    fi
fi
echo "== firebase-admin $("$venv/bin/python" -c 'import firebase_admin; print(firebase_admin.__version__)')"

swift build --product firebase-test-server >/dev/null
bin="$(swift build --show-bin-path)/firebase-test-server"
work="$(mktemp -d)"
"$bin" --require-token owner --port-file "$work/port" >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
    [ -s "$work/port" ] && break
    sleep 0.1
done
if [ ! -s "$work/port" ]; then
    cat "$work/server.log" >&2
    echo "firebase-admin-check: the server did not start" >&2
    exit 1
fi
port="$(tr -d '[:space:]' <"$work/port")"
FIREBASE_DATABASE_EMULATOR_HOST="127.0.0.1:$port" "$venv/bin/python" Scripts/firebase_admin_check.py

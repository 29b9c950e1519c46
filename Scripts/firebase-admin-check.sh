#!/usr/bin/env bash
# Checks FirebaseTestServer against Google's official client: installs `firebase-admin` from
# PyPI into a virtual environment (FIREBASE_ADMIN_VENV, default .build/firebase-admin-venv) and
# runs Scripts/firebase_admin_check.py (FIREBASE_DATABASE_EMULATOR_HOST) four times, each against
# its own `firebase-test-server` on loopback:
#   1. `--require-token app-token`: tokens are required, and the SDK's emulator credential
#      (`Authorization: Bearer owner`, the emulator's admin) must still be accepted;
#   2. `--database seed.json`: the SDK must read the seeded contents;
#   3. `--database-rules Scripts/firebase-admin-rules.json`: firebase-admin's
#      `databaseAuthVariableOverride` for allowed and denied reads, writes, updates and queries,
#      then the table of rules cases from Firebase's documentation (Scripts/rules-cases.json);
#   4. `--require-auth --auth-users users.json` with FIREBASE_AUTH_EMULATOR_HOST too: the `auth`
#      module (users, custom tokens and claims, verify_id_token on our ID tokens, revocation,
#      disabled users) and the database accepting our ID tokens. Before it, `auth-token-demo`
#      (our Swift `FirebaseAuth`) signs in three ways (anonymously, with the seeded user's email
#      and password, and a new email account) against a server started the same way, and writes
#      each ID token to a file; the run verifies them with `verify_id_token` (`--id-token-file`).
#      The tokens never reach stdout.
#   4. a bare server for Remote Config server templates: Scripts/firebase_admin_server_template_check.py
#      publishes generated templates (PUT …/namespaces/firebase-server/serverRemoteConfig), loads
#      each with firebase-admin's ServerTemplate.load() and with our RemoteConfigServerTemplate
#      (`server-template-eval`), evaluates 10,000 generated contexts with both and requires every
#      parameter's value and source to be identical.
#
# Arguments are passed to the auth run: `--id-token-file FILE` verifies the ID tokens in FILE (one
# per line) with verify_id_token, e.g. a token our Swift client obtained.
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
swift build --product auth-token-demo >/dev/null
swift build --product server-template-eval >/dev/null
bin="$(swift build --show-bin-path)/firebase-test-server"
token_bin="$(swift build --show-bin-path)/auth-token-demo"
eval_bin="$(swift build --show-bin-path)/server-template-eval"
work="$(mktemp -d)"
servers=()
trap 'for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT

# start_server NAME ARGS...: starts the server with ARGS and sets `port`.
start_server() {
    local name="$1"
    shift
    "$bin" "$@" --port-file "$work/$name.port" >"$work/$name.log" 2>&1 &
    servers+=("$!")
    for _ in $(seq 1 100); do
        [ -s "$work/$name.port" ] && break
        sleep 0.1
    done
    if [ ! -s "$work/$name.port" ]; then
        cat "$work/$name.log" >&2
        echo "firebase-admin-check: the server ($name) did not start" >&2
        exit 1
    fi
    port="$(tr -d '[:space:]' <"$work/$name.port")"
}

status=0
echo "== firebase-test-server --require-token app-token"
start_server tokens --require-token app-token
FIREBASE_DATABASE_EMULATOR_HOST="127.0.0.1:$port" FIREBASE_ADMIN_CHECK=tokens "$venv/bin/python" Scripts/firebase_admin_check.py || status=1

echo "== firebase-test-server --database seed.json"
cat >"$work/seed.json" <<'JSON'
{"users": {"ann": {"name": "Ann", "score": 10}, "bob": {"name": "Bob", "score": 20}}, "flags": {"beta": true}}
JSON
start_server seeded --database "$work/seed.json"
FIREBASE_DATABASE_EMULATOR_HOST="127.0.0.1:$port" FIREBASE_ADMIN_CHECK=seeded "$venv/bin/python" Scripts/firebase_admin_check.py || status=1

echo "== firebase-test-server --database-rules Scripts/firebase-admin-rules.json"
start_server rules --database-rules Scripts/firebase-admin-rules.json
FIREBASE_DATABASE_EMULATOR_HOST="127.0.0.1:$port" FIREBASE_ADMIN_CHECK=rules "$venv/bin/python" Scripts/firebase_admin_check.py || status=1

echo "== firebase-test-server --require-auth --auth-users users.json"
cat >"$work/users.json" <<'JSON'
[{"uid": "seed-ann", "email": "seed-ann@example.com", "password": "seeded1", "customClaims": {"team": "red"}}]
JSON
# Our Swift client signs in against a server of its own (started like the checked one), so the
# users it creates do not change what the auth run lists; an emulator's ID tokens carry no
# signature to check, so verify_id_token judges them by their claims, wherever they came from.
start_server swift-auth --require-auth --auth-users "$work/users.json"
token_files=()
# sign_in NAME ARGS...: our Swift client signs in with ARGS and writes its ID token to $work/NAME.token.
sign_in() {
    local name="$1"
    shift
    if "$token_bin" --emulator-host "127.0.0.1:$port" --id-token-file "$work/$name.token" "$@"; then
        token_files+=(--id-token-file "$work/$name.token")
    else
        echo "firebase-admin-check: auth-token-demo could not sign in ($name)" >&2
        status=1
    fi
}
sign_in swift-anonymous --anonymous
sign_in swift-password --email seed-ann@example.com --password seeded1
sign_in swift-new-account --email swift-new@example.com --password created1 --create
start_server auth --require-auth --auth-users "$work/users.json"
FIREBASE_DATABASE_EMULATOR_HOST="127.0.0.1:$port" FIREBASE_AUTH_EMULATOR_HOST="127.0.0.1:$port" FIREBASE_ADMIN_CHECK=auth \
    "$venv/bin/python" Scripts/firebase_admin_check.py "${token_files[@]}" "$@" || status=1

echo "== firebase-test-server (server templates: firebase-admin's evaluator against ours)"
start_server server-templates
FIREBASE_RC_SERVER_HOST="127.0.0.1:$port" SERVER_TEMPLATE_EVAL="$eval_bin" \
    "$venv/bin/python" Scripts/firebase_admin_server_template_check.py || status=1
exit "$status"

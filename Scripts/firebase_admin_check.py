"""Drives FirebaseTestServer's Realtime Database with Google's official Admin SDK.

Run by Scripts/firebase-admin-check.sh, with FIREBASE_DATABASE_EMULATOR_HOST pointing at a
`firebase-test-server`. In emulator mode the Admin SDK authenticates with `Authorization: Bearer
owner`, which the server (as Firebase's emulator) accepts as the admin even when it requires
other tokens. FIREBASE_ADMIN_CHECK chooses the checks:

- `tokens` (the default): the server runs with `--require-token app-token`; every read, write,
  ETag, transaction, query, server value and listen check, plus the token checks;
- `seeded`: the server runs with `--database seed.json` (SEEDED below); the SDK reads it;
- `rules`: the server runs with `--database-rules Scripts/firebase-admin-rules.json`:
  firebase-admin's `databaseAuthVariableOverride` (apps for signed-in users, a custom claim, and
  `None` for signed out) for allowed and denied reads, writes, updates, queries and a listen, then
  every case of Scripts/rules-cases.json (rules cases from Firebase's documentation) run as its
  `auth` (see firebase_admin_rules.py);
- `auth`: the server runs with `--require-auth --auth-users users.json` (SEEDED_USERS below) and
  FIREBASE_AUTH_EMULATOR_HOST points at it too: the `auth` module's user management, custom
  tokens, custom claims, `verify_id_token` (with and without `check_revoked`) on tokens our
  server issued, and the database accepting those ID tokens. `--id-token-file FILE` adds one
  `verify_id_token` check per non-empty line of FILE (ID tokens a client obtained, e.g. our Swift
  client's).

Each check prints `ok` or `FAIL` with what differed; the last line is `N passed, N failed`,
and the exit status is 1 when any check failed.
"""

import json
import os
import queue
import sys
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

import firebase_admin
import firebase_admin_rules
from firebase_admin import auth, db

HOST = os.environ["FIREBASE_DATABASE_EMULATOR_HOST"]
MODE = os.environ.get("FIREBASE_ADMIN_CHECK", "tokens")
# What firebase-admin-check.sh writes to seed.json for the `seeded` run.
SEEDED = {"users": {"ann": {"name": "Ann", "score": 10}, "bob": {"name": "Bob", "score": 20}}, "flags": {"beta": True}}
# What firebase-admin-check.sh writes to users.json for the `auth` run.
SEEDED_USERS = [{"uid": "seed-ann", "email": "seed-ann@example.com", "password": "seeded1", "customClaims": {"team": "red"}}]
API_KEY = "test-api-key"
results = []


def check(name):
    def run(body):
        try:
            body()
            results.append((name, None))
            print(f"ok    {name}", flush=True)
        except Exception as error:  # noqa: BLE001 - every failure is reported, not raised
            detail = "".join(traceback.format_exception_only(type(error), error)).strip()
            results.append((name, detail))
            print(f"FAIL  {name}: {detail}", flush=True)
        return body
    return run


def stop_listening(registration, wake):
    """Closes a listen registration. firebase-admin's close() closes the response and joins the
    reader thread, which stays blocked in its read until the stream sends something (Firebase
    sends keep-alive events; this server sends none by default), so close from a helper thread
    and make `wake` (a write) send an event."""
    closer = threading.Thread(target=registration.close, daemon=True)
    closer.start()
    closer.join(timeout=0.2)
    while closer.is_alive():
        wake()
        closer.join(timeout=1)


def expect(actual, expected):
    if actual != expected:
        raise AssertionError(f"expected {expected!r}, got {actual!r}")


def raw(method, path, headers=None, body=None, query=""):
    """A request without the SDK (for status codes and headers the SDK hides)."""
    url = f"http://{HOST}/{path}.json?ns=demo-project-default-rtdb{query}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


firebase_admin.initialize_app(options={
    "databaseURL": "https://demo-project-default-rtdb.firebaseio.com",
    "projectId": "demo-project",
})


def finish():
    failed = [name for name, detail in results if detail]
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if MODE == "seeded":
    @check("seeded: the whole tree is the --database file")
    def _():
        expect(db.reference("/").get(), SEEDED)

    @check("seeded: a child and a leaf")
    def _():
        expect(db.reference("users/bob").get(), {"name": "Bob", "score": 20})
        expect(db.reference("flags/beta").get(), True)

    @check("seeded: a query over the seeded data")
    def _():
        expect(list(db.reference("users").order_by_child("score").limit_to_last(1).get().keys()), ["bob"])

    @check("seeded: listen starts with the seeded value")
    def _():
        events = queue.Queue()
        registration = db.reference("users/ann").listen(lambda event: events.put((event.event_type, event.path, event.data)))
        try:
            expect(events.get(timeout=10), ("put", "/", {"name": "Ann", "score": 10}))
        finally:
            stop_listening(registration, lambda: db.reference("users/ann/seen").set(True))

    @check("seeded: no token is required (the server was started without --require-token)")
    def _():
        status, _, body = raw("GET", "flags")
        expect((status, json.loads(body)), (200, {"beta": True}))

    finish()
elif MODE == "rules":
    firebase_admin_rules.run(check, expect, raw)
    finish()
elif MODE not in ("tokens", "auth"):
    sys.exit(f"FIREBASE_ADMIN_CHECK must be tokens, seeded, rules or auth, not {MODE!r}")


def identity_toolkit(method, body):
    """A client call to the Auth emulator's REST API (as a client SDK makes it), its JSON answer."""
    url = f"http://{HOST}/identitytoolkit.googleapis.com/v1/accounts:{method}?key={API_KEY}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def secure_token(refresh_token):
    url = f"http://{HOST}/securetoken.googleapis.com/v1/token?key={API_KEY}"
    form = urllib.parse.urlencode({"grant_type": "refresh_token", "refresh_token": refresh_token}).encode()
    request = urllib.request.Request(url, data=form, method="POST", headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def raises(kind, body):
    try:
        body()
    except kind:
        return
    raise AssertionError(f"expected {kind.__name__}")


def id_token_files():
    files = []
    arguments = sys.argv[1:]
    while arguments:
        argument = arguments.pop(0)
        if argument == "--id-token-file" and arguments:
            files.append(arguments.pop(0))
        elif argument.startswith("--id-token-file="):
            files.append(argument.split("=", 1)[1])
        else:
            sys.exit(f"unknown argument {argument!r} (expected --id-token-file FILE)")
    return files


if MODE == "auth":
    if os.environ.get("FIREBASE_AUTH_EMULATOR_HOST") != HOST:
        sys.exit("the auth checks need FIREBASE_AUTH_EMULATOR_HOST set to the server (as FIREBASE_DATABASE_EMULATOR_HOST)")
    state = {}

    @check("auth: the --auth-users file's user, with its custom claims")
    def _():
        user = auth.get_user("seed-ann")
        expect((user.email, user.custom_claims, user.disabled), ("seed-ann@example.com", {"team": "red"}, False))

    @check("auth: create_user with email and password, and without (anonymous)")
    def _():
        user = auth.create_user(email="ann@example.com", password="secret1", display_name="Ann")
        expect((user.email, user.display_name, user.disabled, user.provider_data[0].provider_id), ("ann@example.com", "Ann", False, "password"))
        anonymous = auth.create_user()
        expect((anonymous.email, anonymous.provider_data), (None, []))
        state["ann"], state["anonymous"] = user.uid, anonymous.uid

    @check("auth: create_user with a taken email raises EmailAlreadyExistsError")
    def _():
        raises(auth.EmailAlreadyExistsError, lambda: auth.create_user(email="ann@example.com", password="secret1"))

    @check("auth: get_user and get_user_by_email")
    def _():
        expect(auth.get_user(state["ann"]).email, "ann@example.com")
        expect(auth.get_user_by_email("ann@example.com").uid, state["ann"])
        raises(auth.UserNotFoundError, lambda: auth.get_user_by_email("nobody@example.com"))

    @check("auth: update_user display name and password (the new password signs in)")
    def _():
        user = auth.update_user(state["ann"], display_name="Ann B", password="secret2")
        expect(user.display_name, "Ann B")
        expect(identity_toolkit("signInWithPassword", {"email": "ann@example.com", "password": "secret2", "returnSecureToken": True})[0], 200)
        status, body = identity_toolkit("signInWithPassword", {"email": "ann@example.com", "password": "secret1", "returnSecureToken": True})
        expect((status, body["error"]["message"]), (400, "INVALID_LOGIN_CREDENTIALS"))

    @check("auth: list_users iterates every page")
    def _():
        for index in range(5):
            auth.create_user(uid=f"bulk-{index}")
        uids = [user.uid for user in auth.list_users(max_results=2).iterate_all()]
        expect(sorted(uids), sorted(["seed-ann", state["ann"], state["anonymous"]] + [f"bulk-{index}" for index in range(5)]))
        expect(auth.list_users(max_results=2).has_next_page, True)

    @check("auth: set_custom_user_claims, read back by get_user")
    def _():
        auth.set_custom_user_claims(state["ann"], {"admin": True, "level": 3})
        expect(auth.get_user(state["ann"]).custom_claims, {"admin": True, "level": 3})

    @check("auth: an ID token our server issued passes verify_id_token with Firebase's claims")
    def _():
        status, body = identity_toolkit("signInWithPassword", {"email": "ann@example.com", "password": "secret2", "returnSecureToken": True})
        expect(status, 200)
        claims = auth.verify_id_token(body["idToken"], check_revoked=True)
        expect((claims["uid"], claims["admin"], claims["level"]), (state["ann"], True, 3))
        expect((claims["iss"], claims["aud"]), ("https://securetoken.google.com/demo-project", "demo-project"))
        expect(claims["firebase"], {"identities": {"email": ["ann@example.com"]}, "sign_in_provider": "password"})
        if not claims["iat"] <= time.time() + 5 < claims["exp"]:
            raise AssertionError(f"iat/exp not around the real time: {claims['iat']}, {claims['exp']}")
        state["ann_token"] = body["idToken"]

    @check("auth: create_custom_token -> signInWithCustomToken -> verify_id_token")
    def _():
        custom = auth.create_custom_token("player-1", {"premium": True})
        status, body = identity_toolkit("signInWithCustomToken", {"token": custom.decode(), "returnSecureToken": True})
        expect((status, body.get("isNewUser")), (200, True))
        claims = auth.verify_id_token(body["idToken"])
        expect((claims["uid"], claims["premium"], claims["firebase"]["sign_in_provider"]), ("player-1", True, "custom"))
        expect(auth.get_user("player-1").uid, "player-1")
        state["player_refresh"], state["player_token"] = body["refreshToken"], body["idToken"]

    @check("auth: revoke_refresh_tokens -> verify_id_token(check_revoked=True) raises, refresh is TOKEN_EXPIRED")
    def _():
        auth.verify_id_token(state["player_token"], check_revoked=True)
        time.sleep(1.1)  # validSince has one-second resolution (as Firebase's): revoke after the token's iat second
        auth.revoke_refresh_tokens("player-1")
        expect(auth.get_user("player-1").tokens_valid_after_timestamp > 0, True)
        raises(auth.RevokedIdTokenError, lambda: auth.verify_id_token(state["player_token"], check_revoked=True))
        auth.verify_id_token(state["player_token"])  # without check_revoked: still a valid token
        status, body = secure_token(state["player_refresh"])
        expect((status, body["error"]["message"]), (400, "TOKEN_EXPIRED"))

    @check("auth: a disabled user's token is rejected with check_revoked (UserDisabledError)")
    def _():
        user = auth.update_user(state["ann"], disabled=True)
        expect(user.disabled, True)
        raises(auth.UserDisabledError, lambda: auth.verify_id_token(state["ann_token"], check_revoked=True))
        status, body = identity_toolkit("signInWithPassword", {"email": "ann@example.com", "password": "secret2", "returnSecureToken": True})
        expect(body["error"]["message"].split(" ")[0], "USER_DISABLED")
        auth.update_user(state["ann"], disabled=False)

    @check("auth: the database (--require-auth) accepts an ID token, refuses garbage and no token")
    def _():
        status, body = identity_toolkit("signInWithPassword", {"email": "ann@example.com", "password": "secret2", "returnSecureToken": True})
        token = body["idToken"]
        expect(raw("PUT", "notes/ann", body={"text": "hi"}, query=f"&auth={token}")[0], 200)
        expect(json.loads(raw("GET", "notes/ann", query=f"&auth={token}")[2]), {"text": "hi"})
        expect(raw("GET", "notes/ann")[0:1], (401,))
        status, _, body = raw("GET", "notes/ann", query="&auth=garbage")
        expect((status, json.loads(body)), (401, {"error": "Could not parse auth token."}))
        expect(db.reference("notes/ann/text").get(), "hi")  # the SDK (owner) is the admin

    @check("auth: delete_user -> get_user raises UserNotFoundError; delete_users")
    def _():
        auth.delete_user(state["anonymous"])
        raises(auth.UserNotFoundError, lambda: auth.get_user(state["anonymous"]))
        raises(auth.UserNotFoundError, lambda: auth.delete_user(state["anonymous"]))
        result = auth.delete_users([f"bulk-{index}" for index in range(5)])
        expect((result.success_count, result.failure_count), (5, 0))
        raises(auth.UserNotFoundError, lambda: auth.get_user("bulk-0"))

    for path in id_token_files():
        with open(path, encoding="utf-8") as handle:
            tokens = [line.strip() for line in handle if line.strip()]
        for index, token in enumerate(tokens):
            @check(f"auth: verify_id_token on token {index + 1} of {path}")
            def _(token=token):
                # Without check_revoked: the token may come from another server run (its user unknown here).
                claims = auth.verify_id_token(token)
                expect((bool(claims.get("uid")), claims.get("aud")), (True, "demo-project"))

    finish()

root = db.reference("/")
root.delete()


@check("set and get")
def _():
    db.reference("users/ann").set({"name": "Ann", "age": 31})
    expect(db.reference("users/ann").get(), {"name": "Ann", "age": 31})
    expect(db.reference("users/ann/name").get(), "Ann")


@check("update (multi-path, null deletes)")
def _():
    db.reference("users/ann").update({"age": 32, "city": "Kyoto", "name": None})
    expect(db.reference("users/ann").get(), {"age": 32, "city": "Kyoto"})


@check("push (server-generated, time-ordered keys)")
def _():
    first = db.reference("comments").push({"text": "first"})
    second = db.reference("comments").push({"text": "second"})
    expect(len(first.key), 20)
    expect(first.key < second.key, True)
    expect(db.reference(f"comments/{second.key}/text").get(), "second")


@check("delete prunes empty parents")
def _():
    db.reference("tmp/a/b").set(1)
    db.reference("tmp/a/b").delete()
    expect(db.reference("tmp").get(), None)


@check("shallow read")
def _():
    db.reference("shallow").set({"a": {"deep": 1}, "b": "leaf"})
    expect(db.reference("shallow").get(shallow=True), {"a": True, "b": True})


@check("get with ETag")
def _():
    db.reference("etag").set({"n": 1})
    value, etag = db.reference("etag").get(etag=True)
    expect(value, {"n": 1})
    expect(isinstance(etag, str) and len(etag) > 0, True)


@check("set_if_unchanged with the current ETag stores")
def _():
    _, etag = db.reference("etag").get(etag=True)
    success, value, new_etag = db.reference("etag").set_if_unchanged(etag, {"n": 2})
    expect((success, value), (True, {"n": 2}))
    expect(new_etag != etag, True)


@check("set_if_unchanged with a stale ETag is refused (412) and writes nothing")
def _():
    _, etag = db.reference("etag").get(etag=True)
    db.reference("etag").set({"n": 3})
    success, value, current_etag = db.reference("etag").set_if_unchanged(etag, {"n": 99})
    expect((success, value), (False, {"n": 3}))
    expect(current_etag != etag, True)
    expect(db.reference("etag").get(), {"n": 3})


@check("if-match answers 412 with the current value")
def _():
    status, headers, body = raw("PUT", "etag", headers={"if-match": "stale", "Authorization": "Bearer owner"}, body={"n": 0})
    expect(status, 412)
    expect(json.loads(body), {"n": 3})
    expect("ETag" in headers, True)


@check("get_if_changed: unchanged (304), then changed")
def _():
    _, etag = db.reference("etag").get(etag=True)
    expect(db.reference("etag").get_if_changed(etag), (False, None, None))
    db.reference("etag/n").set(4)
    changed, value, new_etag = db.reference("etag").get_if_changed(etag)
    expect((changed, value), (True, {"n": 4}))
    expect(new_etag != etag, True)


@check("transaction increments")
def _():
    db.reference("counter").set(10)
    expect(db.reference("counter").transaction(lambda current: (current or 0) + 1), 11)
    expect(db.reference("counter").get(), 11)


@check("transaction retries after a concurrent write")
def _():
    seen = []

    def update(current):
        seen.append(current)
        if len(seen) == 1:
            db.reference("counter").set(100)
        return (current or 0) + 1

    expect(db.reference("counter").transaction(update), 101)
    expect(seen, [11, 100])


@check("transaction on an absent location")
def _():
    expect(db.reference("fresh").transaction(lambda current: {"made": current is None}), {"made": True})


SCORES = {"ann": {"score": 10}, "bob": {"score": 20}, "cat": {"score": 20}, "dan": {"score": 30}, "eve": {"text": "none"}}


@check("order_by_child with limit_to_last")
def _():
    db.reference("scores").set(SCORES)
    result = db.reference("scores").order_by_child("score").limit_to_last(2).get()
    expect(list(result.keys()), ["cat", "dan"])


@check("order_by_child with limit_to_first (absent child sorts first)")
def _():
    result = db.reference("scores").order_by_child("score").limit_to_first(2).get()
    expect(list(result.keys()), ["eve", "ann"])


@check("order_by_child with start_at and end_at")
def _():
    result = db.reference("scores").order_by_child("score").start_at(15).end_at(25).get()
    expect(list(result.keys()), ["bob", "cat"])


@check("order_by_child with equal_to")
def _():
    result = db.reference("scores").order_by_child("score").equal_to(20).get()
    expect(list(result.keys()), ["bob", "cat"])


@check("order_by_key with start_at and end_at")
def _():
    result = db.reference("scores").order_by_key().start_at("b").end_at("d").get()
    expect(list(result.keys()), ["bob", "cat"])


@check("order_by_key with limit_to_first")
def _():
    result = db.reference("scores").order_by_key().limit_to_first(1).get()
    expect(list(result.keys()), ["ann"])


@check("order_by_value with limit_to_first and start_at")
def _():
    db.reference("values").set({"x": 3, "y": 1, "z": 2, "w": "s"})
    expect(list(db.reference("values").order_by_value().limit_to_first(2).get().keys()), ["y", "z"])
    expect(list(db.reference("values").order_by_value().start_at(2).get().keys()), ["z", "x", "w"])


@check("the server filters (a raw query answers only the selection)")
def _():
    status, _, body = raw("GET", "scores", headers={"Authorization": "Bearer owner"}, query='&orderBy="score"&limitToLast=1')
    expect((status, json.loads(body)), (200, {"dan": {"score": 30}}))


@check("server timestamp")
def _():
    before = int(time.time() * 1000)
    db.reference("stamped").set({"at": {".sv": "timestamp"}})
    at = db.reference("stamped/at").get()
    expect(isinstance(at, (int, float)) and before - 1000 <= at <= int(time.time() * 1000) + 1000, True)


@check("server increment")
def _():
    db.reference("visits").set(5)
    db.reference("/").update({"visits": {".sv": {"increment": 2}}})
    expect(db.reference("visits").get(), 7)


@check("tokens: the SDK's owner is the admin although only app-token is required")
def _():
    expect(raw("GET", "users", headers={"Authorization": "Bearer owner"})[0], 200)
    expect(raw("GET", "users", query="&auth=app-token")[0], 200)
    expect(raw("GET", "users", headers={"Authorization": "Bearer app-token"})[0], 200)
    expect(raw("GET", "users")[0], 401)
    expect(raw("GET", "users", headers={"Authorization": "Bearer someone-else"})[0], 401)


@check("listen: the first event is the whole value, then changes")
def _():
    db.reference("live").set({"a": 1})
    events = queue.Queue()
    registration = db.reference("live").listen(lambda event: events.put((event.event_type, event.path, event.data)))
    try:
        expect(events.get(timeout=10), ("put", "/", {"a": 1}))
        db.reference("live/b").set(2)
        expect(events.get(timeout=10), ("put", "/b", 2))
        db.reference("live").update({"c": 3})
        expect(events.get(timeout=10), ("patch", "/", {"c": 3}))
    finally:
        stop_listening(registration, lambda: db.reference("live/wake").set(True))


finish()

#!/usr/bin/env python3
"""An independent Firebase Auth server, with faults, for testing our FirebaseAuth client.

    python3 Scripts/independent_auth_server.py --port-file FILE [--api-key KEY] [--project ID]
                                               [--token-lifetime SECONDS] [--exit-on-stdin-eof]
    python3 Scripts/independent_auth_server.py --self-test

Written from Google's public REST reference (the Identity Toolkit v1 `accounts:*` methods and the
Secure Token `v1/token` exchange, as the Firebase Auth REST API page and the Identity Platform
reference describe them), and on purpose from nothing in this repository: FirebaseAuth is tested
against `FirebaseTestServer` too, but a server written by the same hands from the same reading
would share its mistakes. Only the standard library is used.

It listens on 127.0.0.1 (an ephemeral port unless --port says otherwise), writes the port to
--port-file once it accepts connections (written to a temporary name, then renamed, so a reader
never sees half a number) and prints `listening on PORT`. Requests use the paths of Firebase's Auth
emulator, every one with `?key=API_KEY`:

    POST /identitytoolkit.googleapis.com/v1/accounts:signUp                 (email+password, or anonymous)
    POST /identitytoolkit.googleapis.com/v1/accounts:signInWithPassword
    POST /identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken  (a JWT-shaped token with a `uid` claim, unsigned)
    POST /identitytoolkit.googleapis.com/v1/accounts:lookup                 ({"idToken": ...})
    POST /identitytoolkit.googleapis.com/v1/accounts:delete                 ({"idToken": ...})
    POST /securetoken.googleapis.com/v1/token                               (grant_type=refresh_token, form or JSON)

Errors have Google's shape: `{"error": {"code": 400, "message": "EMAIL_EXISTS", "errors": [...],
"status": "INVALID_ARGUMENT"}}`. ID tokens are JWTs with `alg: none` (as the Auth emulator issues
them) carrying Firebase's claims (iss, aud, auth_time, user_id, sub, iat, exp, email,
email_verified, firebase.identities, firebase.sign_in_provider); refresh tokens are opaque.

A test steers it with `POST /__control` and a JSON object (not counted as a request):

    {"op": "fault", "route": R, "kind": K, "count": N, ...}   the next N requests of route R fail so;
        R: signUp, signInWithPassword, signInWithCustomToken, lookup, delete, token
        K: "status"    answer `status` (500, 503, ...) with Google's error body (`message` optional)
           "error"     answer 400 (or `status`) with the error code `message`, e.g. TOO_MANY_ATTEMPTS_TRY_LATER
           "malformed" answer 200 with a body that is not JSON (`body` optional)
           "delay"     wait `seconds` (bounded at 120), then answer as usual
           "drop"      close the connection without answering
           "hold"      wait until {"op": "release"} (at most 120 s), then answer as usual
    {"op": "awaitHeld", "count": N, "timeout": S}  blocks until N requests are held: {"held": n}
    {"op": "release"}                       lets every held request go on
    {"op": "expireRefreshTokens", "code": C} every refresh token issued so far is refused with C
                                            (TOKEN_EXPIRED unless given; INVALID_REFRESH_TOKEN, ...)
    {"op": "disableUser", "email"|"uid": X} the user's sign-ins and refreshes get USER_DISABLED
    {"op": "deleteUser", "email"|"uid": X}  the user is gone (USER_NOT_FOUND)
    {"op": "config", "tokenLifetime": S, "legacyPasswordErrors": B}
        tokenLifetime: `expiresIn` of the ID tokens issued from now on (3600 by default);
        legacyPasswordErrors: EMAIL_NOT_FOUND / INVALID_PASSWORD instead of
        INVALID_LOGIN_CREDENTIALS (the answer before email-enumeration protection)
    {"op": "counters"}                      {"requests": {route: n}, "faults": {route: pending}}
    {"op": "users"}                         {"users": [{"uid", "email", "disabled", "provider"}]}
    {"op": "reset"}                         forget users, tokens, faults and counters

--exit-on-stdin-eof stops the server when its standard input closes, so a test process that dies
takes the server with it. `--self-test` starts one in-process and checks every endpoint, fault and
control with urllib; it prints `N passed, M failed` and exits 1 on any failure.
"""

import argparse
import base64
import http.client
import json
import os
import secrets
import socket
import socketserver
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

IDENTITY_PREFIX = "/identitytoolkit.googleapis.com/v1/accounts:"
TOKEN_PATH = "/securetoken.googleapis.com/v1/token"
CONTROL_PATH = "/__control"
ROUTES = ("signUp", "signInWithPassword", "signInWithCustomToken", "lookup", "delete", "token")
FAULT_KINDS = ("status", "error", "malformed", "delay", "drop", "hold")
MAX_WAIT = 120.0
MAX_BODY = 1 << 20
STATUS_NAMES = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
                429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 502: "UNKNOWN", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def error_body(status, message):
    """Google's error shape, as the Identity Toolkit and Secure Token APIs send it."""
    return {"error": {"code": status, "message": message,
                      "errors": [{"message": message, "domain": "global", "reason": "invalid"}],
                      "status": STATUS_NAMES.get(status, "UNKNOWN")}}


class AuthError(Exception):
    """An answer in Google's error shape (`message` is the code a client maps)."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.message = message
        self.status = status


class State:
    """Users, tokens, faults and counters, all behind one lock."""

    def __init__(self, api_key, project, token_lifetime):
        self.api_key = api_key
        self.project = project
        self.lock = threading.Condition()
        self.token_lifetime = token_lifetime
        self.legacy_password_errors = False
        self.reset()

    def reset(self):
        with self.lock:
            self.users = {}            # uid -> {"uid", "email", "password", "disabled", "provider", "auth_time"}
            self.refresh_tokens = {}   # token -> {"uid", "refused": None or an error code}
            self.id_tokens = {}        # token -> uid
            self.faults = {route: [] for route in ROUTES}
            self.requests = {route: 0 for route in ROUTES}
            self.held = 0
            self.release_generation = 0
            self.lock.notify_all()

    # Faults and counters.

    def count_and_take_fault(self, route):
        with self.lock:
            self.requests[route] += 1
            queue = self.faults[route]
            if not queue:
                return None
            fault = queue[0]
            fault["count"] -= 1
            if fault["count"] <= 0:
                queue.pop(0)
            return dict(fault)

    def hold(self):
        """Blocks until a release (or MAX_WAIT)."""
        with self.lock:
            generation = self.release_generation
            self.held += 1
            self.lock.notify_all()
            deadline = time.monotonic() + MAX_WAIT
            while self.release_generation == generation:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self.lock.wait(remaining)
            self.held -= 1

    # Users and tokens.

    def find_user(self, uid=None, email=None):
        if uid is not None:
            return self.users.get(uid)
        for user in self.users.values():
            if email is not None and user["email"] is not None and user["email"].lower() == email.lower():
                return user
        return None

    def issue(self, user):
        """A fresh ID token and refresh token for `user` (the lock is held)."""
        now = int(time.time())
        lifetime = self.token_lifetime
        id_token = self.id_token(user, now, lifetime)
        refresh_token = secrets.token_urlsafe(32)
        self.refresh_tokens[refresh_token] = {"uid": user["uid"], "refused": None}
        return id_token, refresh_token, lifetime

    def id_token(self, user, now, lifetime):
        header = {"alg": "none", "typ": "JWT"}
        identities = {}
        if user["email"] is not None:
            identities["email"] = [user["email"]]
        claims = {
            "iss": "https://securetoken.google.com/" + self.project,
            "aud": self.project,
            "auth_time": user["auth_time"],
            "user_id": user["uid"],
            "sub": user["uid"],
            "iat": now,
            "exp": now + lifetime,
            "firebase": {"identities": identities, "sign_in_provider": user["provider"]},
        }
        if user["email"] is not None:
            claims["email"] = user["email"]
            claims["email_verified"] = False
        token = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode()) + "."
        self.id_tokens[token] = user["uid"]
        return token

    def new_user(self, email=None, password=None, provider="anonymous", uid=None):
        user = {"uid": uid or secrets.token_hex(14), "email": email, "password": password, "disabled": False,
                "provider": provider, "auth_time": int(time.time()), "created": int(time.time() * 1000)}
        self.users[user["uid"]] = user
        return user

    def user_for_id_token(self, token):
        """The user an ID token names, or an AuthError (the lock is held)."""
        uid = self.id_tokens.get(token) if isinstance(token, str) else None
        if uid is None:
            raise AuthError("INVALID_ID_TOKEN")
        try:
            claims = json.loads(b64url_decode(token.split(".")[1]))
        except (ValueError, IndexError):
            raise AuthError("INVALID_ID_TOKEN")
        if claims.get("exp", 0) <= time.time():
            raise AuthError("INVALID_ID_TOKEN")
        user = self.users.get(uid)
        if user is None:
            raise AuthError("USER_NOT_FOUND")
        if user["disabled"]:
            raise AuthError("USER_DISABLED")
        return user


def valid_email(email):
    if not isinstance(email, str) or len(email) > 255 or email.count("@") != 1:
        return False
    local, domain = email.split("@")
    return bool(local) and "." in domain and not domain.startswith(".") and not domain.endswith(".") \
        and not any(c.isspace() for c in email)


# The endpoints: each takes the state and the request's fields and returns a JSON object or raises
# AuthError.

def sign_up(state, body):
    email, password = body.get("email"), body.get("password")
    with state.lock:
        if email is None and password is None:
            user = state.new_user()
            id_token, refresh_token, lifetime = state.issue(user)
            return {"kind": "identitytoolkit#SignupNewUserResponse", "idToken": id_token,
                    "refreshToken": refresh_token, "expiresIn": str(lifetime), "localId": user["uid"]}
        if email is None:
            raise AuthError("MISSING_EMAIL")
        if not valid_email(email):
            raise AuthError("INVALID_EMAIL")
        if not password:
            raise AuthError("MISSING_PASSWORD")
        if not isinstance(password, str) or len(password) < 6:
            raise AuthError("WEAK_PASSWORD : Password should be at least 6 characters")
        if state.find_user(email=email) is not None:
            raise AuthError("EMAIL_EXISTS")
        user = state.new_user(email=email, password=password, provider="password")
        id_token, refresh_token, lifetime = state.issue(user)
        return {"kind": "identitytoolkit#SignupNewUserResponse", "idToken": id_token, "email": email,
                "refreshToken": refresh_token, "expiresIn": str(lifetime), "localId": user["uid"]}


def sign_in_with_password(state, body):
    email, password = body.get("email"), body.get("password")
    with state.lock:
        if not email:
            raise AuthError("INVALID_EMAIL")
        if not valid_email(email):
            raise AuthError("INVALID_EMAIL")
        if not password:
            raise AuthError("MISSING_PASSWORD")
        user = state.find_user(email=email)
        if user is None:
            raise AuthError("EMAIL_NOT_FOUND" if state.legacy_password_errors else "INVALID_LOGIN_CREDENTIALS")
        if user["password"] != password:
            raise AuthError("INVALID_PASSWORD" if state.legacy_password_errors else "INVALID_LOGIN_CREDENTIALS")
        if user["disabled"]:
            raise AuthError("USER_DISABLED")
        user["auth_time"] = int(time.time())
        id_token, refresh_token, lifetime = state.issue(user)
        return {"kind": "identitytoolkit#VerifyPasswordResponse", "localId": user["uid"], "email": user["email"],
                "displayName": "", "idToken": id_token, "registered": True, "refreshToken": refresh_token,
                "expiresIn": str(lifetime)}


def sign_in_with_custom_token(state, body):
    token = body.get("token")
    if not isinstance(token, str) or token.count(".") != 2:
        raise AuthError("INVALID_CUSTOM_TOKEN")
    try:
        claims = json.loads(b64url_decode(token.split(".")[1]))
    except ValueError:
        raise AuthError("INVALID_CUSTOM_TOKEN")
    uid = claims.get("uid") if isinstance(claims, dict) else None
    if not isinstance(uid, str) or not 1 <= len(uid) <= 128:
        raise AuthError("INVALID_CUSTOM_TOKEN")
    if "exp" in claims and claims["exp"] <= time.time():
        raise AuthError("INVALID_CUSTOM_TOKEN")
    with state.lock:
        user = state.users.get(uid)
        is_new = user is None
        if is_new:
            user = state.new_user(provider="custom", uid=uid)
        if user["disabled"]:
            raise AuthError("USER_DISABLED")
        user["auth_time"] = int(time.time())
        id_token, refresh_token, lifetime = state.issue(user)
        return {"kind": "identitytoolkit#VerifyCustomTokenResponse", "idToken": id_token,
                "refreshToken": refresh_token, "expiresIn": str(lifetime), "isNewUser": is_new}


def lookup(state, body):
    with state.lock:
        user = state.user_for_id_token(body.get("idToken"))
        record = {"localId": user["uid"], "emailVerified": False, "disabled": user["disabled"],
                  "createdAt": str(user["created"]), "lastLoginAt": str(user["auth_time"] * 1000),
                  "providerUserInfo": []}
        if user["email"] is not None:
            record["email"] = user["email"]
            record["passwordHash"] = "UkVEQUNURUQ="
            record["providerUserInfo"] = [{"providerId": "password", "email": user["email"],
                                           "federatedId": user["email"], "rawId": user["email"]}]
        if user["provider"] == "custom":
            record["customAuth"] = True
        return {"kind": "identitytoolkit#GetAccountInfoResponse", "users": [record]}


def delete(state, body):
    with state.lock:
        user = state.user_for_id_token(body.get("idToken"))
        del state.users[user["uid"]]
        return {"kind": "identitytoolkit#DeleteAccountResponse"}


def refresh(state, body):
    grant_type, token = body.get("grant_type"), body.get("refresh_token")
    if grant_type != "refresh_token":
        raise AuthError("INVALID_GRANT_TYPE" if grant_type else "MISSING_GRANT_TYPE")
    if not token:
        raise AuthError("MISSING_REFRESH_TOKEN")
    with state.lock:
        record = state.refresh_tokens.get(token)
        if record is None:
            raise AuthError("INVALID_REFRESH_TOKEN")
        if record["refused"] is not None:
            raise AuthError(record["refused"])
        user = state.users.get(record["uid"])
        if user is None:
            raise AuthError("USER_NOT_FOUND")
        if user["disabled"]:
            raise AuthError("USER_DISABLED")
        lifetime = state.token_lifetime
        id_token = state.id_token(user, int(time.time()), lifetime)
        return {"access_token": id_token, "expires_in": str(lifetime), "token_type": "Bearer",
                "refresh_token": token, "id_token": id_token, "user_id": user["uid"],
                "project_id": state.project}


HANDLERS = {"signUp": sign_up, "signInWithPassword": sign_in_with_password,
            "signInWithCustomToken": sign_in_with_custom_token, "lookup": lookup, "delete": delete,
            "token": refresh}


def control(state, body):
    """The test's steering wheel (see the module's comment)."""
    op = body.get("op")
    if op == "fault":
        route, kind = body.get("route"), body.get("kind")
        if route not in ROUTES:
            raise AuthError("unknown route %r (one of %s)" % (route, ", ".join(ROUTES)))
        if kind not in FAULT_KINDS:
            raise AuthError("unknown fault kind %r (one of %s)" % (kind, ", ".join(FAULT_KINDS)))
        count = body.get("count", 1)
        if not isinstance(count, int) or count < 1:
            raise AuthError("count must be a positive integer")
        fault = {"kind": kind, "count": count}
        for key in ("status", "message", "seconds", "body"):
            if key in body:
                fault[key] = body[key]
        with state.lock:
            state.faults[route].append(fault)
        return {"queued": fault}
    if op == "awaitHeld":
        count, timeout = body.get("count", 1), min(float(body.get("timeout", 30)), MAX_WAIT)
        deadline = time.monotonic() + timeout
        with state.lock:
            while state.held < count:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                state.lock.wait(remaining)
            return {"held": state.held}
    if op == "release":
        with state.lock:
            state.release_generation += 1
            state.lock.notify_all()
            return {"released": state.held}
    if op == "expireRefreshTokens":
        code = body.get("code", "TOKEN_EXPIRED")
        with state.lock:
            for record in state.refresh_tokens.values():
                record["refused"] = code
            return {"expired": len(state.refresh_tokens)}
    if op in ("disableUser", "deleteUser"):
        with state.lock:
            user = state.find_user(uid=body.get("uid"), email=body.get("email"))
            if user is None:
                raise AuthError("USER_NOT_FOUND", 404)
            if op == "disableUser":
                user["disabled"] = body.get("disabled", True)
            else:
                del state.users[user["uid"]]
            return {"uid": user["uid"]}
    if op == "config":
        with state.lock:
            if "tokenLifetime" in body:
                lifetime = body["tokenLifetime"]
                if not isinstance(lifetime, int) or lifetime < 1:
                    raise AuthError("tokenLifetime must be a positive integer")
                state.token_lifetime = lifetime
            if "legacyPasswordErrors" in body:
                state.legacy_password_errors = bool(body["legacyPasswordErrors"])
            return {"tokenLifetime": state.token_lifetime, "legacyPasswordErrors": state.legacy_password_errors}
    if op == "counters":
        with state.lock:
            return {"requests": dict(state.requests),
                    "faults": {route: sum(f["count"] for f in queue) for route, queue in state.faults.items()},
                    "held": state.held}
    if op == "users":
        with state.lock:
            return {"users": [{"uid": u["uid"], "email": u["email"], "disabled": u["disabled"],
                               "provider": u["provider"]} for u in state.users.values()]}
    if op == "reset":
        state.reset()
        return {"reset": True}
    raise AuthError("unknown op %r" % (op,))


class Handler(BaseHTTPRequestHandler):
    """One request per connection (HTTP/1.0 framing, `Connection: close`), so a `drop` is clean."""

    server_version = "IndependentAuthServer/1"

    def log_message(self, format, *args):  # requests carry secrets; log nothing
        pass

    def do_GET(self):
        self.answer(405, error_body(405, "Only POST is served"))

    def do_POST(self):
        state = self.server.state
        url = urllib.parse.urlsplit(self.path)
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            return self.answer(400, error_body(400, "Bad Content-Length"))
        raw = self.rfile.read(length) if length else b""
        if url.path == CONTROL_PATH:
            return self.dispatch(lambda: control(state, self.json_object(raw)))
        if url.path.startswith(IDENTITY_PREFIX) and url.path[len(IDENTITY_PREFIX):] in ROUTES[:-1]:
            route = url.path[len(IDENTITY_PREFIX):]
        elif url.path == TOKEN_PATH:
            route = "token"
        else:
            return self.answer(404, error_body(404, "Not found: the independent Auth server serves %s{%s} and %s"
                                               % (IDENTITY_PREFIX, ",".join(ROUTES[:-1]), TOKEN_PATH)))
        fault = state.count_and_take_fault(route)
        if fault is not None:
            kind = fault["kind"]
            if kind == "drop":
                self.close_connection = True
                try:
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return
            if kind == "status":
                status = int(fault.get("status", 503))
                return self.answer(status, error_body(status, fault.get("message", "The service is currently unavailable.")))
            if kind == "error":
                status = int(fault.get("status", 400))
                return self.answer(status, error_body(status, fault.get("message", "UNKNOWN_ERROR")))
            if kind == "malformed":
                return self.answer_raw(200, fault.get("body", '{"idToken": "eyJ'))
            if kind == "delay":
                time.sleep(min(float(fault.get("seconds", 1)), MAX_WAIT))
            if kind == "hold":
                state.hold()
        query = urllib.parse.parse_qs(url.query)
        key = query.get("key", [None])[0]
        if key is None:
            return self.answer(403, error_body(403, "Method doesn't allow unregistered callers (callers without "
                                                    "established identity). Please use API Key or other form of API "
                                                    "consumer identity to call this API."))
        if key != state.api_key:
            return self.answer(400, error_body(400, "API key not valid. Please pass a valid API key."))
        if route == "token" and self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
            body = {k: v[0] for k, v in urllib.parse.parse_qs(raw.decode("utf-8", "replace")).items()}
            self.dispatch(lambda: HANDLERS[route](state, body))
        else:
            self.dispatch(lambda: HANDLERS[route](state, self.json_object(raw)))

    def json_object(self, raw):
        try:
            body = json.loads(raw.decode("utf-8")) if raw else {}
        except (ValueError, UnicodeDecodeError):
            raise AuthError("INVALID_JSON: the request body is not JSON")
        if not isinstance(body, dict):
            raise AuthError("INVALID_JSON: the request body is not a JSON object")
        return body

    def dispatch(self, work):
        try:
            result = work()
        except AuthError as error:
            return self.answer(error.status, error_body(error.status, error.message))
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            # A field of an unexpected type: say so, as Google does, rather than drop the connection.
            return self.answer(400, error_body(400, "INVALID_ARGUMENT : %s" % type(error).__name__))
        self.answer(200, result)

    def answer(self, status, obj):
        self.answer_raw(status, json.dumps(obj))

    def answer_raw(self, status, text):
        data = text.encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a delay past its timeout)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, state, port=0):
        super().__init__(("127.0.0.1", port), Handler)
        self.state = state

    def server_bind(self):
        # HTTPServer.server_bind asks socket.getfqdn for a name, which may send a DNS query; a
        # loopback test server needs no name (and CI's check-loopback.sh refuses any DNS lookup).
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def write_port_file(path, port):
    temporary = path + ".tmp"
    with open(temporary, "w") as file:
        file.write("%d\n" % port)
    os.replace(temporary, path)


def exit_when_stdin_closes(server):
    def watch():
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except OSError:
            pass
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()


# The self-test: a server in this process, driven with urllib.

def self_test():
    state = State("self-test-key", "demo-independent", 3600)
    server = Server(state)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % server.server_address[1]
    passed, failed = [0], []

    def call(path, body, key="self-test-key", form=False, timeout=10):
        url = base + path + ("?key=" + key if key is not None else "")
        data = urllib.parse.urlencode(body).encode() if form else json.dumps(body).encode()
        kind = "application/x-www-form-urlencoded" if form else "application/json"
        request = urllib.request.Request(url, data=data, headers={"Content-Type": kind}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def auth(method, body, **options):
        status, text = call(IDENTITY_PREFIX + method, body, **options)
        return status, json.loads(text)

    def steer(**body):
        status, text = call(CONTROL_PATH, body, key=None)
        return json.loads(text)

    def check(name, condition):
        if condition:
            passed[0] += 1
        else:
            failed.append(name)
            print("FAILED: " + name)

    def code(answer):
        return answer[1].get("error", {}).get("message")

    # Sign-ups and sign-ins.
    status, anonymous = auth("signUp", {"returnSecureToken": True})
    check("anonymous signUp", status == 200 and anonymous["localId"] and anonymous["expiresIn"] == "3600")
    claims = json.loads(b64url_decode(anonymous["idToken"].split(".")[1]))
    check("ID token claims", claims["sub"] == anonymous["localId"] and claims["aud"] == "demo-independent"
          and claims["iss"] == "https://securetoken.google.com/demo-independent"
          and claims["firebase"]["sign_in_provider"] == "anonymous" and claims["exp"] - claims["iat"] == 3600)
    check("alg none, empty signature", anonymous["idToken"].endswith(".")
          and json.loads(b64url_decode(anonymous["idToken"].split(".")[0]))["alg"] == "none")
    status, ann = auth("signUp", {"email": "ann@example.com", "password": "secret1", "returnSecureToken": True})
    check("email signUp", status == 200 and ann["email"] == "ann@example.com")
    check("EMAIL_EXISTS", code(auth("signUp", {"email": "ANN@example.com", "password": "secret1"})) == "EMAIL_EXISTS")
    check("WEAK_PASSWORD", code(auth("signUp", {"email": "bo@example.com", "password": "123"})).startswith("WEAK_PASSWORD : "))
    check("INVALID_EMAIL", code(auth("signUp", {"email": "not-an-email", "password": "secret1"})) == "INVALID_EMAIL")
    status, signed_in = auth("signInWithPassword", {"email": "ann@example.com", "password": "secret1", "returnSecureToken": True})
    check("signInWithPassword", status == 200 and signed_in["localId"] == ann["localId"] and signed_in["registered"])
    check("INVALID_LOGIN_CREDENTIALS (password)",
          code(auth("signInWithPassword", {"email": "ann@example.com", "password": "wrong!"})) == "INVALID_LOGIN_CREDENTIALS")
    check("INVALID_LOGIN_CREDENTIALS (email)",
          code(auth("signInWithPassword", {"email": "nobody@example.com", "password": "wrong!"})) == "INVALID_LOGIN_CREDENTIALS")
    steer(op="config", legacyPasswordErrors=True)
    check("legacy INVALID_PASSWORD",
          code(auth("signInWithPassword", {"email": "ann@example.com", "password": "wrong!"})) == "INVALID_PASSWORD")
    check("legacy EMAIL_NOT_FOUND",
          code(auth("signInWithPassword", {"email": "nobody@example.com", "password": "wrong!"})) == "EMAIL_NOT_FOUND")
    steer(op="config", legacyPasswordErrors=False)
    custom = b64url(b'{"alg":"none"}') + "." + b64url(json.dumps({"uid": "custom-1"}).encode()) + "."
    status, from_custom = auth("signInWithCustomToken", {"token": custom, "returnSecureToken": True})
    check("signInWithCustomToken", status == 200 and from_custom["isNewUser"] is True)
    check("INVALID_CUSTOM_TOKEN", code(auth("signInWithCustomToken", {"token": "garbage"})) == "INVALID_CUSTOM_TOKEN")

    # Keys.
    status, answer = auth("signUp", {}, key="wrong")
    check("wrong key", status == 400 and code((status, answer)).startswith("API key not valid"))
    status, answer = auth("signUp", {}, key=None)
    check("no key", status == 403)

    # Lookup, refresh (form and JSON), delete.
    status, looked_up = auth("lookup", {"idToken": signed_in["idToken"]})
    check("lookup", status == 200 and looked_up["users"][0]["email"] == "ann@example.com")
    check("INVALID_ID_TOKEN", code(auth("lookup", {"idToken": "x.y.z"})) == "INVALID_ID_TOKEN")
    status, text = call(TOKEN_PATH, {"grant_type": "refresh_token", "refresh_token": signed_in["refreshToken"]}, form=True)
    refreshed = json.loads(text)
    check("refresh (form)", status == 200 and refreshed["user_id"] == ann["localId"] and refreshed["token_type"] == "Bearer"
          and refreshed["id_token"] == refreshed["access_token"] and refreshed["expires_in"] == "3600")
    status, text = call(TOKEN_PATH, {"grant_type": "refresh_token", "refresh_token": signed_in["refreshToken"]})
    check("refresh (JSON)", status == 200 and json.loads(text)["refresh_token"] == signed_in["refreshToken"])
    status, text = call(TOKEN_PATH, {"grant_type": "refresh_token", "refresh_token": "nope"})
    check("INVALID_REFRESH_TOKEN", json.loads(text)["error"]["message"] == "INVALID_REFRESH_TOKEN")
    status, text = call(TOKEN_PATH, {"grant_type": "password"})
    check("INVALID_GRANT_TYPE", json.loads(text)["error"]["message"] == "INVALID_GRANT_TYPE")

    # Disabling, expiring.
    steer(op="disableUser", email="ann@example.com")
    check("USER_DISABLED (sign-in)",
          code(auth("signInWithPassword", {"email": "ann@example.com", "password": "secret1"})) == "USER_DISABLED")
    status, text = call(TOKEN_PATH, {"grant_type": "refresh_token", "refresh_token": signed_in["refreshToken"]})
    check("USER_DISABLED (refresh)", json.loads(text)["error"]["message"] == "USER_DISABLED")
    steer(op="disableUser", email="ann@example.com", disabled=False)
    steer(op="expireRefreshTokens")
    status, text = call(TOKEN_PATH, {"grant_type": "refresh_token", "refresh_token": signed_in["refreshToken"]})
    check("TOKEN_EXPIRED", status == 400 and json.loads(text)["error"]["message"] == "TOKEN_EXPIRED")
    status, deleted = auth("delete", {"idToken": anonymous["idToken"]})
    check("delete", status == 200 and all(u["uid"] != anonymous["localId"] for u in steer(op="users")["users"]))
    check("USER_NOT_FOUND after delete", code(auth("lookup", {"idToken": anonymous["idToken"]})) == "USER_NOT_FOUND")

    # Token lifetime.
    steer(op="config", tokenLifetime=301)
    status, short = auth("signUp", {})
    check("tokenLifetime", short["expiresIn"] == "301")

    # Faults.
    steer(op="fault", route="signUp", kind="status", status=503, count=2)
    first, second, third = auth("signUp", {}), auth("signUp", {}), auth("signUp", {})
    check("status fault x2", first[0] == 503 and second[0] == 503 and third[0] == 200
          and first[1]["error"]["status"] == "UNAVAILABLE")
    steer(op="fault", route="signUp", kind="error", message="TOO_MANY_ATTEMPTS_TRY_LATER")
    check("error fault", code(auth("signUp", {})) == "TOO_MANY_ATTEMPTS_TRY_LATER")
    steer(op="fault", route="lookup", kind="malformed")
    status, text = call(IDENTITY_PREFIX + "lookup", {})
    try:
        json.loads(text)
        malformed = False
    except ValueError:
        malformed = True
    check("malformed fault", status == 200 and malformed)
    steer(op="fault", route="signUp", kind="drop")
    try:
        auth("signUp", {})
        dropped = False
    except (urllib.error.URLError, ConnectionError, http.client.HTTPException):
        dropped = True
    check("drop fault", dropped)
    steer(op="fault", route="signUp", kind="delay", seconds=2)
    try:
        auth("signUp", {}, timeout=0.5)
        timed_out = False
    except (urllib.error.URLError, socket.timeout, TimeoutError):
        timed_out = True
    check("delay fault (client times out)", timed_out)
    steer(op="fault", route="token", kind="hold", count=2)
    results = []
    threads = [threading.Thread(target=lambda: results.append(call(TOKEN_PATH, {"grant_type": "refresh_token",
                                                                            "refresh_token": "nope"})))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    check("awaitHeld", steer(op="awaitHeld", count=2, timeout=30)["held"] == 2 and not results)
    steer(op="release")
    for thread in threads:
        thread.join(30)
    check("release", len(results) == 2)
    counters = steer(op="counters")
    check("counters", counters["requests"]["signInWithPassword"] == 6 and counters["requests"]["delete"] == 1
          and counters["faults"]["signUp"] == 0)
    check("unknown op refused", "error" in steer(op="nonsense"))
    bad_exp = b64url(b'{"alg":"none"}') + "." + b64url(json.dumps({"uid": "u", "exp": "soon"}).encode()) + "."
    check("a field of the wrong type is a 400", code(auth("signInWithCustomToken", {"token": bad_exp})).startswith("INVALID_ARGUMENT"))
    check("unknown path 404", call("/identitytoolkit.googleapis.com/v1/accounts:update", {})[0] == 404)
    steer(op="reset")
    check("reset", steer(op="counters")["requests"]["signUp"] == 0 and steer(op="users")["users"] == [])

    server.shutdown()
    print("%d passed, %d failed" % (passed[0], len(failed)))
    return 1 if failed else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="the port (default: any free one)")
    parser.add_argument("--port-file", help="write the port here once listening")
    parser.add_argument("--api-key", default="independent-test-key", help="the accepted ?key= (default %(default)s)")
    parser.add_argument("--project", default="demo-independent", help="the project ID in tokens (default %(default)s)")
    parser.add_argument("--token-lifetime", type=int, default=3600, help="expiresIn of ID tokens, seconds")
    parser.add_argument("--exit-on-stdin-eof", action="store_true", help="stop when standard input closes")
    parser.add_argument("--self-test", action="store_true", help="check the server against itself and exit")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    if args.token_lifetime < 1:
        parser.error("--token-lifetime must be positive")
    try:
        server = Server(State(args.api_key, args.project, args.token_lifetime), args.port)
    except OSError as error:
        print("independent_auth_server: cannot listen on 127.0.0.1:%d: %s" % (args.port, error), file=sys.stderr)
        return 1
    port = server.server_address[1]
    if args.port_file:
        write_port_file(args.port_file, port)
    print("listening on %d" % port, flush=True)
    if args.exit_on_stdin_eof:
        exit_when_stdin_closes(server)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The `rules` run of Scripts/firebase_admin_check.py: firebase-admin's
`databaseAuthVariableOverride` against a server started with `--database-rules
Scripts/firebase-admin-rules.json`, then the table of rules cases drawn from Firebase's
documentation (Scripts/rules-cases.json), each case run as its `auth` through the Admin SDK.

A denial must raise firebase-admin's FirebaseError (UnauthenticatedError for the REST API's 401)
whose message is Firebase's "Permission denied"; an allowed operation must not raise.
"""

import itertools
import json
import os

import firebase_admin
from firebase_admin import db, exceptions

DATABASE_URL = "https://demo-project-default-rtdb.firebaseio.com"
TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules-cases.json")
_apps = {}
_names = itertools.count()


def app_for(auth):
    """An app whose database requests carry `auth` as databaseAuthVariableOverride (None: signed out)."""
    key = json.dumps(auth, sort_keys=True)
    if key not in _apps:
        options = {"databaseURL": DATABASE_URL, "projectId": "demo-project", "databaseAuthVariableOverride": auth}
        _apps[key] = firebase_admin.initialize_app(options=options, name=f"rules-{next(_names)}")
    return _apps[key]


def denied(body):
    """Runs `body`, which must be refused by the rules."""
    try:
        body()
    except exceptions.FirebaseError as error:
        if "Permission denied" not in str(error):
            raise AssertionError(f"expected Permission denied, got {type(error).__name__}: {error}") from error
        return
    raise AssertionError("expected Permission denied, the operation was allowed")


def run(check, expect, raw):
    alice, bob, carol, anonymous = app_for({"uid": "alice"}), app_for({"uid": "bob"}), app_for({"uid": "carol", "token": {"admin": True}}), app_for(None)
    admin = db.reference("/")
    admin.set({
        "users": {"alice": {"name": "Alice", "age": 30}, "bob": {"name": "Bob", "age": 40}},
        "posts": {"p1": {"owner": "alice", "text": "a1"}, "p2": {"owner": "bob", "text": "b1"}, "p3": {"owner": "alice", "text": "a2"}},
        "public": {"motd": "hello"},
        "reports": {"r1": "secret"},
    })

    def ref(path, app):
        return db.reference(path, app=app)

    @check("override: reads are allowed where auth is allowed")
    def _():
        expect(ref("users/alice", alice).get(), {"name": "Alice", "age": 30})
        expect(ref("public/motd", anonymous).get(), "hello")
        expect(ref("reports/r1", carol).get(), "secret")

    @check("override: reads are denied elsewhere (another user's node, signed out, no claim)")
    def _():
        denied(lambda: ref("users/bob", alice).get())
        denied(lambda: ref("users/alice", anonymous).get())
        denied(lambda: ref("reports/r1", alice).get())
        denied(lambda: ref("users", alice).get())

    @check("override: writes are allowed on one's own node and stored")
    def _():
        ref("users/alice/name", alice).set("Alicia")
        expect(admin.child("users/alice/name").get(), "Alicia")
        ref("public/note", bob).set("from bob")
        expect(admin.child("public/note").get(), "from bob")

    @check("override: writes are denied on another's node, signed out and by .validate, and change nothing")
    def _():
        denied(lambda: ref("users/bob/name", alice).set("Mallory"))
        denied(lambda: ref("public/note", anonymous).set("anonymous"))
        denied(lambda: ref("users/alice/age", alice).set(-1))
        denied(lambda: ref("users/bob", alice).delete())
        expect(admin.child("users/bob").get(), {"name": "Bob", "age": 40})
        expect(admin.child("users/alice/age").get(), 30)

    @check("override: updates are allowed where every location is, denied as a whole otherwise")
    def _():
        ref("users/alice", alice).update({"age": 31, "city": "Kyoto"})
        expect(admin.child("users/alice").get(), {"name": "Alicia", "age": 31, "city": "Kyoto"})
        denied(lambda: ref("users", alice).update({"alice/age": 32, "bob/age": 1}))
        denied(lambda: ref("users/alice", alice).update({"age": "old"}))
        expect((admin.child("users/alice/age").get(), admin.child("users/bob/age").get()), (31, 40))

    @check("override: queries are allowed only as the query.* rule allows")
    def _():
        mine = ref("posts", alice).order_by_child("owner").equal_to("alice").limit_to_first(10).get()
        expect(sorted(mine.keys()), ["p1", "p3"])
        denied(lambda: ref("posts", alice).order_by_child("owner").equal_to("bob").limit_to_first(10).get())
        denied(lambda: ref("posts", alice).order_by_child("owner").equal_to("alice").limit_to_first(11).get())
        denied(lambda: ref("posts", alice).order_by_child("owner").equal_to("alice").get())
        denied(lambda: ref("posts", alice).get())
        denied(lambda: ref("posts", anonymous).order_by_child("owner").equal_to("alice").limit_to_first(10).get())

    @check("override: data and newData decide who creates, changes and deletes a post")
    def _():
        ref("posts/p4", bob).set({"owner": "bob", "text": "b2"})
        denied(lambda: ref("posts/p4", alice).set({"owner": "alice", "text": "mine now"}))
        denied(lambda: ref("posts/p5", alice).set({"owner": "bob", "text": "as bob"}))
        denied(lambda: ref("posts/p4", alice).delete())
        ref("posts/p4", bob).delete()
        expect((admin.child("posts/p4").get(), admin.child("posts/p5").get()), (None, None))

    @check("override: a denied listen raises")
    def _():
        denied(lambda: ref("users/alice", bob).listen(lambda event: None))

    @check("override: the admin (no override) bypasses the rules")
    def _():
        expect(admin.child("users/bob/name").get(), "Bob")
        admin.child("reports/r2").set("by the admin")
        expect(admin.child("reports/r2").get(), "by the admin")

    with open(TABLE, encoding="utf-8") as file:
        table = json.load(file)
    for case in table["cases"]:
        @check(f"table [{case['doc']}]: {case['name']}")
        def _(case=case):
            admin.delete()
            if case["data"] is not None:
                admin.set(case["data"])
            status, _, body = raw("PUT", ".settings/rules", headers={"Authorization": "Bearer owner"}, body=table["rulesets"][case["rules"]])
            expect((status, json.loads(body)), (200, {"status": "ok"}))
            operation = perform(case["operation"], app_for(case["auth"]))
            if case["expected"] == "allow":
                operation()
            else:
                denied(operation)


def perform(operation, app):
    """The firebase-admin call of a table case's operation."""
    if "read" in operation:
        reference = db.reference(operation["read"], app=app)
        query = operation.get("query")
        if not query:
            return reference.get
        order = query["orderBy"]
        if order == "$key":
            built = reference.order_by_key()
        elif order == "$value":
            built = reference.order_by_value()
        else:
            built = reference.order_by_child(order)
        for name, method in (("equalTo", "equal_to"), ("startAt", "start_at"), ("endAt", "end_at"),
                             ("limitToFirst", "limit_to_first"), ("limitToLast", "limit_to_last")):
            if name in query:
                built = getattr(built, method)(query[name])
        return built.get
    if "write" in operation:
        reference = db.reference(operation["write"], app=app)
        if operation["value"] is None:
            return reference.delete
        return lambda: reference.set(operation["value"])
    reference = db.reference(operation["update"], app=app)
    return lambda: reference.update(operation["values"])

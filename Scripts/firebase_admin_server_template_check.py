"""Compares ConfigFeatures' RemoteConfigServerTemplate with Google's firebase-admin (issue 38, item 4).

Run by Scripts/firebase-admin-check.sh with FIREBASE_RC_SERVER_HOST pointing at a
`firebase-test-server` and SERVER_TEMPLATE_EVAL naming the `server-template-eval` binary (ours).
For each generated template (nested and/or trees, true/false, seeded percent conditions with
micro-percent boundaries and ranges, every custom-signal operator with edge cases, values for
every conversion) it:

1. publishes the template on the test server (PUT …/namespaces/firebase-server/serverRemoteConfig);
2. loads it with firebase-admin's own `ServerTemplate.load()`: firebase-admin has no emulator
   override for Remote Config, so its HTTP client's base URL (a private attribute) is pointed at
   the loopback server and its credential is a static OAuth token; it sends its usual
   GET …/serverRemoteConfig with `Authorization: Bearer`;
3. loads it with ours (`server-template-eval --emulator-host`, RemoteConfigServerTemplate.load());
4. evaluates the same generated contexts (random randomization IDs, custom signals including
   malformed numbers and versions) with both, with the same `default_config`, and asserts that
   every parameter's string, number, boolean value and source are identical (and that a key in
   neither is static in both).

Everything is generated from a fixed seed. Prints the counts; exits 1 on any difference.
"""

import asyncio
import hashlib
import json
import logging
import math
import os
import random
import subprocess
import sys
import tempfile
import urllib.request

import firebase_admin
import google.oauth2.credentials
from firebase_admin import credentials, remote_config

HOST = os.environ["FIREBASE_RC_SERVER_HOST"]
EVAL = os.environ["SERVER_TEMPLATE_EVAL"]
PROJECT = os.environ.get("FIREBASE_RC_PROJECT", "demo-project")
API_KEY = os.environ.get("FIREBASE_RC_API_KEY", "test-api-key")
CONTEXTS = int(os.environ.get("SERVER_TEMPLATE_CONTEXTS", "10000"))
TEMPLATES = int(os.environ.get("SERVER_TEMPLATE_COUNT", "6"))
SEED = 20261207
SERVER_PATH = f"/v1/projects/{PROJECT}/namespaces/firebase-server/serverRemoteConfig"

logging.getLogger("firebase_admin.remote_config").setLevel(logging.ERROR)
rng = random.Random(SEED)

SIGNAL_KEYS = ["tier", "version", "score", "name", "randomization_id", "empty"]
STRING_VALUES = ["gold", " gold ", "GOLD", "golden", "silver", "\u00a0gold\u3000", "\x1cgold", "go ld", "plat-inum", "é", "e\u0301",
                 "١٢", "abc123", "x", "  ", "gold\tsilver"]
NUMBER_VALUES = ["10", "9.99", "10.0", "1e1", " 10 ", "1_0", "_10", "10_", "1__0", "+10", "-0", "0", "nan", "NaN", "inf", "-Infinity",
                 "1e400", "-1e400", "5.", ".5", ".", "e5", "1e", "0x10", "١٠", "1,000", "12abc", "\u00a010\u2003", "\x1c10", "1e-400",
                 "99999999999999999999", "0.1", "-3"]
VERSION_VALUES = ["1.2.3", "1.2", "1.2.0", "1.02.3", "1.2.3.4.5.6", "2", "1..2", "-1.0", "1.-1", "2.-1", "+1.2", " 1.2", "1 .2", "1.2 ",
                  "01.2", "1.2_0", "1._2", "99999999999999999999.1", "99999999999999999998.9", "1.a", "a", ".", "1.", ".1", "١.٢",
                  "0.0.0", "-0.1", "10.0.0", "9.9.9"]
RANDOM_IDS = ["user-1", "user-2", "boundary-a", "boundary-b", "ü-ñicode", "a" * 80, "123", " ", "0"]
SEEDS = ["", "seed1", "exp-A", "ünï", "42"]
VALUES = ["1", "true", "TRUE", "t", "Yes", "y", "on", "ON", "0", "false", "no", "off", "3.5", " 2 ", "1_000", "nan", "inf", "-Infinity",
          "1e400", "abc", "", "٣", "0x10", "1e", ".5", "tRuE ", "İ", "{\"a\": 1}"]

STRING_OPERATORS = ["STRING_CONTAINS", "STRING_DOES_NOT_CONTAIN", "STRING_EXACTLY_MATCHES", "STRING_CONTAINS_REGEX"]
NUMERIC_OPERATORS = ["NUMERIC_LESS_THAN", "NUMERIC_LESS_EQUAL", "NUMERIC_EQUAL", "NUMERIC_NOT_EQUAL", "NUMERIC_GREATER_THAN",
                     "NUMERIC_GREATER_EQUAL"]
VERSION_OPERATORS = ["SEMANTIC_VERSION_LESS_THAN", "SEMANTIC_VERSION_LESS_EQUAL", "SEMANTIC_VERSION_EQUAL", "SEMANTIC_VERSION_NOT_EQUAL",
                     "SEMANTIC_VERSION_GREATER_THAN", "SEMANTIC_VERSION_GREATER_EQUAL"]
# Patterns both Python's `re` and Swift's Regex read the same way on these signals (no \s, no
# newlines in the signals): the check is about the operator, not about two regex dialects.
REGEXES = ["^go", "ld$", "g.l", "[0-9]+", "(gold|silver)", "^[a-z]+$", "a*", "\\d", "GOLD", "^ ", "l{2,}", "[^a-z]"]


def percentile(seed, randomization_id):
    text = f"{seed}.{randomization_id}" if seed else randomization_id
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest(), 16) % 100_000_000


def leaf(kind=None, operator=None):
    kind = kind or rng.choices(["true", "false", "percent", "string", "numeric", "version", "odd"], [1, 1, 4, 4, 4, 4, 1])[0]
    if kind == "true":
        return {"true": {}}
    if kind == "false":
        return {"false": {}}
    if kind == "odd":
        return rng.choice([{}, {"unknownCondition": {}}, {"customSignal": {"customSignalOperator": "STRING_CONTAINS", "customSignalKey": "tier",
                                                                            "targetCustomSignalValues": []}},
                           {"customSignal": {"customSignalOperator": "STRING_SHOUTS", "customSignalKey": "tier", "targetCustomSignalValues": ["a"]}},
                           {"customSignal": {"customSignalOperator": "", "customSignalKey": "tier", "targetCustomSignalValues": ["a"]}},
                           {"percent": {"percentOperator": "UNKNOWN", "microPercent": 5}},
                           {"percent": {"microPercent": 50_000_000}}])
    if kind == "percent":
        seed = rng.choice(SEEDS)
        operator = operator or rng.choice(["LESS_OR_EQUAL", "GREATER_THAN", "BETWEEN"])
        condition = {"percentOperator": operator}
        if seed or rng.random() < 0.5:
            condition["seed"] = seed
        boundary = percentile(seed, rng.choice(RANDOM_IDS))
        if operator == "BETWEEN":
            if rng.random() < 0.5:
                low, high = sorted(rng.sample(range(0, 100_000_001), 2))
            else:
                low, high = rng.choice([(boundary, boundary + 10), (boundary - 1, boundary), (boundary - 10, boundary - 1), (0, 0)])
            condition["microPercentRange"] = ({} if rng.random() < 0.05
                                              else {"microPercentLowerBound": low, "microPercentUpperBound": high})
        else:
            condition["microPercent"] = rng.choice([boundary, boundary - 1, boundary + 1, 0, 100_000_000,
                                                    rng.randrange(0, 100_000_001)])
        return {"percent": condition}
    if kind == "string":
        operator = operator or rng.choice(STRING_OPERATORS)
        if operator == "STRING_CONTAINS_REGEX":
            targets = rng.sample(REGEXES, rng.randint(1, 2))
        else:
            targets = rng.sample(["gold", " gold ", "GOLD", "old", "", "silver", "é", "١", "x", "plat"], rng.randint(1, 3))
        return {"customSignal": {"customSignalOperator": operator, "customSignalKey": rng.choice(["tier", "name", "randomization_id", "empty"]),
                                 "targetCustomSignalValues": targets}}
    if kind == "numeric":
        target = rng.choice(["10", "1e1", " 10 ", "abc", "nan", "-inf", "1_0", "٣", "0", "-0.0", "9.99", "1e400"])
        return {"customSignal": {"customSignalOperator": operator or rng.choice(NUMERIC_OPERATORS), "customSignalKey": rng.choice(["score", "version", "tier"]),
                                 "targetCustomSignalValues": [target] + ([rng.choice(["1", "x"])] if rng.random() < 0.2 else [])}}
    target = rng.choice(["1.2.3", "1.2", "2", "1.2.3.4.5.6", "1.-2", "1.a", "01.2", " 1.2 ", "99999999999999999999", "0", "10.0.0"])
    return {"customSignal": {"customSignalOperator": operator or rng.choice(VERSION_OPERATORS), "customSignalKey": rng.choice(["version", "score"]),
                             "targetCustomSignalValues": [target]}}


def tree(depth):
    if depth <= 0 or rng.random() < 0.35:
        return leaf()
    kind = rng.choice(["orCondition", "andCondition"])
    return {kind: {"conditions": [tree(depth - 1) for _ in range(rng.randint(0, 3))]}}


def deep(levels):
    node = {"true": {}}
    for _ in range(levels):
        node = {"andCondition": {"conditions": [node]}}
    return node


def value_object():
    roll = rng.random()
    if roll < 0.1:
        return {"useInAppDefault": True}
    if roll < 0.13:
        return {}
    return {"value": rng.choice(VALUES)}


def template(index):
    names = [f"c{index}_{n}" for n in range(rng.randint(4, 8))]
    conditions = [{"name": name, "condition": tree(rng.randint(1, 6))} for name in names]
    # Every operator at the top level, twice, so each is compared on every context.
    flat = [("percent", op) for op in ["LESS_OR_EQUAL", "GREATER_THAN", "BETWEEN"]] + [("string", op) for op in STRING_OPERATORS] + \
        [("numeric", op) for op in NUMERIC_OPERATORS] + [("version", op) for op in VERSION_OPERATORS]
    for kind, operator in flat * 2:
        name = f"c{index}_{operator.lower()}_{len(names)}"
        names.append(name)
        conditions.append({"name": name, "condition": leaf(kind, operator)})
    # The nesting limit: 4 and-levels reach the leaf (level 8); 5 do not (level 10 is false).
    conditions.append({"name": f"c{index}_deep4", "condition": deep(4)})
    conditions.append({"name": f"c{index}_deep5", "condition": deep(5)})
    if rng.random() < 0.5:
        conditions.append({"name": names[0], "condition": tree(2)})  # a repeated name
    parameters = {}
    for p in range(rng.randint(6, 10)):
        parameter = {}
        roll = rng.random()
        if roll < 0.8:
            parameter["defaultValue"] = value_object()
        chosen = rng.sample([c["name"] for c in conditions], rng.randint(0, min(4, len(conditions))))
        if chosen:
            parameter["conditionalValues"] = {name: value_object() for name in chosen}
        parameters[f"p{p}"] = parameter
    # One parameter per condition, so that every condition's result is compared, not only those
    # that decide a value.
    for name in names + [f"c{index}_deep4", f"c{index}_deep5"]:
        parameters[f"is_{name}"] = {"defaultValue": {"value": "false"}, "conditionalValues": {name: {"value": "true"}}}
    defaults = {f"p{p}": rng.choice(VALUES) for p in range(0, 12, 2)}
    defaults["only_default"] = rng.choice(VALUES)
    return {"conditions": conditions, "parameters": parameters}, defaults


def context():
    roll = rng.random()
    if roll < 0.08:
        randomization_id = None
    elif roll < 0.12:
        randomization_id = ""
    elif roll < 0.5:
        randomization_id = rng.choice(RANDOM_IDS)
    else:
        randomization_id = "".join(rng.choice("abcdef0123456789-ü") for _ in range(rng.randint(1, 36)))
    signals = {}
    for key in SIGNAL_KEYS:
        if rng.random() < 0.7:
            pool = {"tier": STRING_VALUES, "name": STRING_VALUES, "score": NUMBER_VALUES, "version": VERSION_VALUES + NUMBER_VALUES,
                    "randomization_id": RANDOM_IDS, "empty": [""]}[key]
            signals[key] = rng.choice(pool)
    if randomization_id is not None:
        signals.pop("randomization_id", None)
    return randomization_id, signals


def put_template(body):
    request = urllib.request.Request(f"http://{HOST}{SERVER_PATH}", data=json.dumps(body).encode(), method="PUT",
                                     headers={"Authorization": "Bearer owner", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200, response.status


class StaticToken(credentials.Base):
    def get_credential(self):
        return google.oauth2.credentials.Credentials(token="owner")


def admin_template(app, defaults):
    server_template = remote_config.init_server_template(app=app, default_config=defaults)
    client = server_template._rc_service._client  # no emulator override: point it at the loopback server
    client._base_url = f"http://{HOST}"
    asyncio.run(server_template.load())
    return server_template


def same_number(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == b


def main():
    app = firebase_admin.initialize_app(StaticToken(), {"projectId": PROJECT}, name="server-template-check")
    contexts = [context() for _ in range(CONTEXTS)]
    lines = "".join(json.dumps({"randomizationId": rid, "signals": signals}) + "\n" for rid, signals in contexts)
    evaluations = compared = differences = 0
    sources = {"remote": 0, "default": 0, "static": 0}
    outcomes = {True: 0, False: 0}
    for index in range(TEMPLATES):
        body, defaults = template(index)
        put_template(body)
        theirs = admin_template(app, defaults)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            json.dump(defaults, file)
            defaults_file = file.name
        run = subprocess.run([EVAL, "--emulator-host", HOST, "--project", PROJECT, "--api-key", API_KEY, "--defaults", defaults_file],
                             input=lines, capture_output=True, text=True, check=False)
        os.unlink(defaults_file)
        if run.returncode != 0:
            print(f"FAIL  template {index}: server-template-eval exited {run.returncode}: {run.stderr.strip()}")
            return 1
        ours_lines = run.stdout.splitlines()
        assert len(ours_lines) == len(contexts), (len(ours_lines), len(contexts))
        keys = sorted(set(body["parameters"]) | set(defaults) | {"not_a_key"})
        for (rid, signals), line in zip(contexts, ours_lines):
            ours = json.loads(line)
            context_dict = dict(signals)
            if rid is not None:
                context_dict["randomization_id"] = rid
            config = theirs.evaluate(context_dict)
            evaluations += 1
            for key in keys:
                expected = (config.get_string(key), config.get_value_source(key), config.get_float(key), config.get_boolean(key))
                mine = ours.get(key)
                actual = (mine["value"], mine["source"], float(mine["number"]), mine["bool"]) if mine else ("", "static", 0.0, False)
                compared += 1
                sources[expected[1]] += 1
                if key.startswith("is_"):
                    outcomes[expected[0] == "true"] += 1
                if expected[0] != actual[0] or expected[1] != actual[1] or not same_number(expected[2], actual[2]) or expected[3] != actual[3]:
                    differences += 1
                    if differences <= 20:
                        print(f"FAIL  template {index} key {key} randomization_id={rid!r} signals={signals!r}: "
                              f"firebase-admin {expected!r}, ours {actual!r}")
        print(f"ok    template {index}: {len(body['conditions'])} conditions, {len(body['parameters'])} parameters, "
              f"{len(contexts)} contexts", flush=True)
    print(f"{TEMPLATES} templates, {evaluations} evaluations, {compared} values compared "
          f"(remote {sources['remote']}, default {sources['default']}, static {sources['static']}), {differences} differences; "
          f"top-level conditions true {outcomes[True]} times, false {outcomes[False]} times")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())

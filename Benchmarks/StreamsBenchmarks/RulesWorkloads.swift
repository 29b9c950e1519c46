import ConfigFeatures
import ConfigFeaturesTestServer
import Foundation

/// The Security Rules workloads (issue 37): what `FirebaseTestServer` spends deciding one read
/// or one write, on the rules engine directly (no HTTP).
///
/// `rules_read_depth10` and `rules_write_depth10`: a location 10 levels deep (`$a1`…`$a10`)
/// under 20 rules (a `.read` and a `.write` at every level) plus a `.validate` at the leaf. The
/// 9 rules above the leaf are false for the signed-in user (`auth.token.admin === true`), so
/// every decision walks all 10 levels (the cascade stops at the first true rule); the leaf's
/// rules check the user, a membership in `root`, the old data and (writes) the new data's
/// shape. `rules_regex_long_string`: one `matches(/^…$/)` on a 9,000-character string.
func rulesWorkloads() -> [Workload] {
    [rulesRead(), rulesWrite(), rulesRegexLongString()]
}

/// The rules of the depth-10 workloads.
private let depth10Rules: DatabaseRules = {
    let leaf = """
        {".read": "auth != null && auth.uid === $a1 && root.child('members').child($a2).hasChild(auth.uid)",
         ".write": "auth != null && auth.uid === $a1 && (!data.exists() || data.child('author').val() === auth.uid)",
         ".validate": "newData.hasChildren(['text', 'author']) && newData.child('text').isString() && newData.child('text').val().length < 500 && newData.child('author').val() === auth.uid"}
        """
    var node = leaf
    for level in stride(from: 9, through: 1, by: -1) {
        node = #"{".read": "auth != null && auth.token.admin === true", ".write": "auth != null && auth.token.admin === true", "$a\#(level + 1)": \#(node)}"#
    }
    do {
        return try DatabaseRules(#"{"rules": {"$a1": "# + node + "}}")
    } catch {
        fatalError("rules workloads: \(error)")
    }
}()

private let depth10User: JSONValue = ["uid": "u1", "provider": "password", "token": ["sub": "u1"]]
private let depth10Parent = ["u1", "g1", "c3", "c4", "c5", "c6", "c7", "c8", "c9"]
private let depth10Tree: JSONValue = [
    "members": ["g1": ["u1": true, "u2": true]],
    "u1": ["g1": ["c3": ["c4": ["c5": ["c6": ["c7": ["c8": ["c9": ["m0": ["text": "first", "author": "u1"]]]]]]]]]],
]

/// `n` reads of `/u1/g1/c3/…/c9/m0`; the checksum counts the allowed ones (all).
private func rulesRead() -> Workload {
    Workload(name: "rules_read_depth10", unit: "read", baseSize: 20_000, events: { $0 }, expected: { $0 }) { n in
        var allowed = 0
        let path = depth10Parent + ["m0"]
        for _ in 0..<n where depth10Rules.read(path, auth: depth10User, root: depth10Tree, now: 0).allowed { allowed += 1 }
        return allowed
    }
}

/// `n` writes of a new message `/u1/g1/c3/…/c9/m<i>` (`.write` and `.validate` decide); the
/// checksum counts the allowed ones (all).
private func rulesWrite() -> Workload {
    Workload(name: "rules_write_depth10", unit: "write", baseSize: 10_000, events: { $0 }, expected: { $0 }) { n in
        var allowed = 0
        for i in 0..<n {
            let message: JSONValue = ["text": .string("hello \(i)"), "author": "u1"]
            let write = RulesWrite([(depth10Parent + ["m\(i % 64 + 1)"], message)])
            if depth10Rules.write(write, auth: depth10User, root: depth10Tree, now: 0).allowed { allowed += 1 }
        }
        return allowed
    }
}

/// `n` writes of a 9,000-character string validated by one anchored regular expression; the
/// checksum counts the allowed ones (all).
private func rulesRegexLongString() -> Workload {
    let rules: DatabaseRules
    do {
        rules = try DatabaseRules(
            #"{"rules": {".write": true, "s": {".validate": "newData.isString() && newData.val().matches(/^([a-z0-9]+[-_. ])*[a-z0-9]+$/)"}}}"#)
    } catch {
        fatalError("rules workloads: \(error)")
    }
    let words = (0..<1_000).map { "word\($0 % 10)" }.joined(separator: " ")
    let text = JSONValue.string(String(words.prefix(9_000)).trimmingCharacters(in: [" "]))
    return Workload(name: "rules_regex_long_string", unit: "match", baseSize: 2_000, events: { $0 }, expected: { $0 }) { n in
        var allowed = 0
        for _ in 0..<n where rules.write(RulesWrite([(["s"], text)]), auth: .null, root: .null, now: 0).allowed { allowed += 1 }
        return allowed
    }
}

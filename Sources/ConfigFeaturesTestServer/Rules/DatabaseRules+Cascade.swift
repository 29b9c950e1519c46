import ConfigFeatures

/// What the rules decided about one request, and why (for the log and explanations).
package struct RulesDecision: Equatable, Sendable {
    /// Whether the operation may proceed.
    package var allowed: Bool
    /// Which rule at which location decided, or that none granted.
    package var explanation: String
}

/// A write to check: the locations it sets (`.null` deletes), all or nothing.
package struct RulesWrite {
    /// Each location and the value it gets.
    package var locations: [(path: [String], value: JSONValue)]

    /// A write of `locations`.
    package init(_ locations: [(path: [String], value: JSONValue)]) { self.locations = locations }
}

extension DatabaseRules {
    /// The rules nodes from the root down `path`, each with its captures, as far as rules exist.
    private func nodes(along path: [String]) -> [(node: RulesNode, depth: Int, captures: [String: String])] {
        var result = [(root, 0, [String: String]())]
        var node = root
        var captures: [String: String] = [:]
        for (depth, segment) in path.enumerated() {
            guard let (child, capture) = node.child(segment) else { break }
            node = child
            if let capture { captures[capture.name] = capture.value }
            result.append((node, depth + 1, captures))
        }
        return result
    }

    private static func location(_ path: some Collection<String>) -> String { "/" + path.joined(separator: "/") }

    /// Evaluates `rule` (false with a reason on an evaluation error).
    private static func evaluate(_ rule: CompiledRule, _ environment: RulesEnvironment, _ evaluator: inout RulesEvaluator) -> (Bool, String?) {
        switch rule.body {
        case .constant(let value): return (value, nil)
        case .expression(let expression):
            do {
                let value = try evaluator.evaluate(expression, in: environment)
                return (value == .json(.bool(true)), value == .json(.bool(true)) || value == .json(.bool(false)) ? nil : "not a boolean")
            } catch {
                return (false, error.message)
            }
        }
    }

    /// A rule that was false, kept to explain a denial (formatted only then).
    private struct FalseRule {
        var kind: String
        var location: [String]
        var rule: CompiledRule
        var reason: String?

        var note: String { "\(kind) at \(DatabaseRules.location(location)) is false\(reason.map { " (\($0))" } ?? ""): \(rule.source)" }
    }

    /// "no `kind` rule granted `path`", and the false rules on the way.
    private static func denial(_ kind: String, _ path: [String], _ falseRules: [FalseRule]) -> RulesDecision {
        RulesDecision(
            allowed: false,
            explanation: "no \(kind) rule granted \(location(path))"
                + (falseRules.isEmpty ? " (none applies)" : "; " + falseRules.map(\.note).joined(separator: "; ")))
    }

    /// Whether `auth` may read `path` (with `query` for a query's `.read` rules): a `.read` that
    /// is true at the location or above grants; rules below never do (rules are not filters).
    package func read(_ path: [String], auth: JSONValue, root tree: JSONValue, now: Double, query: JSONValue = Self.noQuery) -> RulesDecision {
        var evaluator = RulesEvaluator()
        var falseRules: [FalseRule] = []
        for (node, depth, captures) in nodes(along: path) {
            guard let rule = node.read else { continue }
            let prefix = Array(path.prefix(depth))
            let environment = RulesEnvironment(auth: auth, before: tree, after: tree, path: prefix, now: now, query: query, captures: captures)
            let (granted, reason) = Self.evaluate(rule, environment, &evaluator)
            if granted { return RulesDecision(allowed: true, explanation: ".read at \(Self.location(prefix)) granted: \(rule.source)") }
            falseRules.append(FalseRule(kind: ".read", location: prefix, rule: rule, reason: reason))
        }
        return Self.denial(".read", path, falseRules)
    }

    /// Whether `auth` may make `write` to `tree`: every location needs a `.write` that is true at
    /// it or above, and every `.validate` of a location the write sets to a non-null value (at,
    /// above and below the written locations) must be true on the new data. All or nothing.
    package func write(_ write: RulesWrite, auth: JSONValue, root tree: JSONValue, now: Double) -> RulesDecision {
        var after = tree
        for (path, value) in write.locations { after = RealtimeDatabaseTree.setting(value, at: path[...], in: after) }
        var evaluator = RulesEvaluator()
        var grants: [String] = []
        for (path, _) in write.locations {
            var granted = false
            var falseRules: [FalseRule] = []
            for (node, depth, captures) in nodes(along: path) {
                guard let rule = node.write else { continue }
                let prefix = Array(path.prefix(depth))
                let environment = RulesEnvironment(auth: auth, before: tree, after: after, path: prefix, now: now, query: Self.noQuery, captures: captures)
                let (value, reason) = Self.evaluate(rule, environment, &evaluator)
                if value {
                    granted = true
                    grants.append(".write at \(Self.location(prefix)) granted: \(rule.source)")
                    break
                }
                falseRules.append(FalseRule(kind: ".write", location: prefix, rule: rule, reason: reason))
            }
            if !granted { return Self.denial(".write", path, falseRules) }
        }
        var validated: Set<[String]> = []
        for (path, _) in write.locations {
            let along = nodes(along: path)
            for (node, depth, captures) in along {
                let prefix = Array(path.prefix(depth))
                if let failure = validate(
                    node, at: prefix, captures: captures, auth: auth, tree: tree, after: after, now: now, seen: &validated, evaluator: &evaluator)
                {
                    return RulesDecision(allowed: false, explanation: failure)
                }
            }
            if along.count == path.count + 1, let (node, _, captures) = along.last {
                if let failure = validateBelow(
                    node, at: path, captures: captures, auth: auth, tree: tree, after: after, now: now, seen: &validated, evaluator: &evaluator)
                {
                    return RulesDecision(allowed: false, explanation: failure)
                }
            }
        }
        return RulesDecision(allowed: true, explanation: grants.joined(separator: "; "))
    }

    private func validate(
        _ node: RulesNode, at path: [String], captures: [String: String], auth: JSONValue, tree: JSONValue, after: JSONValue, now: Double,
        seen: inout Set<[String]>, evaluator: inout RulesEvaluator
    ) -> String? {
        guard let rule = node.validate, seen.insert(path).inserted else { return nil }
        // Not for deletions: .validate runs only where the new data exists.
        guard RealtimeDatabaseTree.value(at: path[...], in: after) != .null else { return nil }
        let environment = RulesEnvironment(auth: auth, before: tree, after: after, path: path, now: now, query: Self.noQuery, captures: captures)
        let (valid, reason) = Self.evaluate(rule, environment, &evaluator)
        return valid ? nil : ".validate at \(Self.location(path)) is false\(reason.map { " (\($0))" } ?? ""): \(rule.source)"
    }

    /// Runs the `.validate` rules of the written subtree below `path`.
    private func validateBelow(
        _ node: RulesNode, at path: [String], captures: [String: String], auth: JSONValue, tree: JSONValue, after: JSONValue, now: Double,
        seen: inout Set<[String]>, evaluator: inout RulesEvaluator
    ) -> String? {
        let value = RealtimeDatabaseTree.value(at: path[...], in: after)
        let keys: [String]
        switch value {
        case .object(let members): keys = members.keys.sorted()
        case .array(let elements): keys = elements.indices.filter { elements[$0] != .null }.map(String.init)
        default: return nil
        }
        for key in keys {
            guard let (child, capture) = node.child(key) else { continue }
            var childCaptures = captures
            if let capture { childCaptures[capture.name] = capture.value }
            let childPath = path + [key]
            if let failure = validate(
                child, at: childPath, captures: childCaptures, auth: auth, tree: tree, after: after, now: now, seen: &seen, evaluator: &evaluator)
            {
                return failure
            }
            if let failure = validateBelow(
                child, at: childPath, captures: childCaptures, auth: auth, tree: tree, after: after, now: now, seen: &seen, evaluator: &evaluator)
            {
                return failure
            }
        }
        return nil
    }

    /// `query` of a plain read or of a write: no ordering, no limits.
    package static let noQuery: JSONValue = .object([
        "orderByChild": .null, "orderByKey": .bool(false), "orderByValue": .bool(false), "orderByPriority": .bool(false), "limitToFirst": .null,
        "limitToLast": .null, "startAt": .null, "endAt": .null, "equalTo": .null,
    ])
}

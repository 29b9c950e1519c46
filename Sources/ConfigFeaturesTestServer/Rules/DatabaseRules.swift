import ConfigFeatures

/// One `.read`, `.write` or `.validate` rule: a constant or a type-checked expression.
struct CompiledRule: Sendable {
    enum Body: Sendable {
        case constant(Bool)
        case expression(RulesExpression)
    }

    var body: Body
    /// The rule's text, for explanations.
    var source: String
}

/// The rules of one location of the rules tree.
struct RulesNode: Sendable {
    var read: CompiledRule?
    var write: CompiledRule?
    var validate: CompiledRule?
    /// `.indexOn`: accepted and kept; queries work without it (see the article).
    var indexOn: [String] = []
    var children: [String: RulesNode] = [:]
    /// The `$wildcard` child, if any (an array only to break the recursion of the type).
    var wildcards: [Wildcard] = []

    /// The `$wildcard` child and its name (with the `$`).
    var wildcard: Wildcard? { wildcards.first }

    /// The rules for the child `key`: its literal rules, which take precedence, else the
    /// `$wildcard` rules with the capture `key` gives that wildcard; `nil` when neither exists.
    func child(_ key: String) -> (node: RulesNode, capture: (name: String, value: String)?)? {
        if let literal = children[key] { return (literal, nil) }
        if let wildcard { return (wildcard.node, (wildcard.name, key)) }
        return nil
    }

    /// A `$wildcard` child rule.
    struct Wildcard: Sendable {
        var name: String
        var node: RulesNode
    }
}

/// A loaded, checked rules text: what `FirebaseTestServer` evaluates on every database request.
package struct DatabaseRules: Sendable {
    /// The rules when none are loaded: open, as the emulator's.
    package static let openText = #"{"rules": {".read": true, ".write": true}}"#
    /// The longest rules text accepted.
    package static let maximumTextLength = 1_048_576

    /// The text the rules were loaded from.
    package let text: String
    let root: RulesNode

    /// Parses and checks `text`.
    package init(_ text: String) throws(FirebaseTestServerRulesError) {
        guard text.utf8.count <= Self.maximumTextLength else {
            throw FirebaseTestServerRulesError(line: 1, column: 1, message: "rules text longer than \(Self.maximumTextLength) bytes")
        }
        let json = try RulesJSONReader.read(text)
        guard case .object(let members, let at) = json else { throw json.position.error("expected an object {\"rules\": {…}}") }
        guard let rules = members.first(where: { $0.key == "rules" }) else { throw at.error("expected the key \"rules\"") }
        if let other = members.first(where: { $0.key != "rules" }) {
            throw other.keyAt.error("unknown top-level key \"\(other.key)\" (expected only \"rules\")")
        }
        self.text = text
        root = try Self.node(rules.value, captures: [])
    }

    private static func node(_ json: RulesJSON, captures: Set<String>) throws(FirebaseTestServerRulesError) -> RulesNode {
        guard case .object(let members, _) = json else { throw json.position.error("expected an object of rules") }
        var node = RulesNode()
        for member in members {
            let key = member.key
            switch key {
            case ".read": node.read = try rule(member.value, kind: .read, captures: captures)
            case ".write": node.write = try rule(member.value, kind: .write, captures: captures)
            case ".validate": node.validate = try rule(member.value, kind: .validate, captures: captures)
            case ".indexOn":
                switch member.value {
                case .string(let name, _, _): node.indexOn = [name]
                case .array(let elements, _):
                    for element in elements {
                        guard case .string(let name, _, _) = element else { throw element.position.error("expected a child name (a string) in .indexOn") }
                        node.indexOn.append(name)
                    }
                default: throw member.value.position.error("expected a child name or an array of child names for .indexOn")
                }
            default:
                if key.hasPrefix(".") {
                    throw member.keyAt.error("unknown rule \"\(key)\" (expected .read, .write, .validate or .indexOn)")
                }
                let body = key.hasPrefix("$") ? key.dropFirst() : key[...]
                if body.isEmpty || body.contains(where: { ".$#[]/".contains($0) || $0.asciiValue.map { $0 < 32 || $0 == 127 } == true }) {
                    throw member.keyAt.error("\"\(key)\" is not a valid key (keys cannot be empty or contain . $ # [ ] / or control characters)")
                }
                if key.hasPrefix("$") {
                    if let existing = node.wildcard {
                        throw member.keyAt.error("two wildcards at one level (\(existing.name) and \(key)); use one")
                    }
                    if captures.contains(key) { throw member.keyAt.error("the wildcard \(key) is already used above") }
                    node.wildcards = [RulesNode.Wildcard(name: key, node: try Self.node(member.value, captures: captures.union([key])))]
                } else {
                    node.children[key] = try Self.node(member.value, captures: captures)
                }
            }
        }
        return node
    }

    private static func rule(_ json: RulesJSON, kind: RulesKind, captures: Set<String>) throws(FirebaseTestServerRulesError) -> CompiledRule {
        switch json {
        case .bool(let value, _): return CompiledRule(body: .constant(value), source: String(value))
        case .string(let text, let positions, let at):
            let characters = Array(text)
            func position(_ offset: Int) -> RulesPosition {
                if offset < positions.count { return positions[offset] }
                guard let last = positions.last else { return RulesPosition(line: at.line, column: at.column + 1) }
                return RulesPosition(line: last.line, column: last.column + 1 + offset - positions.count)
            }
            if characters.allSatisfy(\.isWhitespace) { throw position(0).error("expected an expression for \(kind.rawValue), found an empty string") }
            do throws(RulesLexError) {
                let expression = try RulesParser.parse(characters)
                let type = try RulesTypeChecker(kind: kind, captures: captures).type(of: expression)
                guard type == .bool || type == .any else {
                    throw RulesLexError(offset: 0, message: "\(kind.rawValue) must be a boolean expression, found \(RulesTypeChecker.name(type))")
                }
                return CompiledRule(body: .expression(expression), source: text)
            } catch {
                throw position(error.offset).error(error.message)
            }
        default:
            throw json.position.error("expected true, false or an expression string for \(kind.rawValue)")
        }
    }
}

import ConfigFeatures
import Foundation

extension FirebaseTestServer {
    /// A Remote Config template as the server serves it: the parameters and their default values.
    ///
    /// Read one from Firebase's own template JSON (what `firebase remoteconfig:get -o file.json`
    /// writes and the Remote Config REST API's `GET …/remoteConfig` answers):
    ///
    ///     {
    ///       "conditions": [ … ],
    ///       "parameters": {
    ///         "welcome": { "defaultValue": { "value": "hi" }, "valueType": "STRING" },
    ///         "legacy": { "defaultValue": { "useInAppDefault": true } }
    ///       },
    ///       "parameterGroups": {
    ///         "onboarding": { "parameters": { "steps": { "defaultValue": { "value": "3" } } } }
    ///       },
    ///       "version": { "versionNumber": "12" }
    ///     }
    ///
    /// A fetch answers each parameter's `defaultValue.value`, from `parameters` and from every
    /// group's `parameters`. A parameter whose default is `useInAppDefault`, or that has no
    /// default, is left out (as Firebase leaves it out when no value applies). Conditions and
    /// `conditionalValues` are accepted but not evaluated: the server has no app instance to
    /// evaluate them for. Other members (`version`, `etag`, `description`, `valueType`) are ignored.
    public struct RemoteConfigTemplate: Sendable, Hashable {
        /// The value a fetch answers for each parameter.
        public var parameters: [String: String]

        /// A template with these parameter values.
        public init(parameters: [String: String]) {
            self.parameters = parameters
        }

        /// Reads Firebase's template JSON.
        ///
        /// - Parameters:
        ///   - json: The template JSON.
        ///   - file: The file it came from, named in errors (`nil`: none).
        /// - Throws: `FirebaseTestServerDataError.invalidJSON` or `.invalidTemplate`.
        public init(json: Data, file: String? = nil) throws(FirebaseTestServerDataError) {
            let value: JSONValue
            do {
                value = try JSONValue(parsing: json)
            } catch {
                throw .invalidJSON(file: file, reason: "\(error)")
            }
            try self.init(parsing: value, file: file)
        }

        /// Reads Firebase's template JSON from `url`.
        ///
        /// - Throws: `FirebaseTestServerDataError.unreadable`, `.invalidJSON` or `.invalidTemplate`.
        public init(contentsOf url: URL) throws(FirebaseTestServerDataError) {
            try self.init(json: FirebaseTestServerDataError.read(url), file: url.path)
        }

        private init(parsing template: JSONValue, file: String?) throws(FirebaseTestServerDataError) {
            func invalid(_ path: String, _ expected: String) -> FirebaseTestServerDataError {
                .invalidTemplate(file: file, path: path, expected: expected)
            }
            guard let members = template.objectValue else {
                throw invalid("(top level)", #"a JSON object such as {"parameters": {"key": {"defaultValue": {"value": "text"}}}}"#)
            }
            var values: [String: String] = [:]
            var seen: Set<String> = []
            func read(_ parameters: JSONValue?, at path: String) throws(FirebaseTestServerDataError) {
                guard let parameters else { return }
                guard let entries = parameters.objectValue else { throw invalid(path, "an object of parameters keyed by name") }
                for (name, parameter) in entries.sorted(by: { $0.key < $1.key }) {
                    let here = "\(path).\(name)"
                    guard !name.isEmpty else { throw invalid(path, "parameter names that are not empty") }
                    guard !seen.contains(name) else { throw invalid(here, "each parameter once (\(name) is defined twice)") }
                    seen.insert(name)
                    guard let fields = parameter.objectValue else { throw invalid(here, #"an object such as {"defaultValue": {"value": "text"}}"#) }
                    guard let defaultValue = fields["defaultValue"] else { continue }
                    guard let defaultFields = defaultValue.objectValue else {
                        throw invalid("\(here).defaultValue", #"an object: {"value": "text"} or {"useInAppDefault": true}"#)
                    }
                    if let value = defaultFields["value"] {
                        guard let text = value.stringValue else {
                            throw invalid(
                                "\(here).defaultValue.value",
                                "a string (Remote Config values are strings: write \(JSONValue.string(value.serialized())) for \(value))")
                        }
                        values[name] = text
                    } else if let inApp = defaultFields["useInAppDefault"] {
                        guard inApp.boolValue != nil else { throw invalid("\(here).defaultValue.useInAppDefault", "true or false") }
                    } else {
                        throw invalid("\(here).defaultValue", #"a "value" string or "useInAppDefault": true"#)
                    }
                }
            }
            try read(members["parameters"], at: "parameters")
            if let groups = members["parameterGroups"] {
                guard let entries = groups.objectValue else { throw invalid("parameterGroups", "an object of groups keyed by name") }
                for (name, group) in entries.sorted(by: { $0.key < $1.key }) {
                    guard let fields = group.objectValue else { throw invalid("parameterGroups.\(name)", #"an object such as {"parameters": {…}}"#) }
                    try read(fields["parameters"], at: "parameterGroups.\(name).parameters")
                }
            }
            if let conditions = members["conditions"], conditions.arrayValue == nil {
                throw invalid("conditions", "an array of conditions")
            }
            parameters = values
        }

        /// The template in Firebase's JSON shape: `{"parameters": {"key": {"defaultValue": {"value": "…"}}}}`.
        public var json: JSONValue {
            .object(["parameters": .object(parameters.mapValues { .object(["defaultValue": .object(["value": .string($0)])]) })])
        }
    }
}

/// Why a Remote Config template or database contents given to `FirebaseTestServer` could not
/// be used.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum FirebaseTestServerDataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file at `file` could not be read.
    case unreadable(file: String, reason: String)
    /// The text is not JSON; `file` is where it came from (`nil`: not a file).
    case invalidJSON(file: String?, reason: String)
    /// The JSON is not a Remote Config template: `path` is where (`parameters.welcome.defaultValue`),
    /// `expected` what belongs there.
    case invalidTemplate(file: String?, path: String, expected: String)
    /// The JSON cannot be stored in the database (a key with `.`, `#`, `$`, `[`, `]` or `/`,
    /// too deep, …): `reason` says which and where.
    case invalidDatabase(file: String?, reason: String)
    /// The JSON is not a list of users the server can create (`--auth-users`): `index` is the
    /// entry (`nil`: the whole list), `reason` what is wrong (never a password).
    case invalidUsers(file: String?, index: Int?, reason: String)

    /// A readable description naming the file and what is wrong.
    public var description: String {
        func source(_ file: String?, _ what: String) -> String { file.map { "the file \($0)" } ?? what }
        switch self {
        case .unreadable(let file, let reason):
            return "cannot read \(file): \(reason)"
        case .invalidJSON(let file, let reason):
            return "\(source(file, "the text")) is not valid JSON: \(reason)"
        case .invalidTemplate(let file, let path, let expected):
            return "\(source(file, "the Remote Config template")) is not a Remote Config template: at \(path), expected \(expected)"
        case .invalidDatabase(let file, let reason):
            return "\(source(file, "the database contents")) cannot be stored in the database: \(reason)"
        case .invalidUsers(let file, let index, let reason):
            let entry = index.map { " (user at index \($0))" } ?? ""
            return "\(source(file, "the user list"))\(entry): \(reason)"
        }
    }

    /// The bytes of `url`, or `.unreadable`.
    static func read(_ url: URL) throws(FirebaseTestServerDataError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            let reason: String
            if !FileManager.default.fileExists(atPath: url.path) {
                reason = "no such file"
            } else {
                reason = (error as NSError).localizedDescription
            }
            throw .unreadable(file: url.path, reason: reason)
        }
    }
}

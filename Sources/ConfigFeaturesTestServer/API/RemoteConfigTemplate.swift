import ConfigFeatures
import Foundation

extension FirebaseTestServer {
    /// A Remote Config template as the server serves it: the parameters' default values, the
    /// conditions, and each parameter's conditional values.
    ///
    /// Read one from Firebase's own template JSON (what `firebase remoteconfig:get -o file.json`
    /// writes and the Remote Config REST API's `GET …/remoteConfig` answers):
    ///
    ///     {
    ///       "conditions": [ { "name": "ios", "expression": "device.os == 'ios'", "tagColor": "BLUE" } ],
    ///       "parameters": {
    ///         "welcome": {
    ///           "defaultValue": { "value": "hi" },
    ///           "conditionalValues": { "ios": { "value": "hi iOS" } },
    ///           "valueType": "STRING"
    ///         },
    ///         "legacy": { "defaultValue": { "useInAppDefault": true } }
    ///       },
    ///       "parameterGroups": {
    ///         "onboarding": { "parameters": { "steps": { "defaultValue": { "value": "3" } } } }
    ///       },
    ///       "version": { "versionNumber": "12" }
    ///     }
    ///
    /// Each fetch evaluates the conditions for the app instance that fetches (from the REST
    /// body: app ID, version, build, language, time zone, installation ID, custom signals, user
    /// properties, first-open time; the country from `remoteConfigCountry`): for each parameter,
    /// the first condition in template order that is true and has a conditional value for it
    /// gives the value, otherwise `defaultValue` does. A value of `useInAppDefault`, or no value,
    /// leaves the parameter out. Parameters come from `parameters` and from every group's
    /// `parameters`. A condition that does not parse is refused with its name and position (see
    /// <doc:RemoteConfigConditions> in ConfigFeatures for the syntax). Personalization and
    /// rollout values are refused; `version`, `etag`, `description` and `valueType` are ignored.
    public struct RemoteConfigTemplate: Sendable, Hashable {
        /// Each parameter's default value (parameters whose default is `useInAppDefault`, or
        /// that have none, are not here).
        public var parameters: [String: String]
        /// The template's conditions, in template order (the first true one wins).
        public private(set) var conditions: [RemoteConfigCondition]
        /// Each parameter's conditional values, keyed by parameter name, then condition name.
        public private(set) var conditionalValues: [String: [String: RemoteConfigParameterValue]]

        /// A template with these parameter values and no conditions.
        public init(parameters: [String: String]) {
            self.parameters = parameters
            conditions = []
            conditionalValues = [:]
        }

        /// A template with conditions.
        ///
        /// - Parameters:
        ///   - parameters: Each parameter's default value.
        ///   - conditions: The conditions, in the order they are tried.
        ///   - conditionalValues: Values keyed by parameter name, then condition name.
        /// - Throws: `FirebaseTestServerDataError.invalidCondition` naming a condition that does not
        ///   parse (with the position) or whose name is empty or repeated; `.invalidTemplate` for a
        ///   conditional value of a condition the template lacks.
        public init(
            parameters: [String: String], conditions: [RemoteConfigCondition], conditionalValues: [String: [String: RemoteConfigParameterValue]]
        ) throws(FirebaseTestServerDataError) {
            do {
                let compiled = try RemoteConfigConditionalTemplate(
                    defaults: parameters.mapValues { .value($0) }, conditions: conditions, conditionalValues: conditionalValues)
                self.init(compiled)
            } catch {
                throw FirebaseTestServerDataError(error, file: nil)
            }
        }

        init(_ compiled: RemoteConfigConditionalTemplate) {
            parameters = compiled.defaultEntries
            conditions = compiled.conditions
            conditionalValues = compiled.conditionalValues
        }

        /// Reads Firebase's template JSON.
        ///
        /// - Parameters:
        ///   - json: The template JSON.
        ///   - file: The file it came from, named in errors (`nil`: none).
        /// - Throws: `FirebaseTestServerDataError.invalidJSON`, `.invalidTemplate` or
        ///   `.invalidCondition`.
        public init(json: Data, file: String? = nil) throws(FirebaseTestServerDataError) {
            do {
                self.init(try RemoteConfigConditionalTemplate(json: json))
            } catch {
                throw FirebaseTestServerDataError(error, file: file)
            }
        }

        /// Reads Firebase's template JSON from `url`.
        ///
        /// - Throws: `FirebaseTestServerDataError.unreadable`, `.invalidJSON`, `.invalidTemplate`
        ///   or `.invalidCondition`.
        public init(contentsOf url: URL) throws(FirebaseTestServerDataError) {
            try self.init(json: FirebaseTestServerDataError.read(url), file: url.path)
        }

        /// The template the server evaluates (conditions were checked when this value was made).
        var compiled: RemoteConfigConditionalTemplate {
            let defaults = parameters.mapValues { RemoteConfigParameterValue.value($0) }
            return (try? RemoteConfigConditionalTemplate(defaults: defaults, conditions: conditions, conditionalValues: conditionalValues))
                ?? RemoteConfigConditionalTemplate(values: parameters)
        }

        /// The template in Firebase's JSON shape: `{"conditions": […], "parameters": {"key": {"defaultValue": {"value": "…"}, "conditionalValues": {…}}}}`.
        public var json: JSONValue {
            compiled.json
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
    /// A condition of the Remote Config template cannot be used: `error` names it, the
    /// position in its expression and what is wrong.
    case invalidCondition(file: String?, RemoteConfigConditionError)

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
        case .invalidCondition(let file, let error):
            return "\(source(file, "the Remote Config template")) has an invalid \(error)"
        }
    }

    /// The test server's form of a template error from ConfigFeatures.
    init(_ error: RemoteConfigTemplateError, file: String?) {
        switch error {
        case .invalidJSON(let reason): self = .invalidJSON(file: file, reason: reason)
        case .invalidTemplate(let path, let expected): self = .invalidTemplate(file: file, path: path, expected: expected)
        case .invalidCondition(let condition): self = .invalidCondition(file: file, condition)
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

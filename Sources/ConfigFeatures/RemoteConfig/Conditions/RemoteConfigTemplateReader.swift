/// Reads the parts of Firebase's template JSON, naming the path of anything malformed.
struct RemoteConfigTemplateReader {
    struct Parts {
        var defaults: [String: RemoteConfigParameterValue] = [:]
        var conditions: [RemoteConfigCondition] = []
        var conditionalValues: [String: [String: RemoteConfigParameterValue]] = [:]
    }

    let template: JSONValue

    init(_ template: JSONValue) {
        self.template = template
    }

    private func invalid(_ path: String, _ expected: String) -> RemoteConfigTemplateError {
        .invalidTemplate(path: path, expected: expected)
    }

    func read() throws(RemoteConfigTemplateError) -> Parts {
        guard let members = template.objectValue else {
            throw invalid("(top level)", #"a JSON object such as {"parameters": {"key": {"defaultValue": {"value": "text"}}}}"#)
        }
        var parts = Parts()
        var seen: Set<String> = []
        try readParameters(members["parameters"], at: "parameters", into: &parts, seen: &seen)
        if let groups = members["parameterGroups"] {
            guard let entries = groups.objectValue else { throw invalid("parameterGroups", "an object of groups keyed by name") }
            for (name, group) in entries.sorted(by: { $0.key < $1.key }) {
                guard let fields = group.objectValue else { throw invalid("parameterGroups.\(name)", #"an object such as {"parameters": {…}}"#) }
                try readParameters(fields["parameters"], at: "parameterGroups.\(name).parameters", into: &parts, seen: &seen)
            }
        }
        if let conditions = members["conditions"] {
            guard let list = conditions.arrayValue else { throw invalid("conditions", "an array of conditions") }
            for (index, condition) in list.enumerated() {
                let path = "conditions[\(index)]"
                guard let fields = condition.objectValue else { throw invalid(path, #"an object such as {"name": "ios", "expression": "device.os == 'ios'"}"#) }
                guard let name = fields["name"]?.stringValue else { throw invalid("\(path).name", "the condition's name as a string") }
                guard let expression = fields["expression"]?.stringValue else { throw invalid("\(path).expression", "the condition's expression as a string") }
                var tagColor: String?
                if let color = fields["tagColor"] {
                    guard let text = color.stringValue else { throw invalid("\(path).tagColor", "a colour name such as \"BLUE\"") }
                    tagColor = text
                }
                parts.conditions.append(RemoteConfigCondition(name: name, expression: expression, tagColor: tagColor))
            }
        }
        return parts
    }

    private func readParameters(_ parameters: JSONValue?, at path: String, into parts: inout Parts, seen: inout Set<String>) throws(RemoteConfigTemplateError) {
        guard let parameters else { return }
        guard let entries = parameters.objectValue else { throw invalid(path, "an object of parameters keyed by name") }
        for (name, parameter) in entries.sorted(by: { $0.key < $1.key }) {
            let here = "\(path).\(name)"
            guard !name.isEmpty else { throw invalid(path, "parameter names that are not empty") }
            guard !seen.contains(name) else { throw invalid(here, "each parameter once (\(name) is defined twice)") }
            seen.insert(name)
            guard let fields = parameter.objectValue else { throw invalid(here, #"an object such as {"defaultValue": {"value": "text"}}"#) }
            if let defaultValue = fields["defaultValue"] {
                parts.defaults[name] = try value(defaultValue, at: "\(here).defaultValue")
            }
            if let conditional = fields["conditionalValues"] {
                guard let values = conditional.objectValue else {
                    throw invalid("\(here).conditionalValues", #"an object of values keyed by condition name, such as {"ios": {"value": "text"}}"#)
                }
                var read: [String: RemoteConfigParameterValue] = [:]
                for (condition, value) in values.sorted(by: { $0.key < $1.key }) {
                    read[condition] = try self.value(value, at: "\(here).conditionalValues.\(condition)")
                }
                if !read.isEmpty { parts.conditionalValues[name] = read }
            }
        }
    }

    private func value(_ json: JSONValue, at path: String) throws(RemoteConfigTemplateError) -> RemoteConfigParameterValue {
        guard let fields = json.objectValue else { throw invalid(path, #"an object: {"value": "text"} or {"useInAppDefault": true}"#) }
        if let value = fields["value"] {
            guard let text = value.stringValue else {
                throw invalid(
                    "\(path).value", "a string (Remote Config values are strings: write \(JSONValue.string(value.serialized())) for \(value))")
            }
            return .value(text)
        }
        if let inApp = fields["useInAppDefault"] {
            guard inApp.boolValue != nil else { throw invalid("\(path).useInAppDefault", "true or false") }
            return .useInAppDefault
        }
        if fields["personalizationValue"] != nil || fields["rolloutValue"] != nil {
            throw invalid(path, #"a "value" string or "useInAppDefault": true (personalization and rollout values are not supported)"#)
        }
        throw invalid(path, #"a "value" string or "useInAppDefault": true"#)
    }
}

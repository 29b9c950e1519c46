/// A server template evaluated for one context: every parameter's value, with its source.
///
///     let config = template.evaluate(randomizationID: userID, customSignals: ["tier": "gold"])
///     let limit = config.value(forKey: "upload_limit").numberValue
///
/// A key that is neither in the template nor in the defaults reads as
/// ``RemoteConfigServerValue/staticValue`` (`""`, `0`, `false`). See <doc:ServerTemplates>.
public struct RemoteConfigServerConfig: Sendable, Hashable {
    /// The values by key: the template's (`.remote`) over the defaults (`.default`).
    public let values: [String: RemoteConfigServerValue]

    /// Creates a config from its values.
    public init(values: [String: RemoteConfigServerValue]) {
        self.values = values
    }

    /// The value for `key`, or the static value when there is none.
    public func value(forKey key: String) -> RemoteConfigServerValue {
        values[key] ?? .staticValue
    }

    /// The value for `key`, or the static value when there is none.
    public subscript(key: String) -> RemoteConfigServerValue {
        value(forKey: key)
    }
}

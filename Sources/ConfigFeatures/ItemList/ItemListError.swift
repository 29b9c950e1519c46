/// Why ``ItemListViewModel`` could not read the items from the config. Sent on `error` as
/// `ActionError.underlyingError(ItemListError…)`; the last good items stay on `items`.
///
/// See <doc:Features-ItemList>.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum ItemListError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key has neither an active value nor a default.
    case missingKey(String)
    /// The value of the key is not JSON (the reason names the problem).
    case invalidJSON(key: String, reason: String)
    /// The value of the key nests JSON arrays and objects deeper than `limit` levels (the view
    /// model's `maximumJSONDepth`); it was not read further.
    case jsonTooDeep(key: String, limit: Int)
    /// The value of the key is JSON, but not an array (`found` is the JSON text, shortened).
    case notAnArray(key: String, found: String)
    /// The element at `index` (0-based) does not decode into the item type; the whole list is
    /// refused (the reason names the coding path and the problem).
    case invalidElement(key: String, index: Int, reason: String)

    /// A readable description.
    public var description: String {
        switch self {
        case .missingKey(let key):
            return "ItemListError.missingKey(\(key.debugDescription))"
        case .invalidJSON(let key, let reason):
            return "ItemListError.invalidJSON(\(key.debugDescription): \(reason))"
        case .jsonTooDeep(let key, let limit):
            return "ItemListError.jsonTooDeep(\(key.debugDescription): deeper than \(limit) levels)"
        case .notAnArray(let key, let found):
            return "ItemListError.notAnArray(\(key.debugDescription): \(found))"
        case .invalidElement(let key, let index, let reason):
            return "ItemListError.invalidElement(\(key.debugDescription)[\(index)]: \(reason))"
        }
    }
}

import Foundation

/// Values the database fills in when it stores a write (Firebase's `ServerValue`): write them
/// anywhere inside a value given to `setValue`, `updateChildValues` or `push`.
///
///     database.setValue(["text": "hi", "time": RealtimeDatabaseServerValue.timestamp], at: "g/c1")
///     database.setValue(RealtimeDatabaseServerValue.increment(1), at: "counters/visits")
///
/// On the wire they are Firebase's placeholders, `{".sv": "timestamp"}` and
/// `{".sv": {"increment": n}}`; ``FirebaseRESTDatabase`` sends them as they are and the server
/// resolves them. ``InMemoryRealtimeDatabase`` resolves them as it writes: the timestamp from its
/// scheduler's clock, the increment from the value stored at that moment (under the same lock
/// as the write, so concurrent increments never lose one). See <doc:RealtimeDatabaseGuide>.
public enum RealtimeDatabaseServerValue {
    /// The time the database stores the write, in milliseconds since 1970 (`ServerValue.timestamp()`).
    public static let timestamp: JSONValue = [".sv": "timestamp"]

    /// The stored number plus `delta`; `delta` itself when nothing, or something other than a
    /// number, is stored there (`ServerValue.increment(_:)`).
    public static func increment(_ delta: Double) -> JSONValue {
        [".sv": ["increment": .number(delta)]]
    }

    /// What a placeholder asks for.
    package enum Kind: Sendable, Hashable {
        case timestamp
        case increment(Double)

        /// The kind of the `.sv` member `value`, `nil` when it is not one Firebase defines.
        package init?(_ value: JSONValue) {
            switch value {
            case .string("timestamp"):
                self = .timestamp
            case .object(let members) where members.count == 1:
                guard case .number(let delta)? = members["increment"], delta.isFinite else { return nil }
                self = .increment(delta)
            default:
                return nil
            }
        }
    }

    /// A placeholder kept in a normalized value: its keys below the written location.
    package struct Placeholder: Sendable, Hashable {
        package let keys: [String]
        package let kind: Kind
    }

    /// Replaces `placeholders` in `value` (normalized, to be written at `location`) with what they
    /// resolve to: the time `now` for a timestamp, the number stored in `root` plus the delta for
    /// an increment.
    package static func resolve(_ placeholders: [Placeholder], in value: inout JSONValue, writtenAt location: RealtimeDatabasePath, root: JSONValue, now: Date)
    {
        for placeholder in placeholders {
            let resolved: Double
            switch placeholder.kind {
            case .timestamp:
                resolved = (now.timeIntervalSince1970 * 1000).rounded(.down)
            case .increment(let delta):
                let stored = RealtimeDatabaseTree.value(at: (location.segments + placeholder.keys)[...], in: root)
                if case .number(let number) = stored { resolved = number + delta } else { resolved = delta }
            }
            if placeholder.keys.isEmpty {
                value = .number(resolved)
            } else {
                RealtimeDatabaseTree.set(.number(resolved), at: placeholder.keys[...], in: &value)
            }
        }
    }
}

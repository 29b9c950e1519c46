import Foundation

/// Why an ``Action`` execution did not produce its elements.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum ActionError: Swift.Error, CustomStringConvertible, LocalizedError {
    /// `execute` was called while the action was disabled or already executing.
    case notEnabled
    /// The work observable failed with this error.
    case underlyingError(Swift.Error)

    /// A readable description.
    public var description: String {
        switch self {
        case .notEnabled: return "ActionError.notEnabled"
        case .underlyingError(let error): return "ActionError.underlyingError(\(error))"
        }
    }

    /// A readable description (so `error.localizedDescription` is useful).
    public var errorDescription: String? {
        switch self {
        case .notEnabled: return "The action is not enabled."
        case .underlyingError(let error): return (error as? LocalizedError)?.errorDescription ?? "\(error)"
        }
    }
}

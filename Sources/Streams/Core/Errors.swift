/// Errors that Streams' own operators produce.
///
/// This enum may gain cases in a minor version: end a `switch` over it with `@unknown default`.
public enum RxError: Swift.Error, CustomDebugStringConvertible, Equatable {
    /// An unknown error.
    case unknown
    /// An operation was performed on a disposed object (the object's type name).
    case disposed(object: String)
    /// An arithmetic overflow.
    case overflow
    /// An argument was out of range.
    case argumentOutOfRange
    /// A sequence that should have had an element had none.
    case noElements
    /// A sequence that should have had one element had more.
    case moreThanOneElement
    /// No event arrived within the allowed time (`timeout`).
    case timeout

    /// A human-readable description.
    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .overflow: return "Arithmetic overflow occurred."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .timeout: return "Sequence timeout."
        }
    }
}

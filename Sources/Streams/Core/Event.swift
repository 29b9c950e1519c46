/// A sequence event: an element, a failure, or completion.
///
/// Every observable sequence follows the grammar `next* (error | completed)?`: any number of
/// elements, then at most one terminal event, and nothing after it. See <doc:Grammar>.
///
/// This enum is complete: it gains a case only in a breaking release, so a `switch` over it needs no `default`.
@frozen
public enum Event<Element> {
    /// The next element of the sequence.
    case next(Element)
    /// The sequence terminated with an error.
    case error(Swift.Error)
    /// The sequence completed successfully.
    case completed
}

extension Event: Sendable where Element: Sendable {}

extension Event: CustomDebugStringConvertible {
    /// A description of the event, e.g. `next(1)`, `error(…)`, `completed`.
    public var debugDescription: String {
        switch self {
        case .next(let value): return "next(\(value))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}

extension Event {
    /// Whether this is a terminal event (`error` or `completed`).
    @inlinable
    public var isStopEvent: Bool {
        if case .next = self { return false }
        return true
    }

    /// The element of a `next` event, else `nil`.
    @inlinable
    public var element: Element? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The error of an `error` event, else `nil`.
    @inlinable
    public var error: Swift.Error? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// Whether this is a `completed` event.
    @inlinable
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Transforms the element of a `next` event; a thrown error becomes an `error` event.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        do {
            switch self {
            case .next(let element): return .next(try transform(element))
            case .error(let error): return .error(error)
            case .completed: return .completed
            }
        } catch {
            return .error(error)
        }
    }
}

/// A type that can be turned into an ``Event`` (used by ``ObservableType/dematerialize()``).
public protocol EventConvertible {
    /// The element type of the event.
    associatedtype Element
    /// The event itself.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    public var event: Event<Element> { self }
}

/// Events compare by element; errors compare by type and description (as in RxTest), so
/// `XCTAssertEqual(observer.events, [...])` works with any error type.
extension Event: Equatable where Element: Equatable {
    /// Whether both events are the same kind with equal payloads.
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case (.next(let l), .next(let r)): return l == r
        case (.error(let l), .error(let r)): return errorsEqual(l, r)
        default: return false
        }
    }
}

/// Two errors are equal for testing when they have the same type and the same description
/// (`"\(error)"`): RxTest compares descriptions (on Linux only those; on Apple platforms also the
/// `NSError` domain, which for a Swift error is its type's name, and code).
package func errorsEqual(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
    type(of: lhs) == type(of: rhs) && String(describing: lhs) == String(describing: rhs)
}

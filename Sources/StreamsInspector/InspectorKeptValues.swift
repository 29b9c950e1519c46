#if Inspector
@_spi(StreamsInspectorSupport) import Streams
/// Whether an element type's values are kept in the ring buffer and described when read (by
/// `Inspector.events()` and the exports), or described when sent.
///
/// Describing a value later, on the reading thread, shows what was sent only if the value
/// cannot change meanwhile and its description reads nothing but the value: so a value is kept
/// only if its type has value semantics and holds no references —
/// - a number or a Boolean, and a plain struct, enum or tuple that holds no references at all
///   (`_isPOD`) and does not provide its own description (`CustomStringConvertible`,
///   `CustomDebugStringConvertible`, `CustomReflectable`, `TextOutputStreamable`): kept always;
/// - a `String` or `Substring`, and an `Optional`, `Array`, `ContiguousArray`, `ArraySlice`,
///   `Set` or `Dictionary` of such types: kept when small (at most ``InspectorValueDescriber/smallNodes``
///   values whose strings fit in the description's byte limit, found by visiting at most that
///   many), so what the ring holds stays bounded; a larger one is described when sent, with
///   bounded work.
///
/// Anything else (a class instance, a struct holding one, an existential, an error) is described
/// when sent: it may change after its event, or be changed by another thread while it is
/// described. The decision is made once per element type and kept.
enum InspectorKeeping<Element> {
    /// Described when sent.
    case describe
    /// Kept whatever its value (a fixed-size value without references).
    case keep
    /// Kept when `fits` says it is small enough for the byte limit it is given.
    case keepIfSmall(fits: (Element, Int) -> Bool)

    /// The decision for `Element`, worked out once per type.
    static var forElement: InspectorKeeping<Element> {
        switch InspectorKeptValues.kind(of: Element.self) {
        case .describe: return .describe
        case .keep: return .keep
        case .keepIfSmall:
            guard let sizable = Element.self as? any InspectorSizable.Type else { return .describe }
            return keepIfSmall(sizable)
        }
    }

    private static func keepIfSmall<Sizable: InspectorSizable>(_: Sizable.Type) -> InspectorKeeping<Element> {
        .keepIfSmall { element, limit in
            // `Element` is `Sizable` (checked above): the cast is a reinterpretation.
            var budget = InspectorSizeBudget(nodes: InspectorValueDescriber.smallNodes, bytes: limit)
            return unsafeBitCast(element, to: Sizable.self).inspectorFits(&budget)
        }
    }
}

/// ``InspectorKeeping`` without its check, for the per-event switch.
enum InspectorKeepingMode: UInt8 {
    case describe
    case keep
    /// `keep`, for a value of at most 8 bytes: its bits are logged in the event.
    case keepBits
    case keepIfSmall
}

/// The per-type decisions, cached by metatype.
enum InspectorKeptValues {
    enum Kind {
        case describe
        case keep
        case keepIfSmall
    }

    private static let cache = LockedState([ObjectIdentifier: Kind]())

    /// How values of `type` are logged.
    static func kind(of type: Any.Type) -> Kind {
        let id = ObjectIdentifier(type)
        if let known = cache.withLock({ $0[id] }) { return known }
        let kind = decide(type)
        cache.withLock { $0[id] = kind }
        return kind
    }

    private static func decide(_ type: Any.Type) -> Kind {
        if let sizable = type as? any InspectorSizable.Type { return sizable.inspectorHasFixedSize ? .keep : .keepIfSmall }
        if type is any CustomStringConvertible.Type || type is any CustomDebugStringConvertible.Type
            || type is any CustomReflectable.Type || type is any TextOutputStreamable.Type
        {
            return .describe
        }
        return holdsNoReferences(type) ? .keep : .describe
    }

    /// Whether `type` is trivially copyable: no references, no copy or destroy code.
    private static func holdsNoReferences(_ type: Any.Type) -> Bool {
        func open<T>(_: T.Type) -> Bool { _isPOD(T.self) }
        return _openExistential(type, do: open)
    }
}

/// How much a kept value may hold: values visited, and bytes of strings.
struct InspectorSizeBudget {
    var nodes: Int
    var bytes: Int

    /// Spends one value and `bytes` bytes; whether the budget still holds.
    @inline(__always)
    mutating func spend(bytes spent: Int) -> Bool {
        nodes -= 1
        bytes -= spent
        return nodes >= 0 && bytes >= 0
    }
}

/// A standard type whose values have value semantics and hold no references, and whose size a
/// kept value is checked against (see ``InspectorKeeping``).
protocol InspectorSizable {
    /// Whether every value has the same, small size (a number): then it is kept without a check.
    static var inspectorHasFixedSize: Bool { get }
    /// Whether the value fits in what is left of `budget`, which it spends; visits at most
    /// `budget.nodes` values.
    func inspectorFits(_ budget: inout InspectorSizeBudget) -> Bool
}

/// A number or a Boolean: fixed size, described in a few bytes.
protocol InspectorFixedSizable: InspectorSizable {}

extension InspectorFixedSizable {
    static var inspectorHasFixedSize: Bool { true }
    func inspectorFits(_ budget: inout InspectorSizeBudget) -> Bool { budget.spend(bytes: 8) }
}

extension Int: InspectorFixedSizable {}
extension Int8: InspectorFixedSizable {}
extension Int16: InspectorFixedSizable {}
extension Int32: InspectorFixedSizable {}
extension Int64: InspectorFixedSizable {}
extension UInt: InspectorFixedSizable {}
extension UInt8: InspectorFixedSizable {}
extension UInt16: InspectorFixedSizable {}
extension UInt32: InspectorFixedSizable {}
extension UInt64: InspectorFixedSizable {}
extension Double: InspectorFixedSizable {}
extension Float: InspectorFixedSizable {}
extension Bool: InspectorFixedSizable {}

extension String: InspectorSizable {
    static var inspectorHasFixedSize: Bool { false }
    func inspectorFits(_ budget: inout InspectorSizeBudget) -> Bool { budget.spend(bytes: utf8.count + 2) }
}

extension Substring: InspectorSizable {
    static var inspectorHasFixedSize: Bool { false }
    func inspectorFits(_ budget: inout InspectorSizeBudget) -> Bool { budget.spend(bytes: utf8.count + 2) }
}

extension Optional: InspectorSizable where Wrapped: InspectorSizable {
    static var inspectorHasFixedSize: Bool { Wrapped.inspectorHasFixedSize }
    func inspectorFits(_ budget: inout InspectorSizeBudget) -> Bool {
        guard budget.spend(bytes: 10) else { return false }
        return map { $0.inspectorFits(&budget) } ?? true
    }
}

/// A standard collection of sizable values: its count is read in constant time and checked
/// before its elements are visited.
protocol InspectorSizableCollection: Collection, InspectorSizable where Element: InspectorSizable {}

extension InspectorSizableCollection {
    static var inspectorHasFixedSize: Bool { false }

    func inspectorFits(_ budget: inout InspectorSizeBudget) -> Bool {
        guard budget.spend(bytes: 2), count <= budget.nodes else { return false }
        for element in self where !element.inspectorFits(&budget) { return false }
        return true
    }
}

extension Array: InspectorSizable, InspectorSizableCollection where Element: InspectorSizable {}
extension ContiguousArray: InspectorSizable, InspectorSizableCollection where Element: InspectorSizable {}
extension ArraySlice: InspectorSizable, InspectorSizableCollection where Element: InspectorSizable {}
extension Set: InspectorSizable, InspectorSizableCollection where Element: InspectorSizable {}

extension Dictionary: InspectorSizable where Key: InspectorSizable, Value: InspectorSizable {
    static var inspectorHasFixedSize: Bool { false }
    func inspectorFits(_ budget: inout InspectorSizeBudget) -> Bool {
        guard budget.spend(bytes: 2), count * 2 <= budget.nodes else { return false }
        for (key, value) in self where !key.inspectorFits(&budget) || !value.inspectorFits(&budget) { return false }
        return true
    }
}
#endif

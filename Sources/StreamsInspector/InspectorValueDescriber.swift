#if Inspector
@_spi(StreamsInspectorSupport) import Streams
import Foundation

/// Describes an event's value for the inspector with work bounded whatever the value's size.
///
/// A small value (at most ``smallNodes`` values deep and wide, its strings within the byte
/// budget) is described by its own `description`, exactly as `String(describing:)` would. A
/// larger one is never described whole: it is walked with `Mirror`, at most ``elementsShown``
/// elements or fields of each collection or struct and ``workBudget`` values in all, and
/// written as `[a, b, …, … (10000 elements)]`, `Comment(id: 1, text: "hi")` or
/// `object(["c00001": "comment 1", …, … (10000 entries)])`; its own `description` is not called
/// (it may walk the whole value), though each element shown that is small is described by its
/// own. A long string keeps its first bytes. The result is at most the byte limit plus a marker.
struct InspectorValueDescriber {
    /// Elements (or fields) shown of each collection (or struct) too large to describe whole.
    static let elementsShown = 8
    /// Values (`Mirror` visits, sizing included) one description may visit in all.
    static let workBudget = 64
    /// Values a value may hold (itself included) and still be described by its own description.
    static let smallNodes = 16

    private let limit: Int
    private var text = ""
    private var work = workBudget
    private var isCut = false

    private init(limit: Int) {
        self.limit = limit
    }

    /// `value`'s description, at most `limit` bytes of UTF-8 plus a `…(truncated…)` marker,
    /// built with bounded work.
    static func describe(_ value: Any, limit: Int) -> String {
        if type(of: value) == String.self, let text = value as? String { return InspectorValues.bounded(text, to: limit) }
        if let leaf = leafDescription(of: value) { return InspectorValues.bounded(leaf, to: limit) }
        var describer = InspectorValueDescriber(limit: limit)
        describer.write(value, topLevel: true)
        return describer.result
    }

    /// The description of a number, Boolean or `Data` (all cheap to describe), or `nil`.
    private static func leafDescription(of value: Any) -> String? {
        // The commonest types by their metadata first (a pointer comparison).
        let type = type(of: value)
        if type == Int.self, let value = value as? Int { return String(value) }
        if type == Double.self || type == Bool.self { return String(describing: value) }
        // `Data`'s description is "N bytes" (its Mirror copies every byte).
        return traits(of: type).isLeaf ? String(describing: value) : nil
    }

    /// Whether `value` is a number, a Boolean or `Data` (``leafDescription(of:)`` describes it).
    private static func isLeaf(_ value: Any) -> Bool {
        let type = type(of: value)
        return type == Int.self || type == Double.self || type == Bool.self || traits(of: type).isLeaf
    }

    /// What the describer asks of a value's type, worked out once per type: each is a
    /// conformance lookup, which costs hundreds of instructions for a type that does not
    /// conform, and a value visits several.
    struct TypeTraits {
        /// An `Optional` (told apart from its wrapped value, which `as?` looks through).
        var isOptional: Bool
        /// A standard library collection read without `Mirror` (``InspectorCollection``).
        var isCollection: Bool
        /// A dictionary read without `Mirror` (``InspectorDictionary``).
        var isDictionary: Bool
        /// A number or `Data`, described by its own description.
        var isLeaf: Bool
    }

    private static let traitsCache = LockedState([ObjectIdentifier: TypeTraits]())

    /// The traits of `type`, cached.
    static func traits(of type: Any.Type) -> TypeTraits {
        let id = ObjectIdentifier(type)
        if let known = traitsCache.withLock({ $0[id] }) { return known }
        let isOptional = type is any InspectorOptional.Type
        let isCollection = !isOptional && type is any InspectorCollection.Type
        let isDictionary = !isOptional && type is any InspectorDictionary.Type
        let isLeaf =
            !isOptional && !isCollection && !isDictionary
            && (type is any BinaryInteger.Type || type is any FloatingPoint.Type || type == Data.self)
        let traits = TypeTraits(isOptional: isOptional, isCollection: isCollection, isDictionary: isDictionary, isLeaf: isLeaf)
        traitsCache.withLock { $0[id] = traits }
        return traits
    }

    private var result: String {
        guard text.utf8.count > limit else { return isCut ? text + "…(truncated)" : text }
        let utf8 = text.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) { utf8.formIndex(before: &end) }
        return String(text[..<end]) + "…(truncated)"
    }

    private var remainingBytes: Int { limit - text.utf8.count }

    /// Writes `value`: its own description if small, else its shape with some of its elements.
    private mutating func write(_ value: Any, topLevel: Bool = false) {
        guard remainingBytes > 0 else {
            isCut = true
            return
        }
        work -= 1
        guard work >= 0 else {
            text += "…"
            return
        }
        if type(of: value) == String.self, let string = value as? String {
            writeString(string, quoted: !topLevel)
            return
        }
        if let leaf = Self.leafDescription(of: value) {
            text += leaf
            return
        }
        var nodes = Self.smallNodes
        var bytes = remainingBytes
        if isSmall(value, nodes: &nodes, bytes: &bytes) {
            text += topLevel ? String(describing: value) : String(reflecting: value)
            return
        }
        writeShape(of: value, topLevel: topLevel)
    }

    /// A string whole if it fits, else its first bytes and how long it is.
    private mutating func writeString(_ string: String, quoted: Bool) {
        let size = string.utf8.count
        let room = max(remainingBytes, 1)
        if size <= room {
            text += quoted ? String(reflecting: string) : string
            return
        }
        var prefix = String(string.prefix(room))
        while prefix.utf8.count > room, !prefix.isEmpty { prefix.removeLast() }
        text += (quoted ? "\"" + prefix : prefix) + "…(\(size) bytes)"
        isCut = true
    }

    /// Whether `value` holds at most `nodes` values whose strings fit in `bytes`, found by
    /// visiting at most that many values (each visit also spends the describer's work budget).
    private mutating func isSmall(_ value: Any, nodes: inout Int, bytes: inout Int) -> Bool {
        nodes -= 1
        work -= 1
        guard nodes >= 0, work >= 0 else { return false }
        if type(of: value) == String.self, let string = value as? String {
            bytes -= string.utf8.count + 2
            return bytes >= 0
        }
        if Self.isLeaf(value) {
            bytes -= 8
            return bytes >= 0
        }
        // The standard library's collections say their size without being walked.
        let traits = Self.traits(of: type(of: value))
        if traits.isCollection, let collection = value as? any InspectorCollection {
            guard collection.inspectorCount <= nodes else { return false }
            for element in collection.inspectorElements(nodes) where !isSmall(element, nodes: &nodes, bytes: &bytes) { return false }
            return true
        }
        if traits.isDictionary, let dictionary = value as? any InspectorDictionary {
            guard dictionary.inspectorCount * 2 <= nodes else { return false }
            for entry in dictionary.inspectorEntries(nodes) {
                guard isSmall(entry.key, nodes: &nodes, bytes: &bytes), isSmall(entry.value, nodes: &nodes, bytes: &bytes) else { return false }
            }
            return true
        }
        // A plain struct's fields without `Mirror` (its layout cached per type).
        if let fields = InspectorFields.fields(of: value) {
            if fields.isEmpty {
                bytes -= 16
                return bytes >= 0
            }
            for field in fields where !isSmall(field.value, nodes: &nodes, bytes: &bytes) { return false }
            return true
        }
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty {
            bytes -= 16
            return bytes >= 0
        }
        for child in mirror.children where !isSmall(child.value, nodes: &nodes, bytes: &bytes) { return false }
        return true
    }

    /// Writes a large value as its shape (`[…]`, `Type(field: …)`, `case(…)`), with at most
    /// ``elementsShown`` of its elements or fields, each written in turn.
    private mutating func writeShape(of value: Any, topLevel: Bool) {
        let traits = Self.traits(of: type(of: value))
        if !traits.isOptional {
            if traits.isCollection, let collection = value as? any InspectorCollection {
                let elements = collection.inspectorElements(Self.elementsShown)
                writeList(elements.count, total: collection.inspectorCount, unit: "elements", empty: "[]") { describer, index in
                    describer.write(elements[index])
                }
                return
            }
            if traits.isDictionary, let dictionary = value as? any InspectorDictionary {
                let entries = dictionary.inspectorEntries(Self.elementsShown)
                writeList(entries.count, total: dictionary.inspectorCount, unit: "entries", empty: "[:]") { describer, index in
                    describer.write(entries[index].key)
                    describer.text += ": "
                    describer.write(entries[index].value)
                }
                return
            }
        }
        if let fields = InspectorFields.fields(of: value) {
            writeFields(fields.map { (label: $0.label, value: $0.value) }, open: _typeName(type(of: value), qualified: !topLevel) + "(")
            return
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .collection?, .set?:
            writeElements(of: mirror, value: value, empty: "[]") { describer, element in describer.write(element) }
        case .dictionary?:
            writeElements(of: mirror, value: value, empty: "[:]") { describer, entry in
                let pair = Array(Mirror(reflecting: entry).children.prefix(2))
                guard pair.count == 2 else { return describer.write(entry) }
                describer.write(pair[0].value)
                describer.text += ": "
                describer.write(pair[1].value)
            }
        case .optional?:
            if let wrapped = mirror.children.first {
                text += "Optional("
                write(wrapped.value)
                text += ")"
            } else {
                text += "nil"
            }
        case .enum?:
            guard let payload = mirror.children.first else {
                text += String(describing: value)  // no payload: the case's name
                return
            }
            text += payload.label ?? ""
            if Mirror(reflecting: payload.value).displayStyle == .tuple {
                write(payload.value)
            } else {
                text += "("
                write(payload.value)
                text += ")"
            }
        case .tuple?:
            writeFields(mirror.children, open: "(")
        default:
            writeFields(mirror.children, open: _typeName(mirror.subjectType, qualified: !topLevel) + "(")
        }
    }

    /// `[e0, e1, …, … (N elements)]` with at most ``elementsShown`` elements.
    private mutating func writeElements(of mirror: Mirror, value: Any, empty: String, _ writeElement: (inout Self, Any) -> Void) {
        var shown = 0
        var more = false
        text += "["
        for child in mirror.children {
            guard shown < Self.elementsShown, remainingBytes > 0, work > 0 else {
                more = true
                break
            }
            if shown > 0 { text += ", " }
            writeElement(&self, child.value)
            shown += 1
        }
        if shown == 0, !more {
            text.removeLast()
            text += empty
            return
        }
        if more {
            let count = (value as? any Collection)?.count
            let unit = mirror.displayStyle == .dictionary ? "entries" : "elements"
            text += count.map { ", … (\($0) \(unit))" } ?? ", …"
        }
        text += "]"
    }

    /// `[e0, e1, …, … (N elements)]`: `shown` elements written by `writeElement`, of `total`.
    private mutating func writeList(_ shown: Int, total: Int, unit: String, empty: String, _ writeElement: (inout Self, Int) -> Void) {
        guard total > 0 else {
            text += empty
            return
        }
        text += "["
        var written = 0
        while written < shown, remainingBytes > 0, work > 0 {
            if written > 0 { text += ", " }
            writeElement(&self, written)
            written += 1
        }
        if written < total { text += ", … (\(total) \(unit))" }
        text += "]"
    }

    /// `open` then `label: value` for at most ``elementsShown`` fields (a tuple's `.0` labels
    /// are left out), then `)`.
    private mutating func writeFields<Children: Sequence<Mirror.Child>>(_ children: Children, open: String) {
        text += open
        var shown = 0
        for child in children {
            guard shown < Self.elementsShown, remainingBytes > 0, work > 0 else {
                text += ", …"
                break
            }
            if shown > 0 { text += ", " }
            if let label = child.label, !label.hasPrefix(".") { text += label + ": " }
            write(child.value)
            shown += 1
        }
        text += ")"
    }
}

/// An optional, told apart from its wrapped value (which `as?` looks through).
protocol InspectorOptional {
    /// The type of the wrapped value.
    static var inspectorWrappedType: Any.Type { get }
}

extension Optional: InspectorOptional {
    static var inspectorWrappedType: Any.Type { Wrapped.self }
}

/// A standard library collection the describer reads without `Mirror`: its count (constant
/// time) and its first elements.
protocol InspectorCollection {
    /// The number of elements.
    var inspectorCount: Int { get }
    /// The first `count` elements at most.
    func inspectorElements(_ count: Int) -> [Any]
}

/// A dictionary the describer reads without `Mirror`.
protocol InspectorDictionary {
    /// The number of entries.
    var inspectorCount: Int { get }
    /// The first `count` entries at most, in the dictionary's order.
    func inspectorEntries(_ count: Int) -> [(key: Any, value: Any)]
}

extension InspectorCollection where Self: Collection {
    var inspectorCount: Int { count }
    func inspectorElements(_ count: Int) -> [Any] { prefix(count).map { $0 } }
}

extension Array: InspectorCollection {}
extension ArraySlice: InspectorCollection {}
extension ContiguousArray: InspectorCollection {}
extension Set: InspectorCollection {}

extension Dictionary: InspectorDictionary {
    var inspectorCount: Int { count }
    func inspectorEntries(_ count: Int) -> [(key: Any, value: Any)] { prefix(count).map { (key: $0.key, value: $0.value) } }
}
#endif

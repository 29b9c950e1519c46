#if Inspector
@_spi(Reflection) import Swift
@_spi(StreamsInspectorSupport) import Streams

/// A struct's stored fields, read without `Mirror`, for the value describer.
///
/// `Mirror` works a struct's fields out again on every value it reflects (the runtime demangles
/// each field's type name on each visit: most of the cost of describing a value when it is
/// sent). Here the layout (each field's label, offset and type) is worked out once per type and
/// cached, and a field's value is copied from its offset. The labels and values are those
/// `Mirror` gives. A type is read this way only if it is a struct without a custom mirror
/// (`CustomReflectable`) whose fields are all held strongly: a field that could be `weak` or
/// `unowned` (a class, an existential, or an optional of one) sends the type back to `Mirror`,
/// which reads such references correctly.
enum InspectorFields {
    /// One stored field.
    struct Field {
        let label: String
        let offset: Int
        let type: Any.Type
    }

    private enum Layout {
        /// Read with `Mirror` (not a struct, a custom mirror, or a field that may be weak).
        case mirror
        case fields([Field])
    }

    private static let cache = LockedState([ObjectIdentifier: Layout]())

    /// The stored fields of `value`, labelled, if it is a struct read without `Mirror`; `nil`
    /// otherwise (then use `Mirror`).
    static func fields(of value: Any) -> [(label: String, value: Any)]? {
        let type = type(of: value)
        let id = ObjectIdentifier(type)
        let layout: Layout
        if let known = cache.withLock({ $0[id] }) {
            layout = known
        } else {
            layout = Self.layout(of: type, example: value)
            cache.withLock { $0[id] = layout }
        }
        guard case .fields(let fields) = layout else { return nil }
        return project(value, fields)
    }

    /// The fields of `type`, whose value `example` is, worked out once.
    private static func layout(of type: Any.Type, example: Any) -> Layout {
        // `Mirror` says once whether it is a struct (`_forEachField` must only be asked about
        // one: it does not check).
        guard !(type is any CustomReflectable.Type), Mirror(reflecting: example).displayStyle == .struct else { return .mirror }
        var fields: [Field] = []
        let complete = _forEachField(of: type) { name, offset, fieldType, kind in
            guard isHeldStrongly(fieldType, kind: kind) else { return false }
            fields.append(Field(label: String(cString: name), offset: offset, type: fieldType))
            return true
        }
        return complete ? .fields(fields) : .mirror
    }

    /// Whether a field of this type and kind cannot be `weak` or `unowned` (only a class, a
    /// class-bound existential, or an optional of one can).
    private static func isHeldStrongly(_ type: Any.Type, kind: _MetadataKind) -> Bool {
        switch kind {
        case .struct, .enum, .tuple, .function, .metatype, .existentialMetatype:
            return true
        case .optional:
            guard let optional = type as? any InspectorOptional.Type else { return false }
            let wrapped = optional.inspectorWrappedType
            return isHeldStrongly(wrapped, kind: metadataKind(of: wrapped))
        default:
            return false
        }
    }

    /// A struct with one field of type `Wrapped`, to learn that type's kind.
    private struct Probe<Wrapped> {
        let wrapped: Wrapped
    }

    /// The metadata kind of `type`.
    private static func metadataKind(of type: Any.Type) -> _MetadataKind {
        func kind<Wrapped>(_: Wrapped.Type) -> _MetadataKind {
            var kind = _MetadataKind.unknown
            _forEachField(of: Probe<Wrapped>.self) { _, _, _, fieldKind in
                kind = fieldKind
                return false
            }
            return kind
        }
        return _openExistential(type, do: kind)
    }

    /// Copies each field out of `value`.
    private static func project(_ value: Any, _ fields: [Field]) -> [(label: String, value: Any)] {
        func project<Value>(_ value: Value) -> [(label: String, value: Any)] {
            withUnsafeBytes(of: value) { bytes in
                guard let base = bytes.baseAddress else { return [] }
                return fields.map { field in (field.label, load(field.type, at: base + field.offset)) }
            }
        }
        return _openExistential(value, do: project)
    }

    /// A copy of the value of type `type` at `address`.
    private static func load(_ type: Any.Type, at address: UnsafeRawPointer) -> Any {
        func load<Field>(_: Field.Type) -> Any { address.assumingMemoryBound(to: Field.self).pointee }
        return _openExistential(type, do: load)
    }
}
#endif

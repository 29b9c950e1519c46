import Foundation

/// The `.rx` namespace: a customization point for reactive extensions of a base type.
///
///     extension Reactive where Base: Counter {
///         var count: Binder<Int> { Binder(base) { counter, value in counter.count = value } }
///     }
///     numbers.bind(to: counter.rx.count)
///
/// A writable property of a class is reachable as a ``Binder`` without any extension:
/// `numbers.bind(to: counter.rx.count)` works for `var count: Int` by dynamic member lookup.
/// See <doc:Subjects>.
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The extended object.
    public let base: Base

    /// Wraps `base` to reach its reactive extensions.
    public init(_ base: Base) {
        self.base = base
    }

    /// A ``Binder`` that sets the property at `keyPath` of `base` (held weakly), on the main scheduler.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property> where Base: AnyObject {
        Binder(base) { base, value in
            base[keyPath: keyPath] = value
        }
    }
}

/// A type with reactive extensions under `.rx`.
///
/// Every `NSObject` conforms, as in RxSwift.
public protocol ReactiveCompatible {
    /// The type extended by ``Reactive``.
    associatedtype ReactiveBase

    /// The reactive extensions of the type.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The reactive extensions of the value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The reactive extensions of the type.
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // The setter lets extensions on `Reactive` be `mutating`; there is nothing to store.
        set {}
    }

    /// The reactive extensions of the value.
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // The setter lets extensions on `Reactive` be `mutating`; there is nothing to store.
        set {}
    }
}

/// Every `NSObject` has `.rx`, as in RxSwift.
extension NSObject: ReactiveCompatible {}

/// A growable buffer of elements for the library's unspecialized generic code: appending and
/// reading go through the element type's value witnesses only.
///
/// `ContiguousArray<Element>.append` in code that runs unspecialized (every operator, when called
/// from another module) asks the runtime for the array storage's metadata on every call (~250
/// instructions); this buffer manages its memory itself and needs no metadata beyond
/// `Element`'s, which a sink has among its generic arguments. Noncopyable: the buffer frees its
/// elements and memory when it goes away.
struct ElementBuffer<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>?
    /// How many elements are held.
    private(set) var count = 0
    private var capacity = 0

    /// An empty buffer (no memory until the first append).
    init() {}

    deinit {
        if let base {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    /// Whether no element is held.
    @inline(__always)
    var isEmpty: Bool { count == 0 }

    /// Appends `element` (amortized O(1)). Inlined (as is the subscript): a call would pass the
    /// buffer type's metadata, which the caller would have to look up.
    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count &+= 1
    }

    /// The element at `index` (`0 ..< count`).
    @inline(__always)
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "ElementBuffer index out of range")
        return base.unsafelyUnwrapped[index]
    }

    /// Removes every element; keeps the memory if it holds at most `keptCapacity` elements.
    @inline(__always)
    mutating func removeAll(keepingCapacityUpTo keptCapacity: Int = 0) {
        guard let base else { return }
        base.deinitialize(count: count)
        count = 0
        if capacity > keptCapacity {
            base.deallocate()
            self.base = nil
            capacity = 0
        }
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = Swift.max(16, capacity &* 2)
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            fresh.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = fresh
        capacity = newCapacity
    }
}

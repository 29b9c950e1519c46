/// The last `capacity` elements of a sequence, oldest first (a small ring buffer).
struct ReplayBuffer<Element> {
    /// The maximum number of elements kept (`Int.max` for unbounded).
    let capacity: Int
    private var storage: [Element] = []
    private var head = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var isEmpty: Bool { head == storage.count }

    /// The buffered elements, oldest first.
    var elements: [Element] {
        head == 0 ? storage : Array(storage[head...])
    }

    /// Adds `element`, dropping the oldest one if the buffer is full.
    mutating func append(_ element: Element) {
        guard capacity > 0 else { return }
        if storage.count - head == capacity {
            if capacity == 1 {
                storage[storage.count - 1] = element
                return
            }
            head += 1
        }
        storage.append(element)
        if head > 32 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }

    /// Drops every element.
    mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}

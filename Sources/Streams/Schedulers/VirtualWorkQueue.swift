/// The work queue of a ``VirtualTimeScheduler``: a binary min-heap of work items, without a
/// generic parameter, so that per-item code in the (unspecialized, generic) scheduler needs no
/// runtime metadata lookup (see <doc:Performance>).
///
/// All of its state, the items' bookkeeping and the scheduler's clock are guarded by `lock`.
/// A cancelled item is only marked and skipped when it comes first (O(1) to cancel); the marked
/// items are squeezed out once they are more than half of the queue, so a stream of replaced
/// timers (`timeout`) cannot grow it. A pending item can also be moved to a new due time
/// (`requeue(_:id:)`, which ``ObservableType/debounce(_:scheduler:)`` uses instead of replacing its timer): each
/// item knows its place in the heap.
final class VirtualWorkQueue: @unchecked Sendable {
    // Safety: every field is read and written only inside `lock.withLock`.
    let lock = LockedState(())
    @exclusivity(unchecked) private var heap: ContiguousArray<VirtualWorkItem> = []
    @exclusivity(unchecked) private var cancelledInHeap = 0
    @exclusivity(unchecked) private var nextId = 0
    /// Whether `start()` or `advanceTo(_:)` is running (guarded by `lock`).
    @exclusivity(unchecked) var running = false
    /// Orders two items by due time (the scheduler's converter), then by `id`.
    private let isBefore: (VirtualWorkItem, VirtualWorkItem) -> Bool

    init(isBefore: @escaping (VirtualWorkItem, VirtualWorkItem) -> Bool) {
        self.isBefore = isBefore
    }

    /// The number of items neither run nor cancelled (call under `lock`).
    var pendingCount: Int { heap.count - cancelledInHeap }

    /// The next id, in scheduling order (call under `lock`).
    func takeId() -> Int {
        defer { nextId += 1 }
        return nextId
    }

    /// Adds `item` (call under `lock`).
    func insert(_ item: VirtualWorkItem) {
        item.heapIndex = heap.count
        heap.append(item)
        siftUp(heap.count - 1)
    }

    /// Whether `item` waits in the queue: neither run, nor taken to run, nor cancelled (call
    /// under `lock`).
    func isPending(_ item: VirtualWorkItem) -> Bool {
        item.queue === self && item.isQueued && !item.isCancelled
    }

    /// Gives the pending `item`, whose due time the caller has just changed, the scheduling
    /// order `id` (as if it were scheduled anew) and moves it to its new place (call under
    /// `lock`, with `isPending(item)`).
    func requeue(_ item: VirtualWorkItem, id: Int) {
        item.id = id
        let index = item.heapIndex
        if index > 0, isBefore(item, heap[(index - 1) / 2]) {
            siftUp(index)
        } else {
            siftDown(index)
        }
    }

    /// The first item that is not cancelled, without removing it (call under `lock`).
    func first() -> VirtualWorkItem? {
        while let first = heap.first {
            guard first.isCancelled else { return first }
            removeFirst()
            cancelledInHeap -= 1
        }
        return nil
    }

    /// Removes the first item (which `first()` returned) and takes its action (call under `lock`).
    func popFirst() -> (() -> Disposable)? {
        guard let first = heap.first else { return nil }
        removeFirst()
        first.isQueued = false
        defer { first.action = nil }
        return first.action
    }

    /// Marks `item` cancelled and returns its action for release after the lock; `nil` if it
    /// was already cancelled (call under `lock`).
    func cancel(_ item: VirtualWorkItem) -> (() -> Disposable)?? {
        guard !item.isCancelled else { return nil }
        item.isCancelled = true
        let action = item.action
        item.action = nil
        if item.isQueued {
            cancelledInHeap += 1
            if cancelledInHeap > 32 && cancelledInHeap * 2 > heap.count { squeeze() }
        }
        return .some(action)
    }

    /// Empties the queue, marking every item cancelled, and returns their actions for release
    /// after the lock (call under `lock`). Used when the scheduler goes: nothing can run them.
    func abandonAll() -> [() -> Disposable] {
        var actions: [() -> Disposable] = []
        actions.reserveCapacity(heap.count)
        for item in heap {
            item.isQueued = false
            item.isCancelled = true
            if let action = item.action { actions.append(action) }
            item.action = nil
        }
        heap.removeAll()
        cancelledInHeap = 0
        return actions
    }

    /// Drops the cancelled items and rebuilds the heap (O(n), after n/2 cancellations at least).
    private func squeeze() {
        heap.removeAll { $0.isCancelled }
        for index in heap.indices { heap[index].heapIndex = index }
        cancelledInHeap = 0
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    private func removeFirst() {
        swapEntries(0, heap.count - 1)
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard isBefore(heap[child], heap[parent]) else { break }
            swapEntries(child, parent)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var best = parent
            if left < heap.count, isBefore(heap[left], heap[best]) { best = left }
            if right < heap.count, isBefore(heap[right], heap[best]) { best = right }
            if best == parent { return }
            swapEntries(parent, best)
            parent = best
        }
    }

    /// Swaps two entries and tells them their new places.
    @inline(__always)
    private func swapEntries(_ i: Int, _ j: Int) {
        heap.swapAt(i, j)
        heap[i].heapIndex = i
        heap[j].heapIndex = j
    }
}

/// One unit of work on a virtual time scheduler, without its due time (see
/// `VirtualSchedulerItem`). Its bookkeeping is guarded by its queue's lock.
class VirtualWorkItem: Cancelable, @unchecked Sendable {
    // Safety: `id`, `heapIndex`, `action`, `isQueued` and `isCancelled` (and a subclass's due
    // time) are read and written only under `queue.lock`; `result` is written once before `resultState.assign` publishes it and read
    // and cleared only by the one caller `AssignOnceState` designates (as in `SinkDisposer`);
    // the rest is immutable.
    /// The scheduling order, which breaks ties between equal due times (renewed by `requeue`).
    @exclusivity(unchecked) fileprivate(set) var id: Int
    /// The item's index in the queue's heap while it is queued.
    @exclusivity(unchecked) fileprivate var heapIndex = 0
    fileprivate let queue: VirtualWorkQueue
    @exclusivity(unchecked) fileprivate(set) var action: (() -> Disposable)?
    @exclusivity(unchecked) fileprivate(set) var isQueued = true
    @exclusivity(unchecked) fileprivate(set) var isCancelled = false
    /// What the action returned, disposed with the item: held in the item itself rather than
    /// in a ``SingleAssignmentDisposable`` (one allocation less per scheduled item).
    private let resultState = AssignOnceState()
    @exclusivity(unchecked) private var result: Disposable = NopDisposable.shared

    init(id: Int, queue: VirtualWorkQueue, action: @escaping () -> Disposable) {
        self.id = id
        self.queue = queue
        self.action = action
    }

    /// Disposed: `dispose()` was called (its flag, set by both of its paths) or the queue
    /// abandoned the item.
    var isDisposed: Bool { resultState.isDisposed || queue.lock.withLock { _ in isCancelled } }

    func dispose() {
        // An item whose action has run and returned is out of the queue for good: nothing to
        // cancel, no lock to take; only its result to dispose, once. (A timer replaced after it
        // fired, as `throttle` and `debounce` replace theirs, takes this path.)
        if resultState.isAssigned {
            if resultState.dispose() { takeResult().dispose() }
            return
        }
        guard let action = queue.lock.withLock({ _ in queue.cancel(self) }) else { return }
        _ = action  // released after the lock
        if resultState.dispose() { takeResult().dispose() }
    }

    /// Stores what the action returned (once), or disposes it at once if the item was disposed.
    func setResult(_ disposable: consuming Disposable) {
        swap(&disposable, &result)
        if resultState.assign("VirtualWorkItem result set twice") { takeResult().dispose() }
    }

    private func takeResult() -> Disposable {
        var taken: Disposable = NopDisposable.shared
        swap(&taken, &result)
        return taken
    }
}

/// A work item with its due time.
final class VirtualSchedulerItem<Time>: VirtualWorkItem, @unchecked Sendable {
    // Safety: `time` is read and written only under the queue's lock (it changes only when the
    // item is moved, `VirtualWorkQueue.requeue`); the rest is `VirtualWorkItem`'s.
    @exclusivity(unchecked) var time: Time

    init(time: Time, id: Int, queue: VirtualWorkQueue, action: @escaping () -> Disposable) {
        self.time = time
        super.init(id: id, queue: queue, action: action)
    }
}

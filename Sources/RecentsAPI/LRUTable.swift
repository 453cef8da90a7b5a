/// A table whose entries cost units (bytes, or 1 each) adding up to at most `capacity`, evicting
/// the least recently used entries first. Lookups, insertions and evictions are O(1): entries sit
/// in slots linked from most to least recently used, so the victim is always the tail.
///
/// Not thread-safe; its owners keep it behind a `Mutex`.
struct LRUTable<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        /// Slot of the more recently used neighbour, or -1 at the head.
        var newer: Int
        /// Slot of the less recently used neighbour, or -1 at the tail.
        var older: Int
    }

    /// The most the costs of all entries may add up to.
    let capacity: Int
    /// The costs of the entries held now, never above `capacity`.
    private(set) var totalCost = 0
    /// Entries dropped to make room, since the table was made.
    private(set) var evictions = 0
    private var slots: [Key: Int] = [:]
    // Freed slots are set to nil and reused, so the array never outgrows the largest count held.
    private var nodes: [Node?] = []
    private var freeSlots: [Int] = []
    private var newest = -1
    private var oldest = -1

    /// An empty table holding at most `capacity` units.
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Entries held now.
    var count: Int { slots.count }

    /// The value for `key`, marking it as just used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key], let node = nodes[slot] else { return nil }
        moveToFront(slot)
        return node.value
    }

    /// The value for `key`, leaving the order of use alone.
    func peek(_ key: Key) -> Value? {
        slots[key].flatMap { nodes[$0]?.value }
    }

    /// Stores `value` as the most recently used entry, evicting the least recently used ones
    /// until it fits. A value costing more than the whole capacity is not stored (and any older
    /// value for `key` is dropped): the table never exceeds its bound, even for one entry.
    mutating func set(_ value: Value, for key: Key, cost: Int) {
        _ = remove(key)
        guard cost <= capacity else { return }
        while totalCost + cost > capacity, oldest >= 0 {
            evictOldest()
        }
        let node = Node(key: key, value: value, cost: cost, newer: -1, older: newest)
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        if newest >= 0 { nodes[newest]?.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        slots[key] = slot
        totalCost += cost
    }

    /// Removes the entry for `key` and returns its value.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let slot = slots.removeValue(forKey: key), let node = nodes[slot] else { return nil }
        unlink(slot, node)
        nodes[slot] = nil
        freeSlots.append(slot)
        totalCost -= node.cost
        return node.value
    }

    private mutating func evictOldest() {
        guard oldest >= 0, let key = nodes[oldest]?.key else { return }
        remove(key)
        evictions += 1
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != newest, let node = nodes[slot] else { return }
        unlink(slot, node)
        nodes[slot]?.older = newest
        nodes[slot]?.newer = -1
        if newest >= 0 { nodes[newest]?.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int, _ node: Node) {
        if node.newer >= 0 { nodes[node.newer]?.older = node.older } else { newest = node.older }
        if node.older >= 0 { nodes[node.older]?.newer = node.newer } else { oldest = node.newer }
    }
}

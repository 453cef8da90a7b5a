/// A table whose entries cost units (bytes, or 1 each) adding up to at most `capacity`, evicting
/// the least recently used entries first. Lookups, insertions and evictions are O(1): entries sit
/// in slots linked from most to least recently used, so the victim is always the tail.
///
/// Not thread-safe; its owners keep it behind a `Mutex`. Inlinable: the hot read looks a view up
/// in one on every request, and an unspecialised generic across modules would cost that read.
public struct LRUTable<Key: Hashable, Value> {
    @usableFromInline
    struct Node {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        /// Slot of the more recently used neighbour, or -1 at the head.
        @usableFromInline var newer: Int
        /// Slot of the less recently used neighbour, or -1 at the tail.
        @usableFromInline var older: Int

        @usableFromInline
        init(key: Key, value: Value, cost: Int, newer: Int, older: Int) {
            self.key = key
            self.value = value
            self.cost = cost
            self.newer = newer
            self.older = older
        }
    }

    /// The most the costs of all entries may add up to.
    public let capacity: Int
    /// The costs of the entries held now, never above `capacity`.
    public var totalCost: Int { heldCost }
    @usableFromInline var heldCost = 0
    /// Entries dropped to make room, since the table was made.
    public var evictions: Int { evicted }
    @usableFromInline var evicted = 0
    @usableFromInline var slots: [Key: Int] = [:]
    // Freed slots are set to nil and reused, so the array never outgrows the largest count held.
    @usableFromInline var nodes: [Node?] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1

    /// An empty table holding at most `capacity` units.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Entries held now.
    @inlinable public var count: Int { slots.count }

    /// The value for `key`, marking it as just used.
    @inlinable public mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key], let node = nodes[slot] else { return nil }
        moveToFront(slot)
        return node.value
    }

    /// The value for `key`, leaving the order of use alone.
    @inlinable public func peek(_ key: Key) -> Value? {
        slots[key].flatMap { nodes[$0]?.value }
    }

    /// What the entry for `key` costs now, leaving the order of use alone.
    @inlinable public func cost(of key: Key) -> Int? {
        slots[key].flatMap { nodes[$0]?.cost }
    }

    /// Stores `value` as the most recently used entry, evicting the least recently used ones
    /// until it fits. A value costing more than the whole capacity is not stored (and any older
    /// value for `key` is dropped): the table never exceeds its bound, even for one entry.
    @inlinable public mutating func set(_ value: Value, for key: Key, cost: Int) {
        _ = remove(key)
        guard cost <= capacity else { return }
        while heldCost + cost > capacity, oldest >= 0 {
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
        heldCost += cost
    }

    /// Runs `body` on the value for `key` in place, marking it as just used; when there is none,
    /// on `make()`'s value, stored afterwards at `cost` (evicting as `set` does). One lookup for a
    /// read-modify-write, where `value(for:)` then `set` would remove and insert the entry again.
    @inlinable public mutating func update<Result>(
        _ key: Key, cost: Int, default make: () -> Value, _ body: (inout Value) -> Result
    ) -> Result {
        if let slot = slots[key], var node = nodes[slot] {
            moveToFront(slot)
            let result = body(&node.value)
            nodes[slot]?.value = node.value
            return result
        }
        var value = make()
        let result = body(&value)
        set(value, for: key, cost: cost)
        return result
    }

    /// Removes the entry for `key` and returns its value.
    @inlinable @discardableResult
    public mutating func remove(_ key: Key) -> Value? {
        guard let slot = slots.removeValue(forKey: key), let node = nodes[slot] else { return nil }
        unlink(slot, node)
        nodes[slot] = nil
        freeSlots.append(slot)
        heldCost -= node.cost
        return node.value
    }

    @inlinable mutating func evictOldest() {
        guard oldest >= 0, let key = nodes[oldest]?.key else { return }
        remove(key)
        evicted += 1
    }

    @inlinable mutating func moveToFront(_ slot: Int) {
        guard slot != newest, let node = nodes[slot] else { return }
        unlink(slot, node)
        nodes[slot]?.older = newest
        nodes[slot]?.newer = -1
        if newest >= 0 { nodes[newest]?.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    @inlinable mutating func unlink(_ slot: Int, _ node: Node) {
        if node.newer >= 0 { nodes[node.newer]?.older = node.older } else { newest = node.older }
        if node.older >= 0 { nodes[node.older]?.newer = node.newer } else { oldest = node.newer }
    }
}

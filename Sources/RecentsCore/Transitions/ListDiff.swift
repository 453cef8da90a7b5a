/// The changes from an old to a new array keyed by id, in the shape of Telegram's `ListView` / UIKit batch updates.
///
/// Applying `deletes` in descending index order to the old array, then `inserts` in ascending
/// index order, then replacing at `updates`, yields the new array exactly. A move is a delete
/// plus an insert carrying `previousIndex`; moves are minimal (survivors in a longest increasing
/// subsequence of old positions stay put).
public struct ListDiff<ID: Hashable & Sendable>: Sendable, Hashable {
    /// An element removed from the old array (or moved away from there).
    public struct Delete: Sendable, Hashable {
        /// The old index.
        public var index: Int
        /// The element's id.
        public var id: ID

        /// Creates a delete.
        @inlinable
        public init(index: Int, id: ID) {
            self.index = index
            self.id = id
        }
    }

    /// An element placed in the new array: new, or moved from `previousIndex`.
    public struct Insert: Sendable, Hashable {
        /// The new index.
        public var index: Int
        /// The old index when the id existed before (a move), else nil.
        public var previousIndex: Int?
        /// The element's id.
        public var id: ID

        /// Creates an insert.
        @inlinable
        public init(index: Int, previousIndex: Int?, id: ID) {
            self.index = index
            self.previousIndex = previousIndex
            self.id = id
        }
    }

    /// An element that stayed in place but whose content changed.
    public struct Update: Sendable, Hashable {
        /// The new index.
        public var index: Int
        /// The old index.
        public var previousIndex: Int
        /// The element's id.
        public var id: ID

        /// Creates an update.
        @inlinable
        public init(index: Int, previousIndex: Int, id: ID) {
            self.index = index
            self.previousIndex = previousIndex
            self.id = id
        }
    }

    /// Old indices, ascending.
    public var deletes: [Delete]
    /// New indices, ascending.
    public var inserts: [Insert]
    /// New indices, ascending.
    public var updates: [Update]

    /// Creates a diff from its parts.
    @inlinable
    public init(deletes: [Delete] = [], inserts: [Insert] = [], updates: [Update] = []) {
        self.deletes = deletes
        self.inserts = inserts
        self.updates = updates
    }

    /// Whether nothing changed.
    @inlinable
    public var isEmpty: Bool { deletes.isEmpty && inserts.isEmpty && updates.isEmpty }

    /// The number of moves (inserts that carry a previous index).
    @inlinable
    public var moveCount: Int { inserts.lazy.filter { $0.previousIndex != nil }.count }
}

extension ListDiff {
    /// The minimal diff between two arrays of uniquely identified elements, for any input order.
    ///
    /// Linear apart from the O(n log n) longest increasing subsequence of the survivors.
    @inlinable
    public static func diff<Element: Identifiable & Equatable>(
        from old: [Element], to new: [Element]
    ) throws(DiffError) -> ListDiff where Element.ID == ID {
        // Borrow elements in place: copying a row out of the array costs a retain per field.
        let outcome: Result<ListDiff, DiffError> = old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in Self.generalDiff(from: old, to: new) }
        }
        return try outcome.get()
    }

    @inlinable
    static func generalDiff<Element: Identifiable & Equatable>(
        from old: UnsafeBufferPointer<Element>, to new: UnsafeBufferPointer<Element>
    ) -> Result<ListDiff, DiffError> where Element.ID == ID {
        var oldIndexOfNew = [Int](repeating: -1, count: new.count)
        var newIndexOfOld = [Int](repeating: -1, count: old.count)
        if let duplicate = Self.matchIDs(
            old: old, new: new, oldIndexOfNew: &oldIndexOfNew, newIndexOfOld: &newIndexOfOld)
        {
            return .failure(duplicate)
        }
        let stays = Self.longestIncreasingSurvivors(oldIndexOfNew)

        var result = ListDiff()
        for index in old.indices {
            let newIndex = newIndexOfOld[index]
            if newIndex < 0 || !stays[newIndex] {
                result.deletes.append(Delete(index: index, id: old[index].id))
            }
        }
        for index in new.indices {
            let oldIndex = oldIndexOfNew[index]
            if oldIndex < 0 {
                result.inserts.append(Insert(index: index, previousIndex: nil, id: new[index].id))
            } else if !stays[index] {
                result.inserts.append(Insert(index: index, previousIndex: oldIndex, id: new[index].id))
            } else if !(old[oldIndex] == new[index]) {
                result.updates.append(Update(index: index, previousIndex: oldIndex, id: new[index].id))
            }
        }
        return .success(result)
    }

    /// Pairs new elements with old ones by id; returns the first duplicate id found, if any.
    ///
    /// One open-addressing table for both sides, holding only a 32-bit hash tag and an index per
    /// slot (ids stay in the arrays): half the memory traffic of a `[ID: Int]`, which matters at
    /// 100k rows. A slot value >= 0 is an old index, < 0 is `-(new index) - 1` of an id only the
    /// new array has, so duplicates within new are caught by the same table.
    @inlinable
    static func matchIDs<Element: Identifiable>(
        old: UnsafeBufferPointer<Element>, new: UnsafeBufferPointer<Element>,
        oldIndexOfNew: inout [Int], newIndexOfOld: inout [Int]
    ) -> DiffError? where Element.ID == ID {
        // Load factor at most 2/3 even if every new id is new.
        let wanted = Swift.max(16, (old.count + new.count) * 3 / 2)
        let capacity = 1 << (Int.bitWidth - (wanted - 1).leadingZeroBitCount)
        let mask = capacity - 1
        let tags = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: capacity)
        tags.initialize(repeating: 0)
        // Slots are read only where a tag is set, so they need no clearing (a trivial type).
        let slots = UnsafeMutableBufferPointer<Int>.allocate(capacity: capacity)
        let seed = IDHash.seed
        defer {
            tags.deallocate()
            slots.deallocate()
        }
        for index in old.indices {
            let id = old[index].id
            let hash = IDHash.hash(id, seed: seed)
            let tag = UInt32(truncatingIfNeeded: hash >> 32) | 1
            var slot = hash & mask
            while tags[slot] != 0 {
                if tags[slot] == tag && old[slots[slot]].id == id { return .duplicateID(side: .old, index: index) }
                slot = (slot + 1) & mask
            }
            tags[slot] = tag
            slots[slot] = index
        }
        for index in new.indices {
            let id = new[index].id
            let hash = IDHash.hash(id, seed: seed)
            let tag = UInt32(truncatingIfNeeded: hash >> 32) | 1
            var slot = hash & mask
            var match = -1
            while tags[slot] != 0 {
                if tags[slot] == tag {
                    let value = slots[slot]
                    if value >= 0 {
                        if old[value].id == id {
                            match = value
                            break
                        }
                    } else if new[-value - 1].id == id {
                        return .duplicateID(side: .new, index: index)
                    }
                }
                slot = (slot + 1) & mask
            }
            if match >= 0 {
                if newIndexOfOld[match] >= 0 { return .duplicateID(side: .new, index: index) }
                newIndexOfOld[match] = index
                oldIndexOfNew[index] = match
            } else {
                tags[slot] = tag
                slots[slot] = -index - 1
            }
        }
        return nil
    }

    /// For each new index: whether it is a survivor that keeps its place (in one longest
    /// increasing subsequence of the survivors' old indices).
    @inlinable
    static func longestIncreasingSurvivors(_ oldIndexOfNew: [Int]) -> [Bool] {
        var stays = [Bool](repeating: false, count: oldIndexOfNew.count)
        // tails[k]: the new index ending the best increasing run of length k + 1 found so far.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: oldIndexOfNew.count)
        for index in oldIndexOfNew.indices {
            let value = oldIndexOfNew[index]
            if value < 0 { continue }
            if let last = tails.last, oldIndexOfNew[last] >= value {
                var low = 0
                var high = tails.count - 1
                while low < high {
                    let middle = (low + high) / 2
                    if oldIndexOfNew[tails[middle]] < value { low = middle + 1 } else { high = middle }
                }
                previous[index] = low > 0 ? tails[low - 1] : -1
                tails[low] = index
            } else {
                // Already-ordered survivors (the common case) append in O(1).
                previous[index] = tails.last ?? -1
                tails.append(index)
            }
        }
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            stays[cursor] = true
            cursor = previous[cursor]
        }
        return stays
    }

    /// The diff of two arrays, answered by a linear merge when both are strictly sorted by `areInIncreasingOrder`.
    ///
    /// Precondition for the fast path: elements with the same id are equivalent under the
    /// ordering (their sort key is a function of the id, as for `Row.precedes`). Then a survivor
    /// cannot move and strict order rules out duplicates. Anything the merge cannot vouch for
    /// (unsorted input, equal keys with different ids, an id both deleted and inserted because
    /// its key changed, a repeated changed id) falls back to the general path, which is exact
    /// for any input.
    @inlinable @inline(__always)
    public static func diff<Element: Identifiable & Equatable>(
        from old: [Element], to new: [Element], by areInIncreasingOrder: (Element, Element) -> Bool
    ) throws(DiffError) -> ListDiff where Element.ID == ID {
        if isStrictlySorted(old, by: areInIncreasingOrder) && isStrictlySorted(new, by: areInIncreasingOrder),
            let merged = mergeDiff(from: old, to: new, by: areInIncreasingOrder)
        {
            return merged
        }
        return try diff(from: old, to: new)
    }

    @inlinable @inline(__always)
    static func isStrictlySorted<Element>(_ elements: [Element], by less: (Element, Element) -> Bool) -> Bool {
        elements.withUnsafeBufferPointer { elements in
            var index = 1
            while index < elements.count {
                if !less(elements[index - 1], elements[index]) { return false }
                index += 1
            }
            return true
        }
    }

    @inlinable @inline(__always)
    static func mergeDiff<Element: Identifiable & Equatable>(
        from old: [Element], to new: [Element], by less: (Element, Element) -> Bool
    ) -> ListDiff? where Element.ID == ID {
        var result = ListDiff()
        // Borrow elements in place: copying a row out of the array costs a retain per field.
        let walked: Bool = old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                var oldIndex = 0
                var newIndex = 0
                while oldIndex < old.count && newIndex < new.count {
                    if old[oldIndex].id == new[newIndex].id {
                        // Matched pairs always form a common subsequence, so they never need moving.
                        if !(old[oldIndex] == new[newIndex]) {
                            result.updates.append(
                                Update(index: newIndex, previousIndex: oldIndex, id: new[newIndex].id))
                        }
                        oldIndex += 1
                        newIndex += 1
                    } else if less(old[oldIndex], new[newIndex]) {
                        result.deletes.append(Delete(index: oldIndex, id: old[oldIndex].id))
                        oldIndex += 1
                    } else if less(new[newIndex], old[oldIndex]) {
                        result.inserts.append(Insert(index: newIndex, previousIndex: nil, id: new[newIndex].id))
                        newIndex += 1
                    } else {
                        return false
                    }
                }
                while oldIndex < old.count {
                    result.deletes.append(Delete(index: oldIndex, id: old[oldIndex].id))
                    oldIndex += 1
                }
                while newIndex < new.count {
                    result.inserts.append(Insert(index: newIndex, previousIndex: nil, id: new[newIndex].id))
                    newIndex += 1
                }
                return true
            }
        }
        guard walked else { return nil }
        // Only the changed ids are hashed: an id both deleted and inserted is a move the merge
        // could not see (its key changed), and a repeat among them is a duplicate.
        if result.deletes.count + result.inserts.count > 1 {
            var seen = Set<ID>(minimumCapacity: result.deletes.count + result.inserts.count)
            for delete in result.deletes where !seen.insert(delete.id).inserted { return nil }
            for insert in result.inserts where !seen.insert(insert.id).inserted { return nil }
        }
        return result
    }

    /// Applies the diff to `old`, taking inserted and updated elements from the new array by index.
    ///
    /// Equivalent to deleting in descending order, inserting in ascending order and then
    /// replacing at the update indices, but linear. The diff must have been computed from `old`.
    @inlinable
    public func apply<Element>(to old: [Element], element: (Int) -> Element) -> [Element] {
        let count = old.count - deletes.count + inserts.count
        precondition(count >= 0, "diff does not fit the array: more deletes than elements")
        var result: [Element] = []
        result.reserveCapacity(count)
        var oldIndex = 0
        var deleteCursor = 0
        var insertCursor = 0
        for index in 0..<count {
            if insertCursor < inserts.count && inserts[insertCursor].index == index {
                result.append(element(index))
                insertCursor += 1
                continue
            }
            while deleteCursor < deletes.count && deletes[deleteCursor].index == oldIndex {
                deleteCursor += 1
                oldIndex += 1
            }
            precondition(oldIndex < old.count, "diff does not fit the array: ran out of old elements")
            result.append(old[oldIndex])
            oldIndex += 1
        }
        for update in updates {
            result[update.index] = element(update.index)
        }
        return result
    }

    /// Applies the diff to `old`, taking inserted and updated elements from `new`.
    @inlinable
    public func apply<Element>(to old: [Element], new: [Element]) -> [Element] {
        apply(to: old) { new[$0] }
    }
}

// Transitions carry the diff's deletes as they are (`Transition.Delete`), and clients decode them.
extension ListDiff.Delete: Decodable where ID: Decodable {}

import RecentsCore
import Testing

@testable import SystemSupport

@Suite struct LRUTableTests {
    @Test func theLeastRecentlyUsedEntryGoesFirst() {
        var table = LRUTable<String, Int>(capacity: 3)
        table.set(1, for: "a", cost: 1)
        table.set(2, for: "b", cost: 1)
        table.set(3, for: "c", cost: 1)
        #expect(table.value(for: "a") == 1)
        table.set(4, for: "d", cost: 1)
        #expect(table.peek("b") == nil)
        #expect(table.peek("a") == 1 && table.peek("c") == 3 && table.peek("d") == 4)
        #expect(table.count == 3 && table.totalCost == 3 && table.evictions == 1)
    }

    /// A read-modify-write in place: an existing value changed and marked used, a missing one
    /// made, changed and stored (evicting the least recently used when full).
    @Test func updateChangesInPlaceOrInserts() {
        var table = LRUTable<String, Int>(capacity: 2)
        #expect(
            table.update("a", cost: 1, default: { 10 }) { value -> Int in
                value += 1
                return value
            } == 11)
        table.set(20, for: "b", cost: 1)
        #expect(
            table.update("a", cost: 1, default: { 0 }) { value -> Int in
                value *= 2
                return value
            } == 22)
        table.update("c", cost: 1, default: { 30 }) { _ in }
        #expect(table.peek("a") == 22 && table.peek("b") == nil && table.peek("c") == 30)
        #expect(table.count == 2 && table.totalCost == 2 && table.evictions == 1)
    }

    @Test func peekingDoesNotCountAsAUse() {
        var table = LRUTable<String, Int>(capacity: 2)
        table.set(1, for: "a", cost: 1)
        table.set(2, for: "b", cost: 1)
        _ = table.peek("a")
        table.set(3, for: "c", cost: 1)
        #expect(table.peek("a") == nil && table.peek("b") == 2)
    }

    @Test func costsAreBytesAndOneEntryMayEvictMany() {
        var table = LRUTable<Int, [UInt8]>(capacity: 1000)
        for key in 0..<10 { table.set([UInt8](repeating: 1, count: 100), for: key, cost: 100) }
        table.set([UInt8](repeating: 2, count: 450), for: 99, cost: 450)
        #expect(table.totalCost == 950)
        #expect(table.count == 6)
        #expect((0..<5).allSatisfy { table.peek($0) == nil })
    }

    @Test func anEntryLargerThanTheWholeBoundIsNotStoredAndDropsTheOldValue() {
        var table = LRUTable<String, Int>(capacity: 10)
        table.set(1, for: "a", cost: 5)
        table.set(2, for: "a", cost: 11)
        #expect(table.peek("a") == nil)
        #expect(table.totalCost == 0 && table.count == 0)
    }

    @Test func replacingAnEntryChargesOnlyItsNewCost() {
        var table = LRUTable<String, Int>(capacity: 10)
        table.set(1, for: "a", cost: 6)
        table.set(2, for: "a", cost: 4)
        table.set(3, for: "b", cost: 6)
        #expect(table.peek("a") == 2 && table.peek("b") == 3 && table.totalCost == 10)
    }

    /// Random operations against a plain array kept in order of use: same contents, same order.
    @Test(arguments: [1, 2, 3, 4, 5]) func behavesLikeAListInOrderOfUse(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var table = LRUTable<Int, Int>(capacity: 20)
        var model: [(key: Int, value: Int, cost: Int)] = []  // most recent last
        for step in 0..<2000 {
            let key = Int.random(in: 0..<16, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                let cost = Int.random(in: 1...8, using: &generator)
                table.set(step, for: key, cost: cost)
                model.removeAll { $0.key == key }
                while model.map(\.cost).reduce(0, +) + cost > 20 { model.removeFirst() }
                model.append((key, step, cost))
            case 1:
                let expected = model.firstIndex { $0.key == key }.map { model.remove(at: $0) }
                if let expected { model.append(expected) }
                #expect(table.value(for: key) == expected?.value)
            default:
                model.removeAll { $0.key == key }
                table.remove(key)
            }
            #expect(table.count == model.count)
            #expect(table.totalCost == model.map(\.cost).reduce(0, +))
            #expect(table.totalCost <= 20)
        }
        for entry in model { #expect(table.peek(entry.key) == entry.value) }
    }
}

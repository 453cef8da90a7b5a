import Testing

@testable import RecentsCore

typealias Diff = ListDiff<String>

@Suite struct ListDiffTests {
    static func lessById(_ a: Item, _ b: Item) -> Bool { a.id < b.id }

    @Test func deleteInsertAndUpdate() throws {
        let old = [Item(id: "a"), Item(id: "b"), Item(id: "c")]
        let new = [Item(id: "a", value: 1), Item(id: "c"), Item(id: "d")]
        let diff = try Diff.diff(from: old, to: new)
        #expect(diff.deletes == [.init(index: 1, id: "b")])
        #expect(diff.inserts == [.init(index: 2, previousIndex: nil, id: "d")])
        #expect(diff.updates == [.init(index: 0, previousIndex: 0, id: "a")])
        #expect(diff.apply(to: old, new: new) == new)
        #expect(try Diff.diff(from: old, to: new, by: Self.lessById) == diff)
    }

    @Test func identicalInputsGiveAnEmptyDiff() throws {
        let list = items("abcdef")
        #expect(try Diff.diff(from: list, to: list).isEmpty)
        #expect(try Diff.diff(from: list, to: list, by: Self.lessById).isEmpty)
        #expect(try Diff.diff(from: [Item](), to: []).isEmpty)
    }

    @Test func aMoveIsADeleteAndAnInsertWithThePreviousIndex() throws {
        let old = items("abc")
        let new = items("cab")
        let diff = try Diff.diff(from: old, to: new)
        #expect(diff.deletes == [.init(index: 2, id: "c")])
        #expect(diff.inserts == [.init(index: 0, previousIndex: 2, id: "c")])
        #expect(diff.updates.isEmpty)
        #expect(diff.moveCount == 1)
        #expect(diff.apply(to: old, new: new) == new)
    }

    @Test func aMovedAndChangedRowIsOnlyTheMove() throws {
        let old = items("abc")
        var new = items("cab")
        new[0].value = 9
        let diff = try Diff.diff(from: old, to: new)
        #expect(diff.inserts == [.init(index: 0, previousIndex: 2, id: "c")])
        #expect(diff.updates.isEmpty)
        #expect(literalApply(diff, to: old, new: new) == new)
    }

    @Test func reversalKeepsOneAndMovesTheRest() throws {
        let old = items("abcde")
        let new = items("edcba")
        let diff = try Diff.diff(from: old, to: new)
        #expect(diff.moveCount == 4)
        #expect(diff.deletes.count == 4)
        #expect(literalApply(diff, to: old, new: new) == new)
    }

    @Test(arguments: [
        ("abca", "ab", DiffSide.old, 3), ("ab", "abb", .new, 2), ("ab", "xyx", .new, 2), ("a", "xa a", .new, 3),
    ])
    func duplicatesThrow(old: String, new: String, side: DiffSide, index: Int) {
        #expect(throws: DiffError.duplicateID(side: side, index: index)) {
            try Diff.diff(from: items(old), to: items(new))
        }
        // Unsorted or not, the ordered overload must not answer silently either.
        #expect(throws: DiffError.duplicateID(side: side, index: index)) {
            try Diff.diff(from: items(old), to: items(new), by: Self.lessById)
        }
    }

    @Test func fastPathFallsBackForUnsortedInput() throws {
        let old = items("abcd")
        let new = items("dbca")
        let fast = try Diff.diff(from: old, to: new, by: Self.lessById)
        #expect(fast == (try Diff.diff(from: old, to: new)))
        #expect(fast.apply(to: old, new: new) == new)
    }

    @Test func fastPathFallsBackWhenAnIdChangedItsSortKey() throws {
        // Ordered by value: "b" moves from value 2 to value 5, which the merge alone cannot see.
        let old = [Item(id: "a", value: 1), Item(id: "b", value: 2), Item(id: "c", value: 3)]
        let new = [Item(id: "a", value: 1), Item(id: "c", value: 3), Item(id: "b", value: 5)]
        let fast = try Diff.diff(from: old, to: new) { $0.value < $1.value }
        #expect(fast == (try Diff.diff(from: old, to: new)))
        #expect(fast.moveCount == 1)
    }

    @Test func fastPathFallsBackOnEqualKeysWithDifferentIds() throws {
        let old = [Item(id: "a", value: 1), Item(id: "b", value: 2)]
        let new = [Item(id: "c", value: 1), Item(id: "b", value: 2)]
        let fast = try Diff.diff(from: old, to: new) { $0.value < $1.value }
        #expect(fast.apply(to: old, new: new) == new)
        #expect(fast == (try Diff.diff(from: old, to: new)))
    }

    @Test func applyIsTheLiteralApplication() throws {
        let old = items("abcdefgh")
        let new = items("xbdzfgyh")
        let diff = try Diff.diff(from: old, to: new)
        #expect(diff.apply(to: old, new: new) == new)
        #expect(literalApply(diff, to: old, new: new) == new)
    }

    // MARK: Properties

    /// Random permutations of a pool of ids with random content changes: the general path.
    @Test func propertyGeneralPathOnRandomPermutations() throws {
        let seed = propertySeed("propertyGeneralPathOnRandomPermutations")
        var random = SplitMix64(seed: seed)
        for round in 0..<3000 {
            let pool = (0..<Int.random(in: 0...40, using: &random)).map { "i\($0)" }
            let old = pool.filter { _ in Int.random(in: 0..<4, using: &random) != 0 }.shuffled(using: &random)
                .map { Item(id: $0, value: Int.random(in: 0..<3, using: &random)) }
            let new = pool.filter { _ in Int.random(in: 0..<4, using: &random) != 0 }.shuffled(using: &random)
                .map { Item(id: $0, value: Int.random(in: 0..<3, using: &random)) }
            let diff = try Diff.diff(from: old, to: new)
            let context = Comment(rawValue: "seed \(seed) round \(round): \(old) -> \(new)")
            Self.checkInvariants(diff, old: old, new: new, context: context)

            // Moves are minimal: survivors minus a longest increasing run of their old positions.
            let oldPosition = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1.id, $0) })
            let survivorPositions = new.compactMap { oldPosition[$0.id] }
            #expect(
                diff.moveCount == survivorPositions.count - referenceLISLength(survivorPositions), context)

            // Sorted copies: the fast path must agree with the general one.
            let sortedOld = old.sorted(by: Self.lessById)
            let sortedNew = new.sorted(by: Self.lessById)
            let fast = try Diff.diff(from: sortedOld, to: sortedNew, by: Self.lessById)
            #expect(fast == (try Diff.diff(from: sortedOld, to: sortedNew)), context)
            #expect(fast.moveCount == 0, context)

            // A duplicate id on either side is rejected by both paths.
            if let victim = old.first {
                let duplicated = old + [victim]
                #expect(throws: DiffError.self, context) { try Diff.diff(from: duplicated, to: new) }
                #expect(throws: DiffError.self, context) { try Diff.diff(from: new, to: duplicated) }
                #expect(throws: DiffError.self, context) {
                    try Diff.diff(from: duplicated, to: new, by: Self.lessById)
                }
            }
        }
    }

    /// Everything a diff must satisfy, whatever its inputs.
    static func checkInvariants<Element: Identifiable & Equatable>(
        _ diff: ListDiff<Element.ID>, old: [Element], new: [Element], context: Comment
    ) where Element.ID == String {
        #expect(diff.apply(to: old, new: new) == new, context)
        #expect(literalApply(diff, to: old, new: new) == new, context)
        #expect(diff.deletes.map(\.index) == diff.deletes.map(\.index).sorted(), context)
        #expect(Set(diff.deletes.map(\.index)).count == diff.deletes.count, context)
        #expect(diff.inserts.map(\.index) == diff.inserts.map(\.index).sorted(), context)
        #expect(Set(diff.inserts.map(\.index)).count == diff.inserts.count, context)
        #expect(diff.updates.map(\.index) == diff.updates.map(\.index).sorted(), context)
        for delete in diff.deletes { #expect(old[delete.index].id == delete.id, context) }
        for insert in diff.inserts {
            #expect(new[insert.index].id == insert.id, context)
            if let previous = insert.previousIndex { #expect(old[previous].id == insert.id, context) }
        }
        // Updates are real changes of rows that stay; an unchanged, unmoved row appears nowhere.
        let inserted = Set(diff.inserts.map(\.index))
        for update in diff.updates {
            #expect(!inserted.contains(update.index), context)
            #expect(old[update.previousIndex].id == update.id && new[update.index].id == update.id, context)
            #expect(old[update.previousIndex] != new[update.index], context)
        }
        let touchedOld = Set(diff.deletes.map(\.index)).union(diff.updates.map(\.previousIndex))
        let movedIds = Set(diff.inserts.compactMap { $0.previousIndex == nil ? nil : $0.id })
        for delete in diff.deletes where !movedIds.contains(delete.id) {
            #expect(!new.contains { $0.id == delete.id }, context)
        }
        let untouched = old.indices.filter { !touchedOld.contains($0) }.map { old[$0] }
        let kept = new.indices.filter { !inserted.contains($0) && !diff.updates.map(\.index).contains($0) }
        #expect(untouched == kept.map { new[$0] }, context)
    }
}

/// An element keyed by a non-string id, to exercise the hashValue fallback of the id table.
struct Numbered: Identifiable, Equatable, Sendable {
    var id: Int
    var value = 0
}

@Suite struct ListDiffIdentityTests {
    @Test func integerIdsDiffAndApply() throws {
        let seed = propertySeed("integerIdsDiffAndApply")
        var random = SplitMix64(seed: seed)
        for round in 0..<500 {
            let old = (0..<30).filter { _ in Bool.random(using: &random) }.shuffled(using: &random).map {
                Numbered(id: $0)
            }
            let new = (0..<30).filter { _ in Bool.random(using: &random) }.shuffled(using: &random)
                .map { Numbered(id: $0, value: Int.random(in: 0...1, using: &random)) }
            let diff = try ListDiff<Int>.diff(from: old, to: new)
            #expect(diff.apply(to: old, new: new) == new, "seed \(seed) round \(round)")
            #expect(literalApply(diff, to: old, new: new) == new, "seed \(seed) round \(round)")
        }
    }

    /// Ids around the hash's 8-byte chunk boundaries, differing only in their last byte.
    @Test(arguments: [1, 7, 8, 9, 15, 16, 17, 31, 128])
    func idsDifferingInTheLastByteAreDistinct(length: Int) throws {
        let prefix = String(repeating: "x", count: length - 1)
        let old = ["a", "b", "c"].map { Item(id: prefix + $0) }
        let new = ["c", "a", "d"].map { Item(id: prefix + $0) }
        let diff = try ListDiff<String>.diff(from: old, to: new)
        #expect(diff.deletes.map(\.id) == [prefix + "b", prefix + "c"])
        #expect(diff.inserts.map(\.previousIndex) == [2, nil])
        #expect(diff.apply(to: old, new: new) == new)
        #expect(IDHash.hash(prefix + "a", seed: 42) == IDHash.hash(String(prefix + "a"), seed: 42))
    }

    @Test func theIdTypeIsInferred() throws {
        let diff = try ListDiff.diff(from: items("ab"), to: items("ba"))
        #expect(diff.moveCount == 1)
    }
}

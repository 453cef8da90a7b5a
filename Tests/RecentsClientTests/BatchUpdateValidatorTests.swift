import RecentsClient
import Testing

@testable import RecentsClientCore

@Suite("BatchUpdateValidator")
struct BatchUpdateValidatorTests {
    /// Before: rows a b c d (4); after: a x c e d y... built per case below.
    static func update(
        before: Int = 3, after: Int = 3, deletions: [Int] = [], insertions: [Int] = [], reloads: [Int] = [],
        ids: [String]? = nil, reconfigured: [String] = []
    ) -> BatchUpdate {
        BatchUpdate(
            numberOfRowsBefore: before, numberOfRowsAfter: after, deletions: deletions, insertions: insertions,
            reloads: reloads, itemIdentifiers: ids ?? (0..<max(after, 0)).map { "r\($0)" },
            reconfiguredIdentifiers: reconfigured)
    }

    /// One update breaking each rule, and only that rule where the rules allow it.
    static let violating: [(BatchUpdateRule, BatchUpdate)] = [
        (.rowCount, update(before: 3, after: 3, deletions: [0])),
        (.deletionOutOfRange, update(before: 3, after: 2, deletions: [3])),
        (.deletionOutOfRange, update(before: 3, after: 2, deletions: [-1])),
        (.reloadOutOfRange, update(before: 3, after: 3, reloads: [3])),
        (.insertionOutOfRange, update(before: 3, after: 4, insertions: [4])),
        (.duplicateDeletion, update(before: 3, after: 1, deletions: [1, 1])),
        (.duplicateInsertion, update(before: 1, after: 3, insertions: [1, 1])),
        (.duplicateReload, update(before: 3, after: 3, reloads: [2, 2])),
        (.deleteAndReload, update(before: 3, after: 2, deletions: [1], reloads: [1])),
        (.identifierCount, update(before: 3, after: 3, ids: ["a", "b"])),
        (.duplicateIdentifier, update(before: 3, after: 3, ids: ["a", "b", "a"])),
        (.unknownReconfigure, update(before: 3, after: 3, reloads: [0], reconfigured: ["zz"])),
    ]

    @Test("each rule has a violating case that is caught", arguments: violating.indices)
    func violationIsCaught(_ index: Int) {
        let (rule, update) = Self.violating[index]
        let rules = BatchUpdateValidator.violations(of: update).map(\.rule)
        #expect(rules.contains(rule), "\(rule) not caught in \(update)")
    }

    @Test func everyRuleHasACase() {
        #expect(Set(Self.violating.map(\.0)) == Set(BatchUpdateRule.allCases))
    }

    @Test func consistentUpdatePasses() {
        // Before a b c d; delete b (1), reload c (before 2), insert x at 0 and y at 4: after x a c d y.
        let update = Self.update(
            before: 4, after: 5, deletions: [1], insertions: [0, 4], reloads: [2], ids: ["x", "a", "c", "d", "y"],
            reconfigured: ["c"])
        #expect(BatchUpdateValidator.violations(of: update).isEmpty)
    }

    @Test func insertAtTheReloadedIndexIsFine() {
        // Reloads are before-indexes and inserts after-indexes: both naming 0 is not a conflict.
        let update = Self.update(before: 1, after: 2, insertions: [0], reloads: [0], ids: ["n", "o"])
        #expect(BatchUpdateValidator.violations(of: update).isEmpty)
    }

    @Test func negativeCountsDoNotTrap() {
        let update = Self.update(before: 0, after: -1, deletions: [0], insertions: [0], ids: [])
        let rules = Set(BatchUpdateValidator.violations(of: update).map(\.rule))
        #expect(rules.isSuperset(of: [.rowCount, .deletionOutOfRange, .insertionOutOfRange, .identifierCount]))
    }
}

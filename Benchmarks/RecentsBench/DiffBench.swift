import Foundation
import RecentsCore

/// Our diff against Swift's `difference(from:)` on the same row arrays.
enum DiffBench {
    struct Figure {
        var n: Int
        var path: String
        var ours: Measure.Sample
        var stdlib: Measure.Sample?
    }

    static func run(sizes: [Int], iterations: Int?, stdlibLimit: Int, sink: inout Int) throws -> [Figure] {
        var figures: [Figure] = []
        for n in sizes {
            var random = BenchRandom(seed: UInt64(n))
            let old = Fixtures.rows(n, random: &random)
            let ordered = Fixtures.nextVersion(of: old, movedPercent: 0, random: &random)
            let moved = Fixtures.nextVersion(of: old, movedPercent: 1, random: &random)
            let ourIterations = iterations ?? max(5, min(200, 2_000_000 / max(n, 1)))
            let stdlibIterations = iterations.map { min($0, 5) } ?? (n <= 1000 ? 20 : 3)

            // (a) API-ordered pairs through the ordered overload (the Transition builder's path).
            let fastDiff = try ListDiff<String>.diff(from: old, to: ordered, by: Row.precedes)
            try check(fastDiff, old: old, new: ordered, label: "fast n=\(n)")
            let fast = try Measure.median(iterations: ourIterations, sink: &sink, digest: \.updates.count) {
                try ListDiff<String>.rows(from: old, to: ordered)
            }
            // (b) 1% moves: not API-ordered, so the general (hashing + LIS) path.
            let generalDiff = try ListDiff<String>.diff(from: old, to: moved)
            try check(generalDiff, old: old, new: moved, label: "general n=\(n)")
            let general = try Measure.median(iterations: ourIterations, sink: &sink, digest: \.inserts.count) {
                try ListDiff<String>.diff(from: old, to: moved)
            }
            var fastStdlib: Measure.Sample?
            var generalStdlib: Measure.Sample?
            if n <= stdlibLimit {
                fastStdlib = Measure.median(iterations: stdlibIterations, sink: &sink, digest: { $0 }) {
                    stdlibDiff(old, ordered)
                }
                generalStdlib = Measure.median(iterations: stdlibIterations, sink: &sink, digest: { $0 }) {
                    stdlibDiff(old, moved)
                }
            }
            figures.append(Figure(n: n, path: "fast", ours: fast, stdlib: fastStdlib))
            figures.append(Figure(n: n, path: "general", ours: general, stdlib: generalStdlib))
        }
        return figures
    }

    /// The standard library's answer to the same question: id diff, moves, then a payload pass.
    static func stdlibDiff(_ old: [Row], _ new: [Row]) -> Int {
        let difference = new.map(\.id).difference(from: old.map(\.id)).inferringMoves()
        var inserted = Set<Int>()
        for change in difference {
            if case .insert(let offset, _, _) = change { inserted.insert(offset) }
        }
        var oldIndex: [String: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for (index, row) in old.enumerated() { oldIndex[row.id] = index }
        var updates = 0
        for (index, row) in new.enumerated() where !inserted.contains(index) {
            if let previous = oldIndex[row.id], old[previous] != row { updates += 1 }
        }
        return difference.count + updates
    }

    struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    static func check(_ diff: ListDiff<String>, old: [Row], new: [Row], label: String) throws {
        guard diff.apply(to: old, new: new) == new else { throw Mismatch(description: "\(label): apply mismatch") }
    }
}

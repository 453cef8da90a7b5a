import Foundation
import RecentsCore

/// Encoding an initial transition of a full window (what the API sends on first load).
enum JSONBench {
    struct Figure {
        var rows: Int
        var bytes: Int
        var ordered: Measure.Sample
        var foundation: Measure.Sample
    }

    static func run(iterations: Int?, sink: inout Int) throws -> [Figure] {
        var random = BenchRandom(seed: 7)
        var figures: [Figure] = []
        for count in [50, 1000] {
            let view = View(rows: Fixtures.rows(count, random: &random), hasMore: true)
            let transition = try Transition.make(
                from: nil, to: view, parameters: ViewParameters(limit: count), state: ListState())
            let encoder = OrderedJSONEncoder()
            let bytes = try encoder.encode(transition).utf8.count
            let ordered = try Measure.median(iterations: iterations ?? 20, sink: &sink, digest: \.utf8.count) {
                try encoder.encode(transition)
            }
            let foundationEncoder = JSONEncoder()
            let foundation = try Measure.median(iterations: iterations ?? 20, sink: &sink, digest: \.count) {
                try foundationEncoder.encode(transition)
            }
            figures.append(Figure(rows: count, bytes: bytes, ordered: ordered, foundation: foundation))
        }
        return figures
    }
}

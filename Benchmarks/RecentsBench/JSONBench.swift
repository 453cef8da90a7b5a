import RecentsAPI
import RecentsCore
import RecentsJSON

/// Encoding an initial transition of a full window with the API's `JSONWriter`, the wire's one
/// encoder (what the server sends on first load, minus the reply's four header members).
enum JSONBench {
    struct Figure {
        var rows: Int
        var bytes: Int
        var writer: Measure.Sample
    }

    static func run(iterations: Int?, sink: inout Int) throws -> [Figure] {
        var random = SplitMix64(seed: 7)
        var figures: [Figure] = []
        for count in [50, 1000] {
            let view = View(rows: Fixtures.rows(count, random: &random), hasMore: true)
            let transition = try Transition.make(
                from: nil, to: view, parameters: ViewParameters(limit: count), state: ListState())
            let encode = {
                var json = JSONWriter(capacity: 256 + count * 400)
                json.raw("{")
                json.transitionMembers(transition)
                json.raw("}")
                return json.bytes
            }
            let bytes = encode().count
            let writer = Measure.median(iterations: iterations ?? 20, sink: &sink, digest: \.count, encode)
            figures.append(Figure(rows: count, bytes: bytes, writer: writer))
        }
        return figures
    }
}

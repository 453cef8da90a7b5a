import RecentsCore

/// Building views from an ordered call list (what the store's cursor feeds RowBuilder).
enum RowsBench {
    struct Figure {
        var calls: Int
        var limit: Int?
        var rows: Int
        var median: Measure.Sample
    }

    static func run(calls count: Int, iterations: Int?, sink: inout Int) -> [Figure] {
        let calls = Fixtures.orderedCalls(count)
        var figures: [Figure] = []
        for limit in [1000, Int.max] {
            let parameters = ViewParameters(filter: .all, limit: limit, tz: 60)
            let rows = RowBuilder.view(orderedCalls: calls, state: ListState(), parameters: parameters).rows.count
            let median = Measure.median(iterations: iterations ?? 20, sink: &sink, digest: \.rows.count) {
                RowBuilder.view(orderedCalls: calls, state: ListState(), parameters: parameters)
            }
            figures.append(Figure(calls: count, limit: limit == Int.max ? nil : limit, rows: rows, median: median))
        }
        return figures
    }
}

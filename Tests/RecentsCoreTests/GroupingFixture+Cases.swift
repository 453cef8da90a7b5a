import RecentsCore

/// The cases of Tests/Fixtures/grouping.json: a table of the rule's corners, then seeded random lists.
extension GroupingScenario {
    /// Midnight UTC, 30 November 2025; `hour` is an hour after it.
    static let midnight: Int64 = 1_764_460_800
    static let hour: Int64 = 3600

    static func at(_ hours: Double) -> Int64 { midnight + Int64(hours * Double(hour)) }

    static func missed(_ id: String, _ peer: String, _ hours: Double, video: Bool = false) -> Call {
        makeCall(id, peer: peer, at: at(hours), .incoming, .missed, video: video)
    }

    static func answered(
        _ id: String, _ peer: String, _ hours: Double, _ direction: CallDirection = .incoming, name: String? = nil,
        duration: Int = 60
    ) -> Call {
        makeCall(id, peer: peer, name: name, at: at(hours), direction, .hangup, duration: duration)
    }

    /// Carol's missed call halfway between `older` and `newer`, then Delete on Carol's row: the
    /// calls either side become neighbours, one row exactly when the server groups them so.
    static func carolBetween(
        _ name: String, _ older: Call, _ newer: Call, view: ViewParameters = all, state: ListState = ListState()
    ) -> GroupingScenario {
        let carol = makeCall("c", peer: "carol", at: (older.timestamp + newer.timestamp) / 2, .incoming, .missed)
        return GroupingScenario(
            name: name, view: view, state: state, calls: [older, carol, newer], steps: [.deleteRow("c")])
    }

    /// A window of `limit` rows over `calls`, then Delete on the row `id` (in zone `tz` when given).
    static func window(_ name: String, limit: Int, _ calls: [Call], delete id: String, tz: Int? = nil)
        -> GroupingScenario
    {
        GroupingScenario(name: name, view: view(limit: limit), calls: calls, steps: [.deleteRow(id, tz: tz)])
    }

    static let all = ViewParameters()
    static func view(_ filter: CallFilter = .all, limit: Int = 50, tz: Int = 0) -> ViewParameters {
        ViewParameters(filter: filter, limit: limit, tz: tz)
    }

    /// The rule's corners, each named for what it shows.
    static let table: [GroupingScenario] = [
        GroupingScenario(
            name: "one answered call is a row of one, with its duration", view: all,
            calls: [answered("c1", "bob", 10, duration: 65)]),
        carolBetween(
            "Bob, Carol, Bob on one day: deleting Carol's row joins Bob's two rows", missed("b1", "bob", 9),
            missed("b2", "bob", 11)),
        GroupingScenario(
            name: "a call posted between two calls of a row splits it; deleting it joins them again", view: all,
            calls: [answered("b1", "bob", 9, .outgoing, duration: 30), answered("b2", "bob", 11, .outgoing)],
            steps: [.insert([answered("c1", "carol", 10)]), .deleteCalls(["c1"])]),
        GroupingScenario(
            name: "incoming and outgoing answered calls are one mixed row; a missed call keeps them apart", view: all,
            calls: [
                answered("i8", "bob", 8), answered("o9", "bob", 9, .outgoing), missed("m10", "bob", 10),
                answered("i11", "bob", 11),
            ],
            steps: [.deleteRow("m10")]),
        GroupingScenario(
            name: "video and voice calls are rows apart", view: all,
            calls: [
                missed("v9", "bob", 9, video: true), missed("m10", "bob", 10), missed("v11", "bob", 11, video: true),
            ],
            steps: [.deleteRow("m10")]),
        carolBetween(
            "a delete leaves a peer's video and voice rows apart", missed("v9", "bob", 9, video: true),
            missed("m11", "bob", 11)),
        carolBetween(
            "a delete leaves a peer's missed and answered rows apart", missed("m9", "bob", 9),
            answered("i11", "bob", 11)),
        carolBetween(
            "a delete leaves a peer's rows either side of midnight apart", missed("b1", "bob", -0.5),
            missed("b2", "bob", 0.5)),
        carolBetween(
            "an hour east the same delete joins them: one day there", missed("b1", "bob", -0.5),
            missed("b2", "bob", 0.5), view: view(tz: 60)),
        GroupingScenario(
            name: "a newer call of the peer names the row and its name shows; an older one joins at the bottom",
            view: all, calls: [answered("b9", "bob", 9, name: "Bob")],
            steps: [.insert([answered("b10", "bob", 10, name: "Robert")]), .insert([answered("b8", "bob", 8)])]),
        GroupingScenario(
            name: "midnight UTC splits a peer's calls into two rows", view: all,
            calls: [missed("b1", "bob", -0.02), missed("b2", "bob", 0.02)],
            steps: [.deleteRow("b2")]),
        GroupingScenario(
            name: "an hour east the same calls are one row; a delete in UTC takes only its newest call",
            view: view(tz: 60), calls: [missed("b1", "bob", -0.02), missed("b2", "bob", 0.02)],
            steps: [.deleteRow("b2", tz: 0)]),
        GroupingScenario(
            name: "an hour west midnight moves: a delete in UTC leaves a row without its newest call, unseen",
            view: view(tz: -60),
            calls: [missed("b1", "bob", -0.5), missed("b2", "bob", 0.5), missed("b3", "bob", 1.5)],
            steps: [.deleteRow("b3", tz: 0)]),
        GroupingScenario(
            name: "at +14:00 two calls an hour apart fall on two days", view: view(tz: 840),
            calls: [missed("b1", "bob", 9.5), missed("b2", "bob", 10.5)],
            steps: [.deleteRow("b2", tz: -840)]),
        GroupingScenario(
            name: "at -14:00 the same calls are one row", view: view(tz: -840),
            calls: [missed("b1", "bob", 9.5), missed("b2", "bob", 10.5)],
            steps: [.deleteRow("b1", tz: 840)]),
        GroupingScenario(
            name: "India's +5:30 midnight is 18:30 UTC: a delete in UTC takes rows of two of its days",
            view: view(tz: 330),
            calls: [
                answered("b1", "bob", -5.52), answered("b2", "bob", -5.48), answered("c", "carol", -5.45),
                answered("b3", "bob", -5.4),
            ],
            steps: [.deleteRow("c"), .deleteRow("b3", tz: 0), .insert([answered("b4", "bob", -5.45)])]),
        GroupingScenario(
            name: "the missed filter joins missed calls an answered call keeps apart in All",
            view: view(.missed),
            calls: [
                missed("m9", "bob", 9), answered("i10", "bob", 10), missed("m11", "bob", 11),
                missed("c12", "carol", 12),
            ],
            steps: [.deleteRow("m11", filter: .all), .deleteRow("m9", filter: .all)]),
        GroupingScenario(
            name: "a delete in the missed view takes whole rows of All", view: all,
            calls: [
                missed("m9", "bob", 9), answered("i10", "bob", 10), missed("m11", "bob", 11),
                missed("c12", "carol", 12),
            ],
            steps: [.deleteRow("m11", filter: .missed)]),
        GroupingScenario(
            name: "a row that lost some calls stays unseen and keeps its neighbours apart until it is gone",
            view: all,
            calls: [
                missed("a10", "alice", 10), missed("c11", "carol", 11), missed("c11h", "carol", 11.5),
                missed("a12", "alice", 12),
            ],
            steps: [.deleteRow("c11", tz: -675), .deleteRow("c11h", tz: -675)]),
        carolBetween(
            "editing and the open row show on every row; deleting the open row closes it", missed("b1", "bob", 9),
            missed("b2", "bob", 11), state: ListState(editing: true, revealedRowId: "c")),
        carolBetween(
            "an open row that joins the row above stays open on the server but is no row", missed("b1", "bob", 9),
            missed("b2", "bob", 11), state: ListState(revealedRowId: "b1")),
        window(
            "with rows beyond the window, deleting its last row hides the row above, which joins one beyond",
            limit: 2, [missed("a10", "alice", 10), missed("b11", "bob", 11), missed("a12", "alice", 12)], delete: "b11"),
        window(
            "with rows beyond the window, deleting its first row keeps its last: it cannot join them",
            limit: 2, [missed("c10", "carol", 10), missed("b11", "bob", 11), missed("a12", "alice", 12)], delete: "a12"),
        window(
            "the window's last row losing some calls hides it alone", limit: 2,
            [
                missed("x8", "dave", 8), missed("r10", "carol", 10), missed("r11", "carol", 11.5),
                missed("a12", "alice", 12),
            ],
            delete: "r11", tz: -675),
        window(
            "deleting every row of a window with more beyond shows nothing and still more", limit: 1,
            [missed("a10", "alice", 10), missed("a11", "alice", 11), missed("b12", "bob", 12)], delete: "b12"),
        GroupingScenario(
            name: "Delete all empties the list; calls posted after it are rows again", view: view(limit: 2),
            state: ListState(revealedRowId: "b2"),
            calls: [missed("b1", "bob", 9), missed("c1", "carol", 10), missed("b2", "bob", 11)],
            steps: [.clear, .insert([answered("d1", "dave", 12)])]),
    ]

    /// Lists of a few peers over three days, each seen in a random view and changed by random steps.
    static func random(count: Int, seed: UInt64) -> [GroupingScenario] {
        var generator = SplitMix64(seed: seed)
        // Not `Int.random(in:using:)`: its algorithm is the standard library's, free to change.
        func pick(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        func pick<T>(_ values: [T]) -> T { values[pick(values.count)] }
        var made = 0
        func call(near hours: Double) -> Call {
            made += 1
            let seconds = Int64(hours * Double(hour)) + Int64(pick(4 * 3600)) - 7200
            let kind = pick(4)
            return makeCall(
                "r\(made)", peer: pick(["bob", "carol"]), name: pick(["Bob Lee", "Carol"]),
                at: midnight + seconds, kind == 1 ? .outgoing : .incoming, kind == 0 ? .missed : .hangup,
                video: pick(6) == 0, duration: pick(300))
        }
        let zones = [-840, -300, -60, 0, 60, 330, 840]
        return (1...count).map { index in
            made = 0
            var hours = -30.0
            let calls = (0..<(5 + pick(5))).map { _ in
                hours += pick([0.1, 0.5, 3, 8])
                return call(near: hours)
            }
            let view = view(pick(4) == 0 ? .missed : .all, limit: pick([1, 2, 3, 50]), tz: pick(zones))
            var example = GroupingScenario(name: "random \(index) of seed \(seed)", view: view, calls: calls)
            var evaluated = EvaluatedScenario(example)
            for _ in 0..<(1 + pick(3)) {
                let now =
                    evaluated.outcomes.last.map { ($0.shown ?? $0.truth, $0.truth) } ?? (
                        evaluated.initial, evaluated.initial
                    )
                let alive = evaluated.aliveCalls
                guard !alive.isEmpty else { break }
                let roll = pick(10)
                if roll < 3, let row = now.0.rows.isEmpty ? nil : pick(now.0.rows) {
                    example.steps.append(.deleteRow(row.id))
                } else if roll < 6 {
                    let filter: CallFilter = pick(2) == 0 ? .all : .missed
                    let tz = pick(zones)
                    // Only rows on screen can be deleted in the case's own view: that is the branch above.
                    guard filter != view.filter || tz != view.tz else { continue }
                    let ordered = alive.filter { filter == .all || $0.isMissed }.sorted(by: RowBuilder.precedes)
                    let rows = RowBuilder.view(
                        orderedCalls: ordered, state: ListState(),
                        parameters: ViewParameters(filter: filter, limit: 1000, tz: tz)
                    ).rows
                    guard !rows.isEmpty else { continue }
                    example.steps.append(.deleteRow(pick(rows).id, filter: filter, tz: tz))
                } else if roll < 8 {
                    example.steps.append(.insert([call(near: pick([-20.0, -5, 10, 30]))]))
                } else if roll < 9 {
                    example.steps.append(.deleteCalls([pick(alive).id]))
                } else {
                    example.steps.append(.clear)
                }
                evaluated = EvaluatedScenario(example)
            }
            return example
        }
    }
}

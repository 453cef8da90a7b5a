import RecentsCore

/// Tests/Fixtures/grouping.json's text: calls and rows in the contract's JSON (members in the
/// wire's order), one per line, so a change to the rule reads as a small diff.
extension EvaluatedScenario {
    static let about = """
        Grouping (RecentsCore's RowBuilder; contract: rows) on cases of calls, written by \
        GroupingFixtureTests (RECENTS_WRITE_FIXTURES=1 swift test --filter GroupingFixtureTests). \
        Each case: the calls, the view and state, and GET rows of that view (rows, hasMore); then \
        steps in order: insert (calls another device posts) and deleteCalls (ids another device \
        deletes) are server changes; deleteRow (Delete on a row of the view filter/tz, which may \
        be another view: deleted are the calls the server deletes) and clear are own actions. \
        After each step: GET rows of the case's view (rows, hasMore, editing, revealedRowId) and, \
        after an own action, shown: what a client shows at once from the rows it had when its run \
        of own actions began (a server change confirms the actions before it), with those actions \
        applied: whole rows regrouped as the server groups them, a row that lost only some calls \
        kept out of sight (the rows do not tell its newest time, duration or directions), and with \
        rows beyond the window, the last row once the window's last row is gone (it may join them).
        """

    /// The whole file.
    static func render(_ cases: [EvaluatedScenario]) -> String {
        "{\n\"about\": \(quoted(about)),\n\"cases\": [\n" + cases.map(\.json).joined(separator: ",\n") + "\n]}\n"
    }

    var json: String {
        let view = source.view
        let head =
            "{\"name\": \(Self.quoted(source.name)), \"view\": {\"filter\": \"\(view.filter.rawValue)\", "
            + "\"limit\": \(view.limit), \"tz\": \(view.tz)}, \"state\": \(Self.json(source.state)),\n"
        let steps = outcomes.map { outcome in
            var members = [Self.json(outcome.step), "\"deleted\": \(Self.json(outcome.deleted))"]
            members.append("\n \"rows\": \(Self.json(outcome.truth.rows)), \"hasMore\": \(outcome.truth.hasMore)")
            members.append(
                "\"editing\": \(outcome.state.editing), \"revealedRowId\": \(Self.json(outcome.state.revealedRowId))")
            if let shown = outcome.shown {
                members.append("\n \"shown\": {\"rows\": \(Self.json(shown.rows)), \"hasMore\": \(shown.hasMore)}")
            }
            return "{" + members.joined(separator: ", ") + "}"
        }
        return head + "\"calls\": \(Self.lines(source.calls.map(Self.json))),\n"
            + "\"rows\": \(Self.json(initial.rows)), \"hasMore\": \(initial.hasMore),\n"
            + "\"steps\": [" + (steps.isEmpty ? "" : "\n" + steps.joined(separator: ",\n") + "\n") + "]}"
    }

    static func json(_ step: GroupingScenario.Step) -> String {
        switch step {
        case .insert(let calls): return "\"insert\": \(lines(calls.map(json)))"
        case .deleteCalls(let ids): return "\"deleteCalls\": \(json(ids))"
        case .deleteRow(let id, let filter, let tz):
            return "\"deleteRow\": \(quoted(id)), \"filter\": \"\((filter ?? .all).rawValue)\", \"tz\": \(tz ?? 0)"
        case .clear: return "\"clear\": true"
        }
    }

    static func json(_ state: ListState) -> String {
        "{\"editing\": \(state.editing), \"revealedRowId\": \(json(state.revealedRowId))}"
    }

    static func json(_ call: Call) -> String {
        "{\"id\": \(quoted(call.id)), \"peer\": \(json(call.peer)), \"direction\": \"\(call.direction.rawValue)\", "
            + "\"endReason\": \"\(call.endReason.rawValue)\", \"video\": \(call.video), "
            + "\"duration\": \(call.duration), \"timestamp\": \(call.timestamp)}"
    }

    static func json(_ rows: [Row]) -> String { lines(rows.map(json)) }

    static func json(_ row: Row) -> String {
        let options = row.options.map { option in
            "{\"key\":\(quoted(option.key)),\"title\":\(quoted(option.title)),\"destructive\":\(option.destructive)}"
        }
        return "{\"id\":\(quoted(row.id)),\"peer\":\(json(row.peer)),\"count\":\(row.count),"
            + "\"callIds\":\(json(row.callIds)),\"timestamp\":\(row.timestamp),\"missed\":\(row.missed),"
            + "\"incoming\":\(row.incoming),\"outgoing\":\(row.outgoing),\"video\":\(row.video),"
            + "\"duration\":\(row.duration.map(String.init) ?? "null"),\"status\":\"\(row.status.rawValue)\","
            + "\"revealed\":\(row.revealed),\"editing\":\(row.editing),\"options\":[\(options.joined(separator: ","))]}"
    }

    static func json(_ peer: Peer) -> String { "{\"id\":\(quoted(peer.id)),\"name\":\(quoted(peer.name))}" }

    static func json(_ ids: [String]) -> String { "[" + ids.map(quoted).joined(separator: ",") + "]" }

    static func json(_ value: String?) -> String { value.map(quoted) ?? "null" }

    /// A JSON array with one element per line.
    static func lines(_ elements: [String]) -> String {
        elements.isEmpty ? "[]" : "[\n  " + elements.joined(separator: ",\n  ") + "]"
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

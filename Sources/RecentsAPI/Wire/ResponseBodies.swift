import RecentsCore
import RecentsJSON
import RecentsStore

/// The bodies of the answers that are more than one value: the wire format in the contract's
/// field order, rendered from what reads and writes return.
enum ResponseBodies {
    /// `GET rows`: the list header, the view's parameters and state, and its rows.
    static func rows(_ page: RowsPage, epoch: String) -> [UInt8] {
        var json = JSONWriter(capacity: 512 + page.view.rows.count * 360)
        json.raw("{")
        json.listHeader(list: page.list, epoch: epoch, version: page.info.version)
        json.comma()
        json.viewParameters(page.parameters)
        json.comma()
        json.state(page.info.state)
        json.comma()
        json.key("hasMore")
        json.bool(page.view.hasMore)
        json.comma()
        json.key("unseenMissed")
        json.int(page.unseenMissed)
        json.comma()
        json.key("rows")
        json.raw("[")
        for (position, row) in page.view.rows.enumerated() {
            if position > 0 { json.comma() }
            json.row(row)
        }
        json.raw("]}")
        return json.bytes
    }

    /// The ETag of a rows answer: it changes exactly when the answer's bytes can (the version is in the body).
    static func rowsETag(epoch: String, version: Int64, parameters: ViewParameters) -> String {
        "\"\(epoch)-\(version)-\(parameters.filter.rawValue)-\(parameters.limit)-\(parameters.tz)\""
    }

    /// `GET rows/{rowId}`: the list header, the row as `GET rows` writes it, and its calls with their kinds.
    static func rowInfo(_ page: RowInfoPage, epoch: String) -> [UInt8] {
        var json = JSONWriter(capacity: 512 + page.calls.count * 160)
        json.raw("{")
        json.listHeader(list: page.list, epoch: epoch, version: page.info.version)
        json.comma()
        json.key("row")
        json.row(page.row)
        json.comma()
        json.key("calls")
        json.array(page.calls) { $0.infoCall($1) }
        json.raw("}")
        return json.bytes
    }

    /// The ETag of a row's info: the version and the view that groups the row (the row id is the URL's).
    static func rowInfoETag(epoch: String, version: Int64, parameters: ViewParameters) -> String {
        "\"\(epoch)-\(version)-\(parameters.filter.rawValue)-\(parameters.tz)\""
    }

    /// `GET /v1/lists/{list}`.
    static func list(_ info: ListInfo, unseenMissed: Int, epoch: String) -> [UInt8] {
        var json = JSONWriter()
        json.raw("{")
        json.listHeader(list: info.name, epoch: epoch, version: info.version)
        json.comma()
        json.state(info.state)
        json.comma()
        json.key("callCount")
        json.int(info.callCount)
        json.comma()
        json.key("seenThrough")
        json.int(info.state.seenThrough)
        json.comma()
        json.key("unseenMissed")
        json.int(unseenMissed)
        json.raw("}")
        return json.bytes
    }

    /// A transition (contract section 4): `list`, `from`, `to`, the diff, `epoch`.
    static func transition(list: String, from: Int64?, answer: TransitionAnswer, epoch: String) -> [UInt8] {
        let transition = answer.transition
        var json = JSONWriter(capacity: 256 + (transition.inserts.count + transition.updates.count) * 400)
        json.raw("{")
        json.key("list")
        json.string(list)
        json.comma()
        json.key("from")
        json.int(from)
        json.comma()
        json.key("to")
        json.int(answer.to)
        json.comma()
        json.transitionMembers(transition)
        json.comma()
        json.key("unseenMissed")
        json.int(answer.unseenMissed)
        json.comma()
        json.key("epoch")
        json.string(epoch)
        json.raw("}")
        return json.bytes
    }

    /// `{"version": N, "epoch": "...", ...}`: every write reply starts with the list's version.
    static func writeReply(version: Int64, epoch: String, _ members: (inout JSONWriter) -> Void) -> [UInt8] {
        var json = JSONWriter()
        json.raw("{")
        json.key("version")
        json.int(version)
        json.comma()
        json.key("epoch")
        json.string(epoch)
        members(&json)
        json.raw("}")
        return json.bytes
    }
}

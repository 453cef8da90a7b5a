import RecentsCore
import RecentsJSON
import RecentsStore

/// The bodies of every read, run by a store reader inside one snapshot, so each answer shows
/// exactly one version of the list.
enum ListReads {
    /// A `GET rows` answer ready to cache and send.
    struct RowsAnswer: Sendable {
        var version: Int64
        var exists: Bool
        var etag: String
        var body: [UInt8]
    }

    /// The ETag of a rows answer: it changes exactly when the answer's bytes can (the version is in the body).
    static func etag(epoch: String, version: Int64, parameters: ViewParameters) -> String {
        "\"\(epoch)-\(version)-\(parameters.filter.rawValue)-\(parameters.limit)-\(parameters.tz)\""
    }

    /// Builds and encodes the current view of `list`.
    static func rows(list: String, parameters: ViewParameters, epoch: String, tx: any StoreReader) throws -> RowsAnswer
    {
        let info = try tx.listInfo(list)
        let view = RowBuilder.view(
            orderedCalls: try tx.calls(in: list, at: info.version, filter: parameters.filter), state: info.state,
            parameters: parameters)
        var json = JSONWriter(capacity: 512 + view.rows.count * 360)
        json.raw("{")
        json.listHeader(list: list, epoch: epoch, version: info.version)
        json.comma()
        json.key("filter")
        json.string(parameters.filter.rawValue)
        json.comma()
        json.key("limit")
        json.int(parameters.limit)
        json.comma()
        json.key("tz")
        json.int(parameters.tz)
        json.comma()
        json.state(info.state)
        json.comma()
        json.key("hasMore")
        json.bool(view.hasMore)
        json.comma()
        json.key("rows")
        json.raw("[")
        for (position, row) in view.rows.enumerated() {
            if position > 0 { json.comma() }
            json.row(row)
        }
        json.raw("]}")
        return RowsAnswer(
            version: info.version, exists: info.exists,
            etag: etag(epoch: epoch, version: info.version, parameters: parameters), body: json.bytes)
    }

    /// `GET /v1/lists/{list}`.
    static func list(_ list: String, epoch: String, tx: any StoreReader) throws -> (version: Int64, body: [UInt8]) {
        let info = try tx.listInfo(list)
        var json = JSONWriter()
        json.raw("{")
        json.listHeader(list: list, epoch: epoch, version: info.version)
        json.comma()
        json.state(info.state)
        json.comma()
        json.key("callCount")
        json.int(info.callCount)
        json.raw("}")
        return (info.version, json.bytes)
    }

    /// A transition from the client's view to the current one, and the version it leads to.
    struct TransitionAnswer: Sendable {
        var to: Int64
        var transition: Transition
    }

    /// What a transition request asks for.
    struct TransitionQuery: Sendable, Hashable {
        var list: String
        /// nil: the client shows nothing yet (`initial`).
        var since: Int64?
        var from: ViewParameters
        var to: ViewParameters
    }

    /// Computes the transition of `query` at the list's current version.
    /// - Throws: `APIError.resyncRequired` when `since` is newer than the list or no longer retained.
    static func transition(_ query: TransitionQuery, tx: any StoreReader) throws -> TransitionAnswer {
        let info = try tx.listInfo(query.list)
        let current = RowBuilder.view(
            orderedCalls: try tx.calls(in: query.list, at: info.version, filter: query.to.filter), state: info.state,
            parameters: query.to)
        var old: (view: View, parameters: ViewParameters)?
        if let since = query.since {
            guard since <= info.version else {
                throw APIError.resyncRequired(
                    "version \(since) is newer than list '\(query.list)' (current \(info.version))",
                    currentVersion: info.version)
            }
            guard try tx.isRetained(since, in: query.list),
                let state = since == 0 ? ListState() : try tx.state(of: query.list, at: since)
            else {
                throw APIError.resyncRequired(
                    "version \(since) of list '\(query.list)' is no longer retained", currentVersion: info.version)
            }
            let view = RowBuilder.view(
                orderedCalls: try tx.calls(in: query.list, at: since, filter: query.from.filter), state: state,
                parameters: query.from)
            old = (view, query.from)
        }
        let transition = try Transition.make(from: old, to: current, parameters: query.to, state: info.state)
        return TransitionAnswer(to: info.version, transition: transition)
    }

    /// The transition reply body (contract section 4): `list`, `from`, `to`, the diff, `epoch`.
    static func transitionBody(list: String, from: Int64?, answer: TransitionAnswer, epoch: String) -> [UInt8] {
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
        json.key("epoch")
        json.string(epoch)
        json.raw("}")
        return json.bytes
    }
}

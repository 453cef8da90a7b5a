import RecentsCore
import RecentsStore

/// The bodies of the reads, run by a store reader inside one snapshot, so each value shows exactly
/// one version of the list. They return values; `ResponseBodies` renders them.
enum ListReads {
    /// The current view of `list` as `parameters` shape it.
    static func rows(list: String, parameters: ViewParameters, tx: any StoreReader) throws -> RowsPage {
        let info = try tx.listInfo(list)
        let view = RowBuilder.view(
            orderedCalls: try tx.calls(in: list, at: info.version, filter: parameters.filter), state: info.state,
            parameters: parameters)
        return RowsPage(
            list: list, info: info, parameters: parameters, view: view,
            unseenMissed: try tx.unseenMissed(in: list, at: info.version))
    }

    /// The row of the view `parameters` shape (no window) that `id` names (`lookup`: the row's id or
    /// one of its calls), with its calls, at the current version.
    /// - Throws: `APIError.notFound` when no row of that view has that id (or groups that call).
    static func rowInfo(
        list: String, lookup: RowLookup = .rowId, id: String, parameters: ViewParameters, tx: any StoreReader
    ) throws -> RowInfoPage {
        let info = try tx.listInfo(list)
        let calls = try tx.calls(in: list, at: info.version, filter: parameters.filter)
        let found =
            switch lookup {
            case .rowId:
                RowBuilder.rowWithCalls(
                    id: id, orderedCalls: calls, state: info.state, filter: parameters.filter, tz: parameters.tz)
            case .callId:
                RowBuilder.rowWithCalls(
                    containing: id, orderedCalls: calls, state: info.state, filter: parameters.filter,
                    tz: parameters.tz)
            }
        guard let found else {
            throw lookup == .rowId
                ? noRow(id, in: list, parameters: parameters)
                : APIError.notFound(
                    "no row of list '\(list)' groups call '\(id)' for filter=\(parameters.filter.rawValue) "
                        + "tz=\(parameters.tz)")
        }
        return RowInfoPage(list: list, info: info, parameters: parameters, row: found.row, calls: found.calls)
    }

    /// 404 for a row id no row of the view has (a row is a group of one view: another filter or
    /// time zone groups other rows).
    static func noRow(_ rowId: String, in list: String, parameters: ViewParameters) -> APIError {
        .notFound("no row '\(rowId)' in list '\(list)' for filter=\(parameters.filter.rawValue) tz=\(parameters.tz)")
    }

    /// Computes the transition of `query` at the list's current version.
    /// - Throws: `APIError.resyncRequired` when `since` is newer than the list or no longer retained.
    static func transition(_ query: TransitionQuery, tx: any StoreReader) throws -> TransitionAnswer {
        let info = try tx.listInfo(query.list)
        let current = RowBuilder.view(
            orderedCalls: try tx.calls(in: query.list, at: info.version, filter: query.to.filter), state: info.state,
            parameters: query.to)
        var old: (view: View, parameters: ViewParameters)?
        var oldUnseenMissed: Int?
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
            oldUnseenMissed = try tx.unseenMissed(in: query.list, at: since)
        }
        let transition = try Transition.make(from: old, to: current, parameters: query.to, state: info.state)
        let unseen = try tx.unseenMissed(in: query.list, at: info.version)
        return TransitionAnswer(
            to: info.version, transition: transition, unseenMissed: unseen,
            unseenMissedChanged: oldUnseenMissed.map { $0 != unseen } ?? false)
    }
}

/// The rows of one view of a list at one version: what `GET rows` answers.
struct RowsPage: Sendable {
    var list: String
    var info: ListInfo
    var parameters: ViewParameters
    var view: View
    /// The missed-calls badge at `info.version`.
    var unseenMissed: Int
}

/// One row of a view with its calls: what `GET rows/{rowId}` answers.
struct RowInfoPage: Sendable {
    var list: String
    var info: ListInfo
    /// The view that grouped the row (its `limit` plays no part).
    var parameters: ViewParameters
    var row: Row
    /// The row's calls, newest first.
    var calls: [Call]
}

/// What a transition request asks for.
struct TransitionQuery: Sendable, Hashable {
    var list: String
    /// nil: the client shows nothing yet (`initial`).
    var since: Int64?
    var from: ViewParameters
    var to: ViewParameters
}

/// A transition from the client's view to the current one, and the version it leads to.
struct TransitionAnswer: Sendable {
    var to: Int64
    var transition: Transition
    /// The missed-calls badge at `to`.
    var unseenMissed: Int = 0
    /// Whether the badge differs from the client's version's (never for a client with none: its
    /// initial transition is empty exactly when it has no rows, as before the badge).
    var unseenMissedChanged = false

    /// Whether the client learns nothing from it: no row moved and the badge stayed.
    var isEmpty: Bool { transition.isEmpty && !unseenMissedChanged }
}

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
        return RowsPage(list: list, info: info, parameters: parameters, view: view)
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
}

/// The rows of one view of a list at one version: what `GET rows` answers.
struct RowsPage: Sendable {
    var list: String
    var info: ListInfo
    var parameters: ViewParameters
    var view: View
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
}

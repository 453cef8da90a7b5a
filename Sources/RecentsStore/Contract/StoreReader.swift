import RecentsCore

/// The reads of one transaction: every value comes from the same snapshot, so values read together
/// belong to one version of each list.
///
/// Valid only inside the body it was passed to, on the thread running that body; not Sendable.
public protocol StoreReader: AnyObject {
    /// The list's current version, retention window, state and live call count.
    func listInfo(_ list: String) throws -> ListInfo

    /// The live call `id` of `list` at its current version, if any.
    func call(_ id: String, in list: String) throws -> Call?

    /// Whether `version` of `list` is answered: `oldestRetainedVersion ≤ version ≤ current`.
    func isRetained(_ version: Int64, in list: String) throws -> Bool

    /// The state of `list` at `version`; nil when that version is not retained.
    func state(of list: String, at version: Int64) throws -> ListState?

    /// The calls of `list` live at `version` that pass `filter`, newest first (timestamp, then id,
    /// both descending, ids compared byte-wise).
    /// - Throws: `StoreError.versionNotRetained` when `version` is outside the retained window.
    func calls(in list: String, at version: Int64, filter: CallFilter) throws -> CallSequence

    /// The ids of the calls of `list` live at `version`, in the order `calls(in:at:filter: .all)`
    /// gives them; reads only the ids (the view index, no table row, no `Call`).
    /// - Throws: `StoreError.versionNotRetained` when `version` is outside the retained window.
    func callIds(in list: String, at version: Int64) throws -> [String]

    /// The missed-calls badge of `list` at `version`: its calls of the Missed filter's class live at
    /// that version with a timestamp after that version's seen mark (`ListState.seenThrough`). Read
    /// from a stored count, so it costs the same whatever the list holds.
    /// - Throws: `StoreError.versionNotRetained` when `version` is outside the retained window.
    func unseenMissed(in list: String, at version: Int64) throws -> Int
}

extension StoreReader {
    /// Every call of `list` live at `version`, newest first.
    public func calls(in list: String, at version: Int64) throws -> CallSequence {
        try calls(in: list, at: version, filter: .all)
    }
}

/// The calls of one list at one version, newest first, read lazily from the engine's cursor as
/// the caller iterates; valid only inside the transaction body that read it.
public struct CallSequence: Sequence, IteratorProtocol {
    /// The engine's cursor (white-box tests read its step count).
    let cursor: any CallCursorSource

    init(_ cursor: any CallCursorSource) {
        self.cursor = cursor
    }

    /// The next call, or nil at the end (or after an error, which fails the transaction).
    public mutating func next() -> Call? { cursor.next() }
}

/// An engine's cursor over calls (SQLite's `CallCursor`, PostgreSQL's `PGCallCursor`).
protocol CallCursorSource: AnyObject {
    /// The next call, or nil at the end.
    func next() -> Call?
}

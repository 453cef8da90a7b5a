import RecentsCore

/// The reads both engines answer the same way from a list's `lists` row and the retention rule;
/// an engine supplies the row, its statements and its error mapping.
protocol ListRowReader: StoreReader {
    /// The engine's cursor over calls.
    associatedtype Cursor: CallCursorSource

    /// The list's row (read once per transaction), nil when it was never written.
    func listRow(_ list: String) throws -> ListRow?
    /// The oldest version of `row`'s list the transaction answers.
    func oldestRetained(_ row: ListRow) -> Int64
    /// Runs `body`, throwing the engine's failures as `StoreError`s.
    func guarded<R>(_ body: () throws -> R) throws -> R
    /// The live call `id` of the list of `row` (never a forget's leftover).
    func liveCall(_ id: String, in row: ListRow) throws -> Call?
    /// The newest `list_versions` row of list `listId` at or below `version`.
    func storedVersion(listId: Int64, at version: Int64) throws -> VersionRow?
    /// The newest clear of list `listId` at or below `version` still waiting for the pruner
    /// (`list_clears`), 0 when none.
    func storedClear(listId: Int64, at version: Int64) throws -> Int64
    /// A cursor over the calls of the list of `row` live at `version` that pass `filter`, created
    /// at or above `floor` (see `floor(of:at:)`).
    func cursor(_ row: ListRow, version: Int64, floor: Int64, filter: CallFilter) throws -> Cursor
    /// A cursor with no calls (a never-written list at version 0).
    func emptyCursor() -> Cursor
    /// The ids of the calls of the list of `row` live at `version`, created at or above `floor`,
    /// in the view order: read from the view index alone.
    func liveIds(_ row: ListRow, version: Int64, floor: Int64) throws -> [String]
}

extension ListRowReader {
    /// The list's current version, retention window, state and live call count.
    func listInfo(_ list: String) throws -> ListInfo {
        try guarded {
            guard let row = try listRow(list) else {
                return ListInfo(
                    name: list, version: 0, oldestRetainedVersion: 0, state: ListState(), callCount: 0, exists: false)
            }
            return ListInfo(
                name: list, version: row.version, oldestRetainedVersion: oldestRetained(row), state: row.state,
                callCount: row.callCount, exists: true)
        }
    }

    /// The live call `id` of `list` at its current version, if any.
    func call(_ id: String, in list: String) throws -> Call? {
        try guarded {
            guard let row = try listRow(list) else { return nil }
            return try liveCall(id, in: row)
        }
    }

    /// Whether `version` of `list` is answered: `oldestRetainedVersion ≤ version ≤ current`.
    func isRetained(_ version: Int64, in list: String) throws -> Bool {
        try guarded {
            guard let row = try listRow(list) else { return version == 0 }
            return version >= oldestRetained(row) && version <= row.version
        }
    }

    /// The state of `list` at `version`; nil when that version is not retained.
    func state(of list: String, at version: Int64) throws -> ListState? {
        try guarded {
            guard let row = try listRow(list) else { return version == 0 ? ListState() : nil }
            guard version >= oldestRetained(row), version <= row.version else { return nil }
            if version == row.version { return row.state }
            // State rows exist only where the state changed: the newest one at or below `version`.
            return try storedVersion(listId: row.id, at: version)?.state
        }
    }

    /// The missed-calls badge of `list` at `version`: the `lists` row's count at the current
    /// version, else the newest `list_versions` row's at or below it (rows are written wherever the
    /// count changed). A row older than the stored count has none: those calls are counted.
    ///
    /// Throws `StoreError.versionNotRetained` when `version` is outside the retained window.
    func unseenMissed(in list: String, at version: Int64) throws -> Int {
        try guarded {
            guard let row = try listRow(list) else {
                guard version == 0 else { throw StoreError.versionNotRetained(list: list, version: version) }
                return 0
            }
            guard version >= oldestRetained(row), version <= row.version else {
                throw StoreError.versionNotRetained(list: list, version: version)
            }
            if version == row.version { return row.unseenMissed }
            let stored = try storedVersion(listId: row.id, at: version)
            if let count = stored?.unseenMissed { return count }
            return UnseenMissed.count(
                missedCalls: CallSequence(
                    try cursor(row, version: version, floor: try floor(of: row, at: version), filter: .missed)),
                seenThrough: stored?.state.seenThrough ?? 0)
        }
    }

    /// The calls of `list` live at `version` that pass `filter`, newest first (timestamp, then
    /// id, both descending, ids compared byte-wise), read lazily; valid only inside the body.
    ///
    /// Throws `StoreError.versionNotRetained` when `version` is outside the retained window.
    func calls(in list: String, at version: Int64, filter: CallFilter) throws -> CallSequence {
        try retained(list, at: version, empty: CallSequence(emptyCursor())) { row, floor in
            CallSequence(try cursor(row, version: version, floor: floor, filter: filter))
        }
    }

    /// The ids of the calls of `list` live at `version`, in the order of `calls(in:at:filter:)`.
    ///
    /// Throws `StoreError.versionNotRetained` when `version` is outside the retained window.
    func callIds(in list: String, at version: Int64) throws -> [String] {
        try retained(list, at: version, empty: []) { row, floor in
            try liveIds(row, version: version, floor: floor)
        }
    }

    /// `read` of the row of `list` and its floor at `version` (`empty` for a never-written list
    /// at version 0); throws `StoreError.versionNotRetained` outside the retained window.
    private func retained<R>(
        _ list: String, at version: Int64, empty: @autoclosure () -> R, _ read: (ListRow, Int64) throws -> R
    ) throws -> R {
        try guarded {
            guard let row = try listRow(list) else {
                guard version == 0 else { throw StoreError.versionNotRetained(list: list, version: version) }
                return empty()
            }
            guard version >= oldestRetained(row), version <= row.version else {
                throw StoreError.versionNotRetained(list: list, version: version)
            }
            return try read(row, try floor(of: row, at: version))
        }
    }

    /// Calls created below this version are not live at `version` of `row`'s list (a retained
    /// one): below the forget floor, or hidden by a clear at or below `version` that the pruner
    /// has not marked yet. Without such a clear (nearly always) it costs no statement.
    func floor(of row: ListRow, at version: Int64) throws -> Int64 {
        guard row.clearedBelow > 0 else { return row.forgottenBelow }
        if version >= row.version { return row.liveFloor }
        return max(row.forgottenBelow, try storedClear(listId: row.id, at: version))
    }
}

/// Everything a client needs to go from one view of a list to another (contract section 4).
///
/// Decodable for clients; the server writes it with RecentsAPI's `JSONWriter.transitionMembers`.
public struct Transition: Decodable, Sendable, Hashable {
    /// A row removed at an old index: the diff's own delete, whose id is the row's.
    public typealias Delete = ListDiff<String>.Delete

    /// A row placed at a new index: new, or moved from `previousIndex`.
    public struct Insert: Decodable, Sendable, Hashable {
        /// The new index.
        public var index: Int
        /// The old index when the row moved, else nil (encoded as `null`).
        public var previousIndex: Int?
        /// The row's id.
        public var id: String
        /// The row as it is now.
        public var row: Row
        /// Where the row slides in from, or nil (encoded as `null`).
        public var directionHint: DirectionHint?

        /// Creates an insert.
        public init(index: Int, previousIndex: Int?, id: String, row: Row, directionHint: DirectionHint?) {
            self.index = index
            self.previousIndex = previousIndex
            self.id = id
            self.row = row
            self.directionHint = directionHint
        }
    }

    /// A row that kept its place but changed.
    public struct Update: Decodable, Sendable, Hashable {
        /// The new index.
        public var index: Int
        /// The old index.
        public var previousIndex: Int
        /// The row's id.
        public var id: String
        /// The row as it is now.
        public var row: Row

        /// Creates an update.
        public init(index: Int, previousIndex: Int, id: String, row: Row) {
            self.index = index
            self.previousIndex = previousIndex
            self.id = id
            self.row = row
        }
    }

    /// Why the transition happens.
    public var reason: TransitionReason
    /// The list-view flags for the reason.
    public var options: [TransitionOption]
    /// Old indices, ascending.
    public var deletes: [Delete]
    /// New indices, ascending.
    public var inserts: [Insert]
    /// New indices, ascending.
    public var updates: [Update]
    /// The number of rows in the new view.
    public var count: Int
    /// Whether the new view has more rows beyond its window.
    public var hasMore: Bool
    /// The new state's edit mode.
    public var editing: Bool
    /// The new state's open row, or nil (encoded as `null`).
    public var revealedRowId: String?

    /// Creates a transition from its parts.
    public init(
        reason: TransitionReason, options: [TransitionOption], deletes: [Delete], inserts: [Insert],
        updates: [Update], count: Int, hasMore: Bool, editing: Bool, revealedRowId: String?
    ) {
        self.reason = reason
        self.options = options
        self.deletes = deletes
        self.inserts = inserts
        self.updates = updates
        self.count = count
        self.hasMore = hasMore
        self.editing = editing
        self.revealedRowId = revealedRowId
    }

    /// Whether the transition changes no row.
    public var isEmpty: Bool { deletes.isEmpty && inserts.isEmpty && updates.isEmpty }

    /// The reason and list-view options for going from `old` parameters (nil: no `since`) to `new` ones.
    ///
    /// Mirrors Telegram's `preparedCallListNodeViewTransition`: the first load and a tab switch
    /// are synchronous low-latency reloads (the latter crossfading), other changes animate.
    public static func reason(
        from old: ViewParameters?, to new: ViewParameters, oldViewIsEmpty: Bool
    ) -> (reason: TransitionReason, options: [TransitionOption]) {
        guard let old else {
            return (.initial, [.lowLatency, .synchronous, .preferSynchronousResourceLoading])
        }
        if old.filter != new.filter {
            return (.reloadAnimated, [.lowLatency, .synchronous, .animateCrossfade, .preferSynchronousResourceLoading])
        }
        if old.limit != new.limit || old.tz != new.tz { return (.reload, []) }
        if oldViewIsEmpty { return (.interactiveChanges, [.synchronous, .preferSynchronousResourceLoading]) }
        return (.interactiveChanges, [.animateAlpha, .animateInsertion])
    }

    /// The transition from an old view (nil: none, the first load) to the new view under `state`.
    public static func make(
        from old: (view: View, parameters: ViewParameters)?, to new: View, parameters: ViewParameters,
        state: ListState
    ) throws(DiffError) -> Transition {
        let oldRows = old?.view.rows ?? []
        let (reason, options) = reason(from: old?.parameters, to: parameters, oldViewIsEmpty: oldRows.isEmpty)
        let diff = try ListDiff<String>.rows(from: oldRows, to: new.rows)
        // Rows arriving at the top of a non-empty list slide down into place, as Telegram hints
        // for new calls; every other insert has no hint.
        let hintsTop = reason == .interactiveChanges && !oldRows.isEmpty
        var topRun = 0
        var inserts: [Insert] = []
        inserts.reserveCapacity(diff.inserts.count)
        for insert in diff.inserts {
            var hint: DirectionHint?
            if hintsTop && insert.index == topRun {
                hint = .down
                topRun += 1
            }
            inserts.append(
                Insert(
                    index: insert.index, previousIndex: insert.previousIndex, id: insert.id,
                    row: new.rows[insert.index], directionHint: hint))
        }
        return Transition(
            reason: reason, options: options,
            deletes: diff.deletes,
            inserts: inserts,
            updates: diff.updates.map {
                Update(index: $0.index, previousIndex: $0.previousIndex, id: $0.id, row: new.rows[$0.index])
            },
            count: new.rows.count, hasMore: new.hasMore, editing: state.editing, revealedRowId: state.revealedRowId)
    }

    /// The diff part of the transition, keyed by row id.
    public var diff: ListDiff<String> {
        ListDiff(
            deletes: deletes,
            inserts: inserts.map { .init(index: $0.index, previousIndex: $0.previousIndex, id: $0.id) },
            updates: updates.map { .init(index: $0.index, previousIndex: $0.previousIndex, id: $0.id) })
    }

    /// Applies the transition to the old rows as a client would (deletes descending, inserts ascending, updates replace).
    public func apply(to oldRows: [Row]) -> [Row] {
        var carried: [Int: Row] = [:]
        carried.reserveCapacity(inserts.count + updates.count)
        for insert in inserts { carried[insert.index] = insert.row }
        for update in updates { carried[update.index] = update.row }
        return diff.apply(to: oldRows) { index in
            guard let row = carried[index] else { preconditionFailure("transition carries no row for index \(index)") }
            return row
        }
    }
}

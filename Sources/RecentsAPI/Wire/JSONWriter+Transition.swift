import RecentsCore
import RecentsJSON

// A transition's members (contract section 4). Replies wrap them: `list`, `from`, `to` before,
// `epoch` after, so the same bytes serve every reply that carries a transition.
extension JSONWriter {
    /// `"reason", "options", "deletes", "inserts", "updates", "count", "hasMore", "editing", "revealedRowId"`.
    public mutating func transitionMembers(_ transition: Transition) {
        key("reason")
        string(transition.reason.rawValue)
        comma()
        key("options")
        array(transition.options) { $0.string($1.rawValue) }
        comma()
        key("deletes")
        array(transition.deletes) { $0.delete($1) }
        comma()
        key("inserts")
        array(transition.inserts) { $0.insert($1) }
        comma()
        key("updates")
        array(transition.updates) { $0.update($1) }
        comma()
        key("count")
        int(transition.count)
        comma()
        key("hasMore")
        bool(transition.hasMore)
        comma()
        key("editing")
        bool(transition.editing)
        comma()
        key("revealedRowId")
        string(transition.revealedRowId)
    }

    /// `{"index": ..., "id": ...}`: a row removed at its old index.
    public mutating func delete(_ delete: Transition.Delete) {
        raw("{")
        key("index")
        int(delete.index)
        comma()
        key("id")
        string(delete.id)
        raw("}")
    }

    /// A row placed at its new index, with the direction it slides in from.
    public mutating func insert(_ insert: Transition.Insert) {
        raw("{")
        placedRow(index: insert.index, previousIndex: insert.previousIndex, id: insert.id, row: insert.row)
        comma()
        key("directionHint")
        string(insert.directionHint?.rawValue)
        raw("}")
    }

    /// A row that kept its place but changed.
    public mutating func update(_ update: Transition.Update) {
        raw("{")
        placedRow(index: update.index, previousIndex: update.previousIndex, id: update.id, row: update.row)
        raw("}")
    }
}

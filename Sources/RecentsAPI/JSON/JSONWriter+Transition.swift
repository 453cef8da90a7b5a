import RecentsCore

// A transition's members (contract section 4). Replies wrap them: `list`, `from`, `to` before,
// `epoch` after, so the same bytes serve every reply that carries a transition.
extension JSONWriter {
    /// `"reason", "options", "deletes", "inserts", "updates", "count", "hasMore", "editing", "revealedRowId"`.
    public mutating func transitionMembers(_ transition: Transition) {
        key("reason")
        string(transition.reason.rawValue)
        comma()
        key("options")
        raw("[")
        for (position, option) in transition.options.enumerated() {
            if position > 0 { comma() }
            string(option.rawValue)
        }
        raw("]")
        comma()
        key("deletes")
        raw("[")
        for (position, delete) in transition.deletes.enumerated() {
            if position > 0 { comma() }
            raw("{")
            key("index")
            int(delete.index)
            comma()
            key("id")
            string(delete.id)
            raw("}")
        }
        raw("]")
        comma()
        key("inserts")
        raw("[")
        for (position, insert) in transition.inserts.enumerated() {
            if position > 0 { comma() }
            raw("{")
            placedRow(index: insert.index, previousIndex: insert.previousIndex, id: insert.id, row: insert.row)
            comma()
            key("directionHint")
            string(insert.directionHint?.rawValue)
            raw("}")
        }
        raw("]")
        comma()
        key("updates")
        raw("[")
        for (position, update) in transition.updates.enumerated() {
            if position > 0 { comma() }
            raw("{")
            placedRow(index: update.index, previousIndex: update.previousIndex, id: update.id, row: update.row)
            raw("}")
        }
        raw("]")
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
}

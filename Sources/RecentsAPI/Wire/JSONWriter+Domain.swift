import RecentsCore
import RecentsJSON

// The wire forms of Core's values, written directly as bytes: field names and order follow the
// contract exactly, and explicit nulls are kept (`"duration": null`), which clients rely on.
// This is the only encoder of rows and transitions; Core's values are Decodable only (clients
// read them), and WireFormatTests hold these bytes to docs/openapi.json's schemas.
extension JSONWriter {
    /// `"list": ..., "epoch": ..., "version": ...`: how every list-scoped read answer begins.
    public mutating func listHeader(list: String, epoch: String, version: Int64) {
        key("list")
        string(list)
        comma()
        key("epoch")
        string(epoch)
        comma()
        key("version")
        int(version)
    }

    /// `"filter": ..., "limit": ..., "tz": ...`: which view an answer shows, as members.
    mutating func viewParameters(_ view: ViewParameters) {
        key("filter")
        string(view.filter.rawValue)
        comma()
        key("limit")
        int(view.limit)
        comma()
        key("tz")
        int(view.tz)
    }

    /// `"editing": ..., "revealedRowId": ...`: the list's UI state as members.
    public mutating func state(_ state: ListState) {
        key("editing")
        bool(state.editing)
        comma()
        key("revealedRowId")
        string(state.revealedRowId)
    }

    /// `{"id": ..., "name": ...}`.
    public mutating func peer(_ peer: Peer) {
        raw("{")
        key("id")
        string(peer.id)
        comma()
        key("name")
        string(peer.name)
        raw("}")
    }

    /// A stored call (contract section 1).
    public mutating func call(_ call: Call) {
        raw("{")
        key("id")
        string(call.id)
        comma()
        key("peer")
        peer(call.peer)
        comma()
        directionAndEndReason(call)
        comma()
        key("video")
        bool(call.video)
        comma()
        key("duration")
        int(call.duration)
        comma()
        key("timestamp")
        int(call.timestamp)
        raw("}")
    }

    /// `"direction": ..., "endReason": ...`: how a call went, as members.
    mutating func directionAndEndReason(_ call: Call) {
        key("direction")
        string(call.direction.rawValue)
        comma()
        key("endReason")
        string(call.endReason.rawValue)
    }

    /// One call of a row's info page: the call's own members but its peer (the row's), and its kind.
    mutating func infoCall(_ call: Call) {
        raw("{")
        key("id")
        string(call.id)
        comma()
        key("timestamp")
        int(call.timestamp)
        comma()
        directionAndEndReason(call)
        comma()
        key("duration")
        int(call.duration)
        comma()
        key("video")
        bool(call.video)
        comma()
        key("kind")
        string(call.kind.rawValue)
        raw("}")
    }

    /// A row (contract section 2).
    public mutating func row(_ row: Row) {
        raw("{")
        key("id")
        string(row.id)
        comma()
        key("peer")
        peer(row.peer)
        comma()
        key("count")
        int(row.count)
        comma()
        key("callIds")
        strings(row.callIds)
        comma()
        key("timestamp")
        int(row.timestamp)
        comma()
        key("missed")
        bool(row.missed)
        comma()
        key("incoming")
        bool(row.incoming)
        comma()
        key("outgoing")
        bool(row.outgoing)
        comma()
        key("video")
        bool(row.video)
        comma()
        key("duration")
        int(row.duration)
        comma()
        key("status")
        string(row.status.rawValue)
        comma()
        key("revealed")
        bool(row.revealed)
        comma()
        key("editing")
        bool(row.editing)
        comma()
        key("options")
        array(row.options) { $0.option($1) }
        raw("}")
    }

    /// `"index", "previousIndex", "id", "row"`: the members inserts and updates share.
    public mutating func placedRow(index: Int, previousIndex: Int?, id: String, row: Row) {
        key("index")
        int(index)
        comma()
        key("previousIndex")
        int(previousIndex)
        comma()
        key("id")
        string(id)
        comma()
        key("row")
        self.row(row)
    }

    /// A reveal option: `{"key": "delete", "title": "Delete", "destructive": true}`.
    public mutating func option(_ option: RowOption) {
        raw("{")
        key("key")
        string(option.key)
        comma()
        key("title")
        string(option.title)
        comma()
        key("destructive")
        bool(option.destructive)
        raw("}")
    }

    /// `{"field": ..., "message": ...}`: one broken member of a 422.
    public mutating func fieldError(_ error: FieldError) {
        raw("{")
        key("field")
        string(error.field)
        comma()
        key("message")
        string(error.message)
        raw("}")
    }

    /// An array of strings.
    ///
    /// A plain loop, not `array(_:_:)`: that generic lives in another module and runs there
    /// unspecialised, a witness call per element, which showed in the profile of a 1M-id clear.
    /// The buffer grows once, to the size the ids take unescaped (ids need no escapes).
    public mutating func strings(_ values: [String]) {
        reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { comma() }
            string(value)
        }
        raw("]")
    }
}

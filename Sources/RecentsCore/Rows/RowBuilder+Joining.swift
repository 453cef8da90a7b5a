/// Grouping read off rows instead of calls: what a client holding only rows needs when a delete
/// makes two rows neighbours (contract: rows, rule 2).
///
/// Every call of a row shares the row's four keys, so two neighbouring rows are one exactly when
/// their keys are equal, and the row they make is the upper one extended by the lower one's
/// calls. Tests/Fixtures/grouping.json proves this equal to `view(calls:state:parameters:)`,
/// and the web page's copy (`Web/actions.js`) equal to both.
extension RowBuilder {
    /// Whether `lower`, the row just below `upper`, would be one row with it: the same peer, local
    /// day, missed class and video-ness.
    @inlinable
    public static func joins(_ upper: Row, _ lower: Row, tz: Int) -> Bool {
        upper.peer.id == lower.peer.id && upper.missed == lower.missed && upper.video == lower.video
            && localDay(timestamp: upper.timestamp, tz: tz) == localDay(timestamp: lower.timestamp, tz: tz)
    }

    /// The one row `upper` and `lower` make: named, timed and shown as the upper row's newest
    /// call, with both rows' calls, directions and status, and no duration (it holds two calls or more).
    public static func joined(_ upper: Row, _ lower: Row) -> Row {
        var row = upper
        row.modify { fields in
            fields.count += lower.count
            fields.callIds += lower.callIds
            fields.incoming = fields.incoming || lower.incoming
            fields.outgoing = fields.outgoing || lower.outgoing
            fields.duration = nil
            fields.status = Row.status(missed: fields.missed, incoming: fields.incoming, outgoing: fields.outgoing)
        }
        return row
    }
}

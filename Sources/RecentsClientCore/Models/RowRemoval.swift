import RecentsCore

/// A window of rows with some of its calls deleted, worked out from the rows alone the way the
/// server will group what is left (contract: rows, rule 2; tested on Tests/Fixtures/grouping.json).
///
/// A client holds rows, not calls, so it shows only the rows it can know exactly:
/// - a row that keeps all its calls is what it was, and rows left next to each other join when
///   RowBuilder would join them (`RowBuilder.joins`, `joined`): exact, since every call of a row
///   shares the row's keys;
/// - a row that keeps only some of its calls (a delete taken in another view) is a row the server
///   will send, but no row says its newest remaining call's time, duration or the directions
///   left: it stays out of sight until the server's transition brings it, and it still keeps its
///   neighbours apart;
/// - with rows beyond the window (`hasMore`), once the window's last row is gone the row above it
///   may join rows the client does not have: it stays out of sight too.
///
/// So the screen shows rows the server will send, in its order, and never one it will not; the
/// server's transition adds what was kept out of sight, and rows from beyond the window.
struct RowRemoval {
    /// One row of the window after the removals, and whether the client knows it exactly.
    struct Entry {
        var row: Row
        var known: Bool
    }

    /// The window as the server sent it.
    let rows: [Row]
    /// Whether rows follow the window.
    let hasMore: Bool
    /// The zone the rows' days are in.
    let tz: Int
    /// The calls removed so far.
    private(set) var gone: Set<String> = []

    init(rows: [Row], hasMore: Bool, tz: Int) {
        self.rows = rows
        self.hasMore = hasMore
        self.tz = tz
    }

    /// Removes more calls; removals add up, so a row kept out of sight by one still keeps its
    /// neighbours apart for the next, as the server's own rows would.
    mutating func remove(_ ids: some Sequence<String>) {
        gone.formUnion(ids)
    }

    /// The window after the removals, the rows out of sight included.
    var entries: [Entry] {
        guard !gone.isEmpty else { return rows.map { Entry(row: $0, known: true) } }
        var entries: [Entry] = []
        for row in rows {
            let left = row.callIds.filter { !gone.contains($0) }
            guard let newest = left.first else { continue }
            var entry = Entry(row: row, known: left.count == row.callIds.count)
            if !entry.known {
                entry.row.id = newest
                entry.row.callIds = left
                entry.row.count = left.count
                entry.row.duration = nil
            }
            if let above = entries.last, RowBuilder.joins(above.row, entry.row, tz: tz) {
                entries[entries.count - 1] = Entry(
                    row: RowBuilder.joined(above.row, entry.row), known: above.known && entry.known)
            } else {
                entries.append(entry)
            }
        }
        if hasMore, let last = rows.last, last.callIds.allSatisfy(gone.contains), !entries.isEmpty {
            entries[entries.count - 1].known = false
        }
        return entries
    }

    /// The rows a screen shows: those it knows exactly.
    var shown: [Row] {
        gone.isEmpty ? rows : entries.filter(\.known).map(\.row)
    }
}

import RecentsCore
import SystemSupport

/// The text rules of a row as the web page shows it (Web/format.js), reproduced so the server can
/// put the first rows into `/` exactly as the page would draw them (docs/CLIENTS.md, "Markup of
/// the first rows"). Tested against Tests/Fixtures/rows-markup.json, which the page's own code
/// writes.
enum RowText {
    /// Classes `avatar-0` ... `avatar-6` (Telegram's seven colours).
    static let avatarColours: UInt32 = 7
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// Up to two initials: the first code points of the first and the last word, upper-cased
    /// (full mapping, `ß` → `SS`); `?` for a name with no word. Words split as JavaScript's `\s`.
    static func initials(_ name: String) -> String {
        let words = name.unicodeScalars.split(whereSeparator: isJavaScriptSpace)
        guard let first = words.first?.first else { return "?" }
        var letters = String(Character(first))
        if words.count > 1, let last = words.last?.first { letters.append(Character(last)) }
        return letters.uppercased()
    }

    /// JavaScript's `\s` (and what `trim` removes): Unicode White_Space without U+0085, plus U+FEFF.
    static func isJavaScriptSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// A stable colour for a peer: FNV-1a (32-bit) over the id's UTF-16 code units, modulo 7.
    static func avatarColour(_ peerId: String) -> UInt32 {
        var hash: UInt32 = 0x811c_9dc5
        for unit in peerId.utf16 {
            hash ^= UInt32(unit)
            hash = hash &* 0x0100_0193
        }
        return hash % avatarColours
    }

    /// The peer's name, with ` (N)` when the row groups N > 1 calls.
    static func displayName(_ row: Row) -> String {
        row.count > 1 ? "\(row.peer.name) (\(row.count))" : row.peer.name
    }

    /// `Missed`, `Outgoing` or `Incoming` (a mixed row is named by its newest call's direction).
    static func status(_ row: Row) -> String {
        if row.missed { return "Missed" }
        switch row.status {
        case .outgoing: return "Outgoing"
        case .incoming: return "Incoming"
        case .missed, .mixed: return row.outgoing && !row.incoming ? "Outgoing" : "Incoming"
        }
    }

    /// The time at a row's right in the zone `tz` (minutes east of UTC) at `now`: today `HH:mm`,
    /// yesterday `Yesterday`, two to six days ago the weekday, else `dd.MM.yy`.
    static func time(_ timestamp: Int64, tz: Int, now: Int64) -> String {
        let offset = Int64(tz) * 60
        let days = localDay(now + offset) - localDay(timestamp + offset)
        let local = CalendarTime(utc: timestamp + offset)
        switch days {
        case 0: return two(local.hour) + ":" + two(local.minute)
        case 1: return "Yesterday"
        case 2...6: return weekdays[local.weekday]
        default: return two(local.day) + "." + two(local.month) + "." + two(local.year % 100)
        }
    }

    /// The row read as one phrase, its accessible label.
    static func label(_ row: Row, tz: Int, now: Int64) -> String {
        let kind = row.video ? "video call" : "call"
        return "\(displayName(row)), \(status(row).lowercased()) \(kind), \(time(row.timestamp, tz: tz, now: now))"
    }

    private static func localDay(_ seconds: Int64) -> Int64 {
        seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

import RecentsCore
import RecentsJSON

/// The HTML of the first rows that `/` carries, byte for byte what the page's Web/row-markup.js
/// writes for them, so the page adopts them without redrawing (the contract: docs/CLIENTS.md,
/// "Markup of the first rows"; the fixture both sides are tested on: Tests/Fixtures/rows-markup.json).
enum RowMarkup {
    /// `<ul id="rows">` with the view's rows in it, in the zone `tz` at Unix time `now`.
    static func list(_ rows: [Row], editing: Bool, tz: Int, now: Int64, buttonWidth: Double) -> String {
        var html = "<ul id=\"rows\" class=\"rows\(editing ? " editing" : "")\" aria-label=\"Calls\">"
        for row in rows { html += self.row(row, tz: tz, now: now, buttonWidth: buttonWidth) }
        return html + "</ul>"
    }

    /// One row's `<li>`.
    static func row(_ row: Row, tz: Int, now: Int64, buttonWidth: Double) -> String {
        let name = escaped(RowText.displayName(row))
        let title = escaped(row.options.last?.title ?? "Delete")
        let time = escaped(RowText.time(row.timestamp, tz: tz, now: now))
        let offset = row.revealed ? number(-(buttonWidth * Double(max(1, row.options.count)))) : "0"
        var html =
            "<li class=\"row\(row.revealed ? " revealed" : "")\" data-id=\"\(escaped(row.id))\" data-offset=\"\(offset)\">"
        html += "<div class=\"row-actions\"\(row.revealed ? "" : " inert")>"
        html += "<button type=\"button\" class=\"row-delete\" tabindex=\"\(row.revealed ? 0 : -1)\" "
        html += "aria-label=\"\(title) \(name)\">\(title)</button></div>"
        html +=
            "<div class=\"row-content\" tabindex=\"0\" role=\"group\" aria-label=\"\(escaped(RowText.label(row, tz: tz, now: now)))\">"
        html +=
            "<button type=\"button\" class=\"row-minus\" tabindex=\"\(row.editing ? 0 : -1)\" aria-label=\"Show \(title) for \(name)\">"
        html += "<span aria-hidden=\"true\"></span></button>"
        html += "<span class=\"avatar avatar-\(RowText.avatarColour(row.peer.id))\" aria-hidden=\"true\">"
        html += escaped(RowText.initials(row.peer.name)) + "</span>"
        html += "<span class=\"row-text\"><span class=\"row-name\(row.missed ? " missed" : "")\">\(name)</span>"
        html += "<span class=\"row-status\"><span class=\"glyph\(row.video ? " video" : "")\" "
        html += "data-kind=\"\(row.video ? "video" : "phone")\" aria-hidden=\"true\"></span>"
        html += "<span class=\"row-status-text\">\(escaped(RowText.status(row)))</span></span></span>"
        html += "<time class=\"row-time\">\(time)</time>"
        html += "<button type=\"button\" class=\"row-info\" aria-label=\"Call info\">"
        html += "<span aria-hidden=\"true\"></span></button>"
        html += "</div></li>"
        return html
    }

    /// Text or an attribute value with `&`, `<`, `>` and `"` escaped, and nothing else.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return text }
        // By scalar, not by Character: a quote followed by a combining mark is one Character.
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// A number as JavaScript prints it (`-74`, `-74.5`).
    private static func number(_ value: Double) -> String {
        var json = JSONWriter(capacity: 16)
        json.double(value)
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

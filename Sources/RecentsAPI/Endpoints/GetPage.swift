import RecentsCore
import RecentsJSON
import SystemSupport

/// `GET /` (and `/?list=NAME`): the web client's page, with the list's first view inside it when
/// the list can be read without a token, so a cold page shows rows after one round trip for the
/// page (issue 22): the view's data in `#recents-initial` (the rules, the view, its initial
/// transition) and its rows already written in the page's own markup (`RowMarkup`). The page
/// adopts them and follows from that version. With auth on, the page is served as it is: the
/// token lives in the page's fragment, which the server never sees.
enum GetPage {
    /// The view the page starts on.
    static let limit = ViewParameters.defaultLimit

    static func make(_ service: Service) -> Endpoint? {
        guard let page = EmbeddedWeb.page else { return nil }
        let template = PageTemplate(page: String(decoding: page.bytes, as: UTF8.self), files: EmbeddedWeb.hashed)
        let plain = EncodedBody(template.plain)
        let rules = String(decoding: GetRules.render(rule: .telegram, options: RowOption.rowOptions), as: UTF8.self)
        let headers = [
            ("Content-Security-Policy", template.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
            // Revalidated on every load: it carries the list's current rows.
            ("Cache-Control", "no-cache"),
        ]
        return Endpoint(.GET, "/") { exchange throws(APIError) in
            let list = exchange.query.items.first { $0.name == "list" }?.value ?? "demo"
            guard service.verifier == nil, Identifier.isValidListName(list) else {
                return exchange.send(plain, contentType: "text/html; charset=utf-8", headers: headers)
            }
            let view = ViewParameters(filter: .all, limit: limit, tz: timeZone(exchange))
            let query = TransitionQuery(list: list, since: nil, from: view, to: view)
            let epoch = service.epoch
            service.live.reads.transition(query) { result in
                guard case .success(let answer) = result else {
                    // The page still loads; it fetches its view when it runs.
                    return exchange.send(plain, contentType: "text/html; charset=utf-8", headers: headers)
                }
                let transition = ResponseBodies.transition(list: list, from: nil, answer: answer, epoch: epoch)
                let initial = initialView(list: list, rules: rules, view: view, transition: transition)
                let rows = RowMarkup.list(
                    answer.transition.inserts.map(\.row), editing: answer.transition.editing, tz: view.tz,
                    now: SystemClock.wallSeconds(), buttonWidth: GestureRule.telegram.buttonWidth)
                exchange.send(
                    EncodedBody(template.render(initial: initial, list: rows)), contentType: "text/html; charset=utf-8",
                    headers: headers)
            }
        }
    }

    /// The viewer's zone: the `recents-tz` cookie the page sets (minutes east of UTC), else UTC.
    static func timeZone(_ exchange: Exchange) -> Int {
        for field in exchange.request.headers.values(for: "Cookie") {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingSpaces == "recents-tz", let tz = Int(parts[1].trimmingSpaces),
                    ViewParameters.tzRange.contains(tz)
                else { continue }
                return tz
            }
        }
        return 0
    }

    /// `{"list", "rules", "view", "transition"}` with every `<` written `\u003c`, so nothing in it
    /// can end the `<script>` element it sits in.
    static func initialView(list: String, rules: String, view: ViewParameters, transition: [UInt8]) -> String {
        var json = JSONWriter(capacity: transition.count + rules.utf8.count + 128)
        json.raw("{")
        json.key("list")
        json.string(list)
        json.comma()
        json.key("rules")
        json.raw(bytes: Array(rules.utf8))
        json.comma()
        json.key("view")
        json.raw("{")
        json.viewParameters(view)
        json.raw("},")
        json.key("transition")
        json.raw(bytes: transition)
        json.raw("}")
        var text = ""
        text.reserveCapacity(json.bytes.count + 32)
        for scalar in String(decoding: json.bytes, as: UTF8.self).unicodeScalars {
            if scalar == "<" { text += "\\u003c" } else { text.unicodeScalars.append(scalar) }
        }
        return text
    }
}

import RecentsCore
import RecentsCrypto
import RecentsJSON

/// `GET /v1/rules`: what a client needs to decide a swipe's release on its own, within a frame of
/// the input, exactly as the server's `Gesture.decide` will (the gesture rule's numbers and the
/// options a row has), and the window's sizes a client grows its view within. Fixed for the life of the binary, so it is built once, with a strong ETag,
/// and cacheable; open without a token, like the page that needs it first.
enum GetRules {
    static func make(_ service: Service) -> Endpoint {
        let rules = render(rule: .telegram, options: RowOption.rowOptions)
        let body = EncodedBody(rules, etag: "\"rules-\(SHA256.hex(rules).prefix(16))\"")
        return Endpoint(.GET, "/v1/rules") { exchange throws(APIError) in
            exchange.send(
                body, contentType: "application/json; charset=utf-8",
                headers: [("Cache-Control", "public, max-age=300")])
        }
    }

    /// `{"gesture": {...}, "rowOptions": [...], "rows": {"defaultLimit", "maxLimit"}}`.
    static func render(rule: GestureRule, options: [RowOption]) -> [UInt8] {
        var json = JSONWriter()
        json.raw("{")
        json.key("gesture")
        json.raw("{")
        json.key("buttonWidth")
        json.double(rule.buttonWidth)
        json.comma()
        json.key("slowVelocity")
        json.double(rule.slowVelocity)
        json.comma()
        json.key("buttonMarginMaxOptions")
        json.int(rule.buttonMarginMaxOptions)
        json.comma()
        json.key("fullSwipeMargin")
        json.double(rule.fullSwipeMargin)
        json.raw("},")
        json.key("rowOptions")
        json.array(options) { $0.option($1) }
        json.comma()
        // Published so a client that grows its window on scroll stops where the server would
        // refuse (400) rather than keep its own copy of the number.
        json.key("rows")
        json.raw("{")
        json.key("defaultLimit")
        json.int(ViewParameters.defaultLimit)
        json.comma()
        json.key("maxLimit")
        json.int(ViewParameters.limitRange.upperBound)
        json.raw("}}")
        return json.bytes
    }
}

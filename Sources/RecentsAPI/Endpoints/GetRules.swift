import HTTPServer
import RecentsCore
import RecentsCrypto
import RecentsJSON

/// `GET /v1/rules`: what a client needs to decide a swipe's release on its own, within a frame of
/// the input, exactly as the server's `Gesture.decide` will (the gesture rule's numbers and the
/// options a row has). Fixed for the life of the binary, so it is built once, with a strong ETag,
/// and cacheable; open without a token, like the page that needs it first.
enum GetRules {
    static func make(_ service: Service) -> Endpoint {
        let body = render(rule: .telegram, options: RowOption.rowOptions)
        let etag = "\"rules-\(SHA256.hex(body).prefix(16))\""
        return Endpoint(.GET, "/v1/rules") { exchange throws(APIError) in
            var response: HTTPResponse
            if let condition = exchange.request.headers["If-None-Match"], EntityTag.matches(condition, etag: etag) {
                response = HTTPResponse(status: 304)
            } else {
                response = HTTPResponse(status: 200, body: body)
                response.headers.add("Content-Type", "application/json; charset=utf-8")
            }
            response.headers.add("ETag", etag)
            response.headers.add("Cache-Control", "public, max-age=300")
            exchange.send(response)
        }
    }

    /// `{"gesture": {...}, "rowOptions": [...]}`.
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
        json.raw("}")
        return json.bytes
    }
}

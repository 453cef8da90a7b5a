import HTTPServer
import RecentsCompression

extension Exchange {
    /// Sends `body` in the coding the client prefers (made at most once per body and coding),
    /// with its own strong ETag when the body has one, 304 when `If-None-Match` names that tag,
    /// and `Vary: Accept-Encoding` when the coding could have been another. `made` hears how many
    /// bytes a new coded copy added (the view cache charges them).
    func send(
        _ body: EncodedBody, status: Int = 200, contentType: String, headers: [(String, String)] = [],
        made: (Int) -> Void = { _ in }
    ) {
        let settings = pipeline.compression
        guard let coding = AnswerCoding.choose(for: request, size: body.identity.count, settings: settings) else {
            return fail(AnswerCoding.unacceptable)
        }
        var response = HTTPResponse(status: status)
        if AnswerCoding.varies(size: body.identity.count, settings: settings) {
            // Both tokens as one literal when auth checked the read: joining them on every
            // cached answer was a fifth of what checking a token costs.
            response.headers.add(
                "Vary", context.variesOnAuthorization ? "Accept-Encoding, Authorization" : "Accept-Encoding")
        }
        let etag = body.etag(in: coding)
        // `add`, not `set`: the response is new, and holds no field of these names yet.
        if let etag {
            response.headers.add("ETag", etag)
            if status == 200, let condition = request.headers["If-None-Match"], EntityTag.matches(condition, etag: etag)
            {
                response.status = 304
                for (name, value) in headers where name != "Content-Type" { response.headers.set(name, value) }
                return send(response)
            }
        }
        let coded = body.bytes(in: coding, settings: settings)
        if coded.made > 0 { made(coded.made) }
        response.body = coded.bytes
        response.headers.add("Content-Type", contentType)
        if coding != .identity { response.headers.add("Content-Encoding", coding.name) }
        for (name, value) in headers { response.headers.set(name, value) }
        send(response)
    }

    /// Sends a JSON body, compressed when the client accepts it and the body is worth it.
    func json(_ status: Int, _ body: [UInt8], headers: [(String, String)] = []) {
        send(EncodedBody(body), status: status, contentType: "application/json; charset=utf-8", headers: headers)
    }

    /// Sends a JSON body shared by many answers (a cached view, a long-poll group's), coded once
    /// per coding; `made` hears of a new coded copy's size. Not escaping: the cached read's
    /// closure then lives on the stack, where an escaping one was allocated for every answer.
    func json(_ status: Int, _ body: EncodedBody, made: (Int) -> Void = { _ in }) {
        send(body, status: status, contentType: "application/json; charset=utf-8", made: made)
    }
}

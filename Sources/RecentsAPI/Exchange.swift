import HTTPServer
import RecentsCore
import SystemSupport

/// One request being answered: the request, its responder and what /metrics and CORS need,
/// so every handler answers through the same few functions.
struct Exchange: Sendable {
    let request: HTTPRequest
    let responder: HTTPResponder
    /// The route pattern, the label of /metrics.
    let route: String
    let metrics: APIMetrics
    let corsOrigin: String?

    /// The decoded `{list}` path parameter, when it is a valid list name (else the route answers 404).
    var list: String? {
        guard let name = request.pathParameters["list"], Identifier.isValidListName(name) else { return nil }
        return name
    }

    /// A decoded id path parameter (`callId`, `rowId`), when it is in the id alphabet.
    func id(_ name: String) -> String? {
        guard let id = request.pathParameters[name], Identifier.isValidId(id) else { return nil }
        return id
    }

    /// The query parameters as the API reads them.
    var query: QueryParameters {
        let request = request
        return QueryParameters(lookup: { request.queryValue($0) })
    }

    /// Sends `response`, adding CORS headers and counting it.
    func send(_ response: HTTPResponse) {
        var response = response
        for (name, value) in Self.corsHeaders(origin: corsOrigin) { response.headers.set(name, value) }
        let elapsed = request.receivedAt.duration(to: .now)
        metrics.record(
            method: request.method.rawValue, route: route, status: response.status, seconds: elapsed.inSeconds)
        responder.respond(response)
    }

    /// The CORS headers of every answer when an origin is configured (none otherwise).
    static func corsHeaders(origin: String?) -> [(name: String, value: String)] {
        guard let origin else { return [] }
        var headers = [
            (name: "Access-Control-Allow-Origin", value: origin),
            (name: "Access-Control-Expose-Headers", value: "ETag, X-Request-Id, Retry-After, Allow"),
        ]
        if origin != "*" { headers.append((name: "Vary", value: "Origin")) }
        return headers
    }

    /// Sends a JSON body.
    func json(_ status: Int, _ body: [UInt8], headers: [(String, String)] = []) {
        var response = HTTPResponse.json(status, body)
        response.headers.set("Content-Type", "application/json; charset=utf-8")
        for (name, value) in headers { response.headers.set(name, value) }
        send(response)
    }

    /// Sends a problem+json answer.
    func fail(_ error: APIError) {
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/problem+json")
        for (name, value) in error.headers { headers.set(name, value) }
        send(HTTPResponse(status: error.status, headers: headers, body: error.body))
    }

    /// Sends the answer for any error: an `APIError` as itself, anything else as a logged 500.
    func fail(_ error: any Error, logger: Logger) {
        if let error = error as? APIError {
            fail(error)
            return
        }
        logger.error(
            "request failed", [("request_id", request.requestId), ("route", route), ("error", "\(error)")])
        fail(APIError.internal())
    }

    /// The request body as JSON, or nil when there is none and `required` is false.
    ///
    /// - Throws: 415 when a body is not `application/json`, 400 `invalid-json` when it does not parse.
    func jsonBody(required: Bool) throws(APIError) -> JSONValue? {
        let body = request.body
        // No body at all: nothing to type-check; it is either allowed or "empty" (400).
        if body.isEmpty {
            if required { throw .invalidJSON("the body is empty; send a JSON object") }
            return nil
        }
        let contentType = request.headers["Content-Type"]
        guard let contentType, Self.isJSON(contentType) else {
            throw .unsupportedMediaType(
                "the body must be sent with Content-Type: application/json, not \(contentType ?? "none")")
        }
        do {
            return try JSONParser.parse(body)
        } catch {
            throw .invalidJSON(error.description)
        }
    }

    /// The request body as JSON, for endpoints that need one.
    ///
    /// - Throws: 400 `invalid-json` when there is no body or it does not parse, 415 when it is not JSON-typed.
    func requiredJSONBody() throws(APIError) -> JSONValue {
        guard let body = try jsonBody(required: true) else {
            throw .invalidJSON("the body is empty; send a JSON object")
        }
        return body
    }

    /// `application/json`, with or without parameters such as `charset=utf-8`, in any case.
    static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingSpaces.lowercased() == "application/json"
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}

import RecentsCore
import RecentsJSON

// What endpoints parse from a request before anything is queued for the store.
extension Exchange {
    /// The decoded `index`-th `{…}` segment of the route's pattern ("" when there is none).
    func parameter(_ index: Int) -> String {
        let positions = route.parameterPositions
        guard positions.indices.contains(index), request.pathSegments.indices.contains(positions[index]) else {
            return ""
        }
        return request.pathSegments[positions[index]]
    }

    /// The `{list}` parameter (the first of every `/v1/lists/…` route).
    /// - Throws: 404 with `detail` when it is not a valid list name.
    func list(or detail: String = "no such list") throws(APIError) -> String {
        let name = parameter(0)
        guard Identifier.isValidListName(name) else { throw .notFound(detail) }
        return name
    }

    /// An id parameter (`{callId}`, `{rowId}`).
    /// - Throws: 404 with `detail` when it is not in the id alphabet.
    func id(_ index: Int, or detail: String) throws(APIError) -> String {
        let id = parameter(index)
        guard Identifier.isValidId(id) else { throw .notFound(detail) }
        return id
    }

    /// The query parameters as the API reads them.
    var query: QueryParameters { QueryParameters(items: request.query) }

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

    /// A required body holding exactly one boolean member (`revealed`, `editing`).
    func flag(_ name: String) throws(APIError) -> Bool {
        var reader = JSONObjectReader(try requiredJSONBody(), path: "")
        let flag = reader.bool(name, required: true)
        reader.finish()
        guard reader.errors.isEmpty, let flag else { throw .validationFailed(reader.errors) }
        return flag
    }

    /// The optional `{"scope": "me"|"everyone"}` body of deletions; no body means `me`.
    func deleteScope() throws(APIError) -> DeleteScope {
        guard let value = try jsonBody(required: false) else { return .me }
        var reader = JSONObjectReader(value, path: "")
        let scope: DeleteScope? = reader.enumeration("scope", required: false)
        reader.finish()
        guard reader.errors.isEmpty else { throw .validationFailed(reader.errors) }
        return scope ?? .me
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

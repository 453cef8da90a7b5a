import HTTPServer
import RecentsCompression
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
    /// - Throws: 415 when a body is not `application/json` or comes in a coding this server does
    ///   not read, 413 when it inflates past the body limit, 400 `invalid-json` when it does not parse.
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
        let decoded = try decodedBody()
        do {
            return try JSONParser.parse(decoded)
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

    /// The body with its `Content-Encoding` undone (gzip, br, or both stacked), inflated to at
    /// most `--max-body-bytes`: a bomb costs that much work and memory, then 413.
    ///
    /// - Throws: 415 (with `Accept-Encoding` naming what is read) for an unknown coding, 413 past
    ///   the limit, 400 `invalid-json` for a body that does not inflate.
    func decodedBody() throws(APIError) -> [UInt8] {
        let field = request.headers["Content-Encoding"]
        guard let field else { return request.body }
        let codings: ContentEncodings
        do {
            codings = try ContentEncodings(parsing: field)
        } catch {
            var refusal = APIError.unsupportedMediaType(
                "this server reads request bodies in \(ContentEncodings.accepted) (or none); \(error)")
            // RFC 9110 §12.5.3: a 415 for a content coding lists the codings that are read.
            refusal.headers.append(("Accept-Encoding", ContentEncodings.accepted))
            throw refusal
        }
        if codings.isIdentity { return request.body }
        let limit = pipeline.maxBodyBytes
        do {
            return try codings.decode(request.body, limit: limit)
        } catch .tooLarge {
            throw APIError.httpLayer(
                status: 413, detail: "the body inflates to more than \(limit) bytes (--max-body-bytes)")
        } catch {
            throw .invalidJSON("the body is not valid \(field): \(error)")
        }
    }

    /// `application/json`, with or without parameters such as `charset=utf-8`, in any case.
    ///
    /// Compared byte by byte: split, trimmed by Character and lowercased, it was ~4% of an event
    /// loop's CPU per POST (perf).
    static func isJSON(_ contentType: String) -> Bool {
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            var media = bytes[..<(bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex)]
            while let first = media.first, first == 0x20 || first == 0x09 { media = media.dropFirst() }
            while let last = media.last, last == 0x20 || last == 0x09 { media = media.dropLast() }
            let json: StaticString = "application/json"
            return json.withUTF8Buffer { HTTPHeaders.equalsIgnoringCase(UnsafeBufferPointer(rebasing: media), $0) }
        }
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

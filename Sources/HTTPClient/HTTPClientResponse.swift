/// One HTTP/1.1 answer as a client sees it: status, header fields in order, the de-framed body.
public struct HTTPClientResponse: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The reason phrase, e.g. `OK` (may be empty).
    public var reason: String
    /// The header fields as received.
    public var headers: HTTPClientHeaders
    /// The body, de-chunked; empty for HEAD, 1xx, 204 and 304 answers.
    public var body: [UInt8]

    /// Creates an answer (the parser does; tests may too).
    public init(status: Int, reason: String = "", headers: HTTPClientHeaders = HTTPClientHeaders(), body: [UInt8] = [])
    {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text (invalid bytes replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The value of the field `name` (case-insensitive); repeated fields are joined with ", ".
    public func header(_ name: String) -> String? { headers[name] }
}

/// Header fields in the order received, looked up case-insensitively (RFC 9110 §5.1).
public struct HTTPClientHeaders: Sendable, Sequence {
    /// Every field as sent, names in their original case.
    public var fields: [(name: String, value: String)]

    /// Creates a field list.
    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// The value of `name`, or nil when absent; a repeated field's values joined with ", " (RFC 9110 §5.3).
    public subscript(_ name: String) -> String? {
        let wanted = name.lowercased()
        let values = fields.filter { $0.name.lowercased() == wanted }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}

/// Why an exchange failed before a complete answer arrived, as one sentence.
public struct HTTPClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, e.g. `cannot connect to 127.0.0.1:8080: Connection refused`.
    public let description: String

    /// An error reading `description`.
    public init(description: String) {
        self.description = description
    }
}

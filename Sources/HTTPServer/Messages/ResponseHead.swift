import SystemSupport

/// Serialises response heads into one reused buffer, with the `Date` value formatted once a second.
struct ResponseHead {
    /// How the body that follows the head is delimited (RFC 9112 §6).
    enum Framing {
        /// `Content-Length: n`.
        case length(Int)
        /// `Transfer-Encoding: chunked` (a stream on HTTP/1.1).
        case chunked
        /// No length: a body-less status (1xx, 204, 304 without a body), or the connection's close ends it.
        case none
    }

    /// The last head written.
    private(set) var bytes: [UInt8] = []
    private var date: [UInt8] = []
    private var dateSecond: Int64 = -1

    init() { bytes.reserveCapacity(512) }

    /// Reformats the `Date` value when the wall-clock second changed.
    mutating func refreshDate(wallSeconds: Int64) {
        if wallSeconds == dateSecond { return }
        dateSecond = wallSeconds
        date = Array(HTTPDate.imfFixdate(wallSeconds).utf8)
    }

    /// Replaces `bytes` with the head of `response`.
    mutating func write(
        _ response: HTTPResponse, requestId: String, framing: Framing, keepAlive: Bool, versionMinor: Int
    ) {
        let status = response.status
        bytes.removeAll(keepingCapacity: true)
        append("HTTP/1.1 ")
        appendDecimal(status, to: &bytes)
        bytes.append(0x20)
        bytes.append(contentsOf: HTTPResponse.reasonPhrase(status).utf8)
        append("\r\nDate: ")
        bytes.append(contentsOf: date)
        append("\r\nServer: recents\r\n")
        switch framing {
        case .length(let count):
            append("Content-Length: ")
            appendDecimal(count, to: &bytes)
            append("\r\n")
        case .chunked:
            append("Transfer-Encoding: chunked\r\n")
        case .none:
            break
        }
        append("X-Request-Id: ")
        bytes.append(contentsOf: requestId.utf8)
        append("\r\n")
        for field in response.headers {
            if Self.isServerOwned(field.name) { continue }
            bytes.append(contentsOf: field.name.utf8)
            append(": ")
            for c in field.value.utf8 where c != 0x0D && c != 0x0A { bytes.append(c) }
            append("\r\n")
        }
        if !keepAlive {
            append("Connection: close\r\n")
        } else if versionMinor == 0 {
            // RFC 9112 §9.3: an HTTP/1.0 client only keeps the connection if told so.
            append("Connection: keep-alive\r\n")
        }
        append("\r\n")
    }

    /// The framing of a complete response: RFC 9110 §8.6, no Content-Length on 1xx/204, and on
    /// 304 only if it describes the selected representation.
    static func framing(of response: HTTPResponse) -> Framing {
        let status = response.status
        if status == 204 || (100..<200).contains(status) || (status == 304 && response.body.isEmpty) { return .none }
        return .length(response.body.count)
    }

    /// Whether the response to this request carries no body bytes on the wire (RFC 9110 §6.4.1).
    static func hasNoBody(status: Int, isHead: Bool) -> Bool {
        isHead || status == 204 || status == 304 || (100..<200).contains(status)
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Fields the server writes itself; a handler's copies are dropped.
    private static func isServerOwned(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: return HTTPHeaders.equalsIgnoringCase(name, "Date")
        case 6: return HTTPHeaders.equalsIgnoringCase(name, "Server")
        case 10: return HTTPHeaders.equalsIgnoringCase(name, "Connection")
        case 12: return HTTPHeaders.equalsIgnoringCase(name, "X-Request-Id")
        case 14: return HTTPHeaders.equalsIgnoringCase(name, "Content-Length")
        case 17: return HTTPHeaders.equalsIgnoringCase(name, "Transfer-Encoding")
        default: return false
        }
    }
}

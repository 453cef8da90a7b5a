import Glibc
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
    ///
    /// The head is measured first and copied in with `memcpy`s into one array of that size: it is
    /// written for every answer, and appending it piece by piece (a byte at a time for values) cost
    /// more instructions than the rest of a cached read's answer (callgrind, issue 42).
    mutating func write(
        _ response: HTTPResponse, requestId: String, framing: Framing, keepAlive: Bool, versionMinor: Int
    ) {
        let status = response.status
        let reason = HTTPResponse.reasonPhrase(status)
        let fields = response.headers.fields
        var capacity = Self.fixedBound + reason.utf8.count + date.count + requestId.utf8.count
        for field in fields { capacity += field.name.utf8.count + field.value.utf8.count + 4 }
        bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            // Never nil: the capacity asked for is above zero.
            guard let base = buffer.baseAddress else { return }
            var out = HeadBuffer(base: base, capacity: buffer.count)
            out.put("HTTP/1.1 ")
            out.putDecimal(status)
            out.put(" ")
            out.put(reason)
            out.put("\r\nDate: ")
            date.withUnsafeBufferPointer { out.put($0) }
            out.put("\r\nServer: recents\r\n")
            switch framing {
            case .length(let length):
                out.put("Content-Length: ")
                out.putDecimal(length)
                out.put("\r\n")
            case .chunked:
                out.put("Transfer-Encoding: chunked\r\n")
            case .none:
                break
            }
            out.put("X-Request-Id: ")
            out.put(requestId)
            out.put("\r\n")
            for field in fields {
                field.name.withUTF8Bytes { name in
                    if Self.isServerOwned(name) { return }
                    out.put(name)
                    out.put(": ")
                    field.value.withUTF8Bytes { out.putValue($0) }
                    out.put("\r\n")
                }
            }
            if !keepAlive {
                out.put("Connection: close\r\n")
            } else if versionMinor == 0 {
                // RFC 9112 §9.3: an HTTP/1.0 client only keeps the connection if told so.
                out.put("Connection: keep-alive\r\n")
            }
            out.put("\r\n")
            count = out.count
        }
    }

    /// The most bytes a head takes beyond its reason phrase, date, request id and handler's fields
    /// (4 bytes of `": "` and CRLF each, counted with them): the fixed text and two decimals.
    private static let fixedBound = 128 + 2 * 20

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

    /// Fields the server writes itself; a handler's copies are dropped.
    private static func isServerOwned(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let owned: StaticString
        switch name.count {
        case 4: owned = "date"
        case 6: owned = "server"
        case 10: owned = "connection"
        case 12: owned = "x-request-id"
        case 14: owned = "content-length"
        case 17: owned = "transfer-encoding"
        default: return false
        }
        for i in 0..<name.count where HTTPHeaders.lower(name[i]) != owned.utf8Start[i] { return false }
        return true
    }
}

/// The head's bytes as they are written into an array's uninitialized storage.
private struct HeadBuffer {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var count = 0

    @inline(__always) mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(count + bytes.count <= capacity, "response head larger than measured")
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always) mutating func put(_ text: StaticString) {
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func put(_ text: String) {
        text.withUTF8Bytes { put($0) }
    }

    /// A field value without CR or LF (a handler's value cannot split the head).
    mutating func putValue(_ value: UnsafeBufferPointer<UInt8>) {
        guard let start = value.baseAddress,
            memchr(start, 0x0D, value.count) != nil || memchr(start, 0x0A, value.count) != nil
        else { return put(value) }
        for c in value where c != 0x0D && c != 0x0A {
            precondition(count < capacity, "response head larger than measured")
            base[count] = c
            count += 1
        }
    }

    mutating func putDecimal(_ value: Int) {
        if value < 0 { put("-") }
        var magnitude = value.magnitude
        var digits = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        precondition(count + digits <= capacity, "response head larger than measured")
        var position = count + digits
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count += digits
    }
}

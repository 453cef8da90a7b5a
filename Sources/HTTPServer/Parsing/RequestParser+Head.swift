import Glibc

// Head parsing (RFC 9112 §2–§6): the request line, the fields and the body's framing.
extension RequestParser {
    /// Returns the index just past the blank line ending the head, scanning LFs from `from`.
    static func findHeadEnd(_ buf: UnsafeBufferPointer<UInt8>, from: Int, start: Int) -> Int? {
        guard let base = buf.baseAddress else { return nil }
        var i = from
        let end = buf.count
        while i < end {
            guard let p = memchr(base + i, 0x0A, end - i) else { return nil }
            let lf = UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self) - base
            // A blank line: LF preceded by LF, or by CR preceded by LF.
            if lf > start {
                let prev = buf[lf - 1]
                if prev == 0x0A { return lf + 1 }
                if prev == 0x0D && lf - 1 > start && buf[lf - 2] == 0x0A { return lf + 1 }
            }
            i = lf + 1
        }
        return nil
    }

    struct HeadError: Error {
        var status: Int
        var detail: String
        init(_ status: Int, _ detail: String) {
            self.status = status
            self.detail = detail
        }
    }

    enum Framing {
        case none
        case length(Int)
        case chunked
    }

    /// Parses a complete head (request line + fields + blank line).
    static func parseHead(_ buf: UnsafeBufferPointer<UInt8>, limits: Limits) -> Result<Head, HeadError> {
        // The lines are found with memchr as they are read, not gathered into an array first: the
        // array was an allocation per request (callgrind, issue 42). `buf` ends with the blank line.
        guard let base = buf.baseAddress else { return .failure(HeadError(400, "empty request")) }
        /// The line starting at `start` (its CR LF or LF dropped) and where the next one starts.
        func line(at start: Int) -> (range: Range<Int>, next: Int)? {
            guard start < buf.count, let found = memchr(base + start, 0x0A, buf.count - start) else { return nil }
            let lf = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            return (start..<(lf > start && buf[lf - 1] == 0x0D ? lf - 1 : lf), lf + 1)
        }
        guard let (requestLine, afterRequestLine) = line(at: 0), !requestLine.isEmpty else {
            return .failure(HeadError(400, "empty request"))
        }

        // Request line (RFC 9112 §3): method SP request-target SP HTTP-version.
        let rl = UnsafeBufferPointer(rebasing: buf[requestLine])
        guard let sp1 = rl.firstIndex(of: 0x20), sp1 > 0 else {
            return .failure(HeadError(400, "malformed request line"))
        }
        guard let sp2 = rl[(sp1 + 1)...].firstIndex(of: 0x20), sp2 > sp1 + 1 else {
            if rl.count > limits.maxURIBytes { return .failure(HeadError(414, "URI too long")) }
            return .failure(HeadError(400, "malformed request line"))
        }
        let methodBytes = UnsafeBufferPointer(rebasing: rl[0..<sp1])
        for c in methodBytes where !isTokenChar(c) { return .failure(HeadError(400, "invalid method")) }
        let targetBytes = UnsafeBufferPointer(rebasing: rl[(sp1 + 1)..<sp2])
        if targetBytes.count > limits.maxURIBytes { return .failure(HeadError(414, "URI too long")) }
        for c in targetBytes where c <= 0x20 || c >= 0x7F {
            return .failure(HeadError(400, "invalid character in request target"))
        }
        let versionBytes = UnsafeBufferPointer(rebasing: rl[(sp2 + 1)...])
        let versionMinor: Int
        if versionBytes.count == 8 && startsExactly(versionBytes, "HTTP/1.")
            && versionBytes[7] >= 0x30 && versionBytes[7] <= 0x39
        {
            versionMinor = Int(versionBytes[7] - 0x30)
        } else if versionBytes.count == 8 && startsExactly(versionBytes, "HTTP/")
            && versionBytes[6] == 0x2E
            && (0x30...0x39).contains(versionBytes[5]) && (0x30...0x39).contains(versionBytes[7])
        {
            return .failure(HeadError(505, "HTTP version not supported"))
        } else {
            return .failure(HeadError(400, "malformed HTTP version"))
        }
        let first = targetBytes[0]
        let isOrigin = first == 0x2F
        let isAsterisk = targetBytes.count == 1 && first == 0x2A
        let isAbsolute = !isOrigin && targetBytes.count > 3 && Self.containsSchemeSeparator(targetBytes)
        guard isOrigin || isAsterisk || isAbsolute else {
            return .failure(HeadError(400, "unsupported request-target form"))
        }

        // Fields (RFC 9112 §5), kept as one copy of their lines (see `ReceivedFields`).
        let fieldsStart = afterRequestLine
        var fieldsEnd = fieldsStart
        var fieldCount = 0
        var probe = fieldsStart
        while let (range, next) = line(at: probe) {
            if !range.isEmpty { fieldCount += 1 }
            probe = next
        }
        var spans: [ReceivedFields.Span] = []
        spans.reserveCapacity(fieldCount)
        var contentLength: Int?
        var contentLengthCount = 0
        // The codings of every Transfer-Encoding field, counted, and whether all were "chunked".
        var transferCodings = 0
        var onlyChunked = true
        var connectionClose = false
        var connectionKeepAlive = false
        var expectContinue = false
        var hostField: String?
        var hostCount = 0
        var next = fieldsStart
        while let (range, after) = line(at: next) {
            next = after
            // Only the last line is blank: the head ends at the first blank line.
            if range.isEmpty { continue }
            fieldsEnd = range.upperBound
            let line = UnsafeBufferPointer(rebasing: buf[range])
            if line[0] == 0x20 || line[0] == 0x09 {
                // RFC 9112 §5.2: obsolete line folding may be rejected with 400.
                return .failure(HeadError(400, "obsolete line folding"))
            }
            guard let colon = line.firstIndex(of: 0x3A), colon > 0 else {
                return .failure(HeadError(400, "malformed header field"))
            }
            for c in line[0..<colon] where !isTokenChar(c) {
                // RFC 9112 §5.1: no whitespace is allowed between the field name and colon.
                return .failure(HeadError(400, "invalid header field name"))
            }
            var vs = colon + 1
            var ve = line.count
            while vs < ve && (line[vs] == 0x20 || line[vs] == 0x09) { vs += 1 }
            while ve > vs && (line[ve - 1] == 0x20 || line[ve - 1] == 0x09) { ve -= 1 }
            let nameBuf = UnsafeBufferPointer(rebasing: line[0..<colon])
            let valueBuf = UnsafeBufferPointer(rebasing: line[vs..<ve])
            let scan = scanFieldValue(valueBuf)
            if scan.control { return .failure(HeadError(400, "control character in header field")) }
            if scan.highBit && String(validating: valueBuf, as: UTF8.self) == nil {
                return .failure(HeadError(400, "invalid UTF-8 in header field"))
            }
            if equalsLower(nameBuf, "content-length") {
                contentLengthCount += 1
                // RFC 9112 §6.3: duplicate or invalid Content-Length is unrecoverable; reject to avoid smuggling.
                guard contentLengthCount == 1, let n = parseDecimal(valueBuf) else {
                    return .failure(HeadError(400, "invalid or duplicate Content-Length"))
                }
                contentLength = n
            } else if equalsLower(nameBuf, "transfer-encoding") {
                forEachListElement(valueBuf) { element in
                    transferCodings += 1
                    if !equalsLower(element, "chunked") { onlyChunked = false }
                }
            } else if equalsLower(nameBuf, "connection") {
                forEachListElement(valueBuf) { element in
                    if equalsLower(element, "close") { connectionClose = true }
                    if equalsLower(element, "keep-alive") { connectionKeepAlive = true }
                }
            } else if equalsLower(nameBuf, "host") {
                // RFC 9112 §3.2: more than one Host (or a list in one) is answered with 400, since
                // two parties reading different hosts is how cache poisoning starts.
                hostCount += 1
                guard hostCount == 1, !valueBuf.contains(0x2C) else {
                    return .failure(HeadError(400, "more than one Host header field"))
                }
                hostField = String(decoding: valueBuf, as: UTF8.self)
            } else if equalsLower(nameBuf, "expect") {
                // RFC 9110 §10.1.1: a server ignores 100-continue from an HTTP/1.0 client.
                if versionMinor >= 1 && equalsLower(valueBuf, "100-continue") { expectContinue = true }
            }
            let offset = range.lowerBound - fieldsStart
            spans.append(.init(name: offset..<offset + colon, value: offset + vs..<offset + ve))
        }

        // RFC 9112 §3.2: an HTTP/1.1 request without Host MUST be answered with 400.
        if versionMinor >= 1 && hostField == nil {
            return .failure(HeadError(400, "missing Host header field"))
        }

        let framing: Framing
        if transferCodings > 0 {
            // RFC 9112 §6.1: both framings at once, or anything but a final "chunked", is a smuggling vector.
            guard contentLength == nil else {
                return .failure(HeadError(400, "both Content-Length and Transfer-Encoding"))
            }
            guard transferCodings == 1, onlyChunked, versionMinor >= 1 else {
                return .failure(HeadError(400, "unsupported Transfer-Encoding"))
            }
            framing = .chunked
        } else if let n = contentLength {
            framing = .length(n)
        } else {
            framing = .none
        }

        let parsed: RequestTarget
        switch RequestTarget.parse(targetBytes) {
        case .success(let target): parsed = target
        case .failure(.path): return .failure(HeadError(400, "invalid percent-encoding in path"))
        case .failure(.query): return .failure(HeadError(400, "invalid percent-encoding in query"))
        }
        let request = HTTPRequest(
            method: HTTPMethod.intern(methodBytes), target: String(decoding: targetBytes, as: UTF8.self),
            parsed: parsed,
            headers: HTTPHeaders(
                received: ReceivedFields(bytes: Array(buf[fieldsStart..<fieldsEnd]), spans: spans)),
            versionMinor: versionMinor,
            host: parsed.authority ?? hostField ?? "")
        // RFC 9112 §9.3: HTTP/1.1 persists unless "close"; HTTP/1.0 only with "keep-alive".
        let keepAlive = versionMinor >= 1 ? !connectionClose : (connectionKeepAlive && !connectionClose)
        return .success(Head(request: request, keepAlive: keepAlive, expectContinue: expectContinue, framing: framing))
    }

    /// Whether `value` holds a control character other than HTAB (RFC 9110 §5.5 allows neither
    /// CTLs nor DEL in a field value), and whether it holds any byte of 0x80 or above (then UTF-8
    /// is checked). Eight bytes at a time, a word with none of those bytes passed in a few
    /// instructions: values (a bearer token, a cookie, a user agent) are most of a head's bytes.
    static func scanFieldValue(_ value: UnsafeBufferPointer<UInt8>) -> (control: Bool, highBit: Bool) {
        guard let base = value.baseAddress else { return (false, false) }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var highBit = false
        var i = 0
        // Some byte is below 0x20 when `(w - 0x20…) & ~w & 0x80…` is non-zero, equal to 0x7F when
        // that test for zero is non-zero on `w ^ 0x7F…`, and 0x80 or above when `w & 0x80…` is.
        // A flagged word (a tab, a high byte, a real CTL) and the last few bytes go one byte at a time.
        while i < value.count {
            if i + 8 <= value.count {
                let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let del = w ^ (ones &* 0x7F)
                if ((w &- ones &* 0x20) & ~w | (del &- ones) & ~del | w) & highs == 0 {
                    i += 8
                    continue
                }
            }
            let c = base[i]
            if (c < 0x20 && c != 0x09) || c == 0x7F { return (true, highBit) }
            if c >= 0x80 { highBit = true }
            i += 1
        }
        return (false, highBit)
    }

    static func containsSchemeSeparator(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i + 2 < b.count {
            if b[i] == 0x3A && b[i + 1] == 0x2F && b[i + 2] == 0x2F { return i > 0 }
            i += 1
        }
        return false
    }

    /// Whether `b` starts with `literal`, byte for byte (the HTTP-name is case-sensitive, RFC 9112 §2.3).
    static func startsExactly(_ b: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard let base = b.baseAddress, b.count >= literal.utf8CodeUnitCount else { return false }
        return memcmp(base, literal.utf8Start, literal.utf8CodeUnitCount) == 0
    }

    /// Compares with a lowercase ASCII literal, ignoring case.
    static func equalsLower(_ b: UnsafeBufferPointer<UInt8>, _ lower: StaticString) -> Bool {
        guard b.count == lower.utf8CodeUnitCount else { return false }
        let l = lower.utf8Start
        for i in 0..<b.count where HTTPHeaders.lower(b[i]) != l[i] { return false }
        return true
    }

    /// Calls `body` with each non-empty element of a comma-separated field value (RFC 9110 §5.6.1),
    /// spaces and tabs around it trimmed.
    static func forEachListElement(_ b: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        var i = 0
        while i <= b.count {
            if i == b.count || b[i] == 0x2C {
                var s = start
                var e = i
                while s < e && (b[s] == 0x20 || b[s] == 0x09) { s += 1 }
                while e > s && (b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
                if e > s { body(UnsafeBufferPointer(rebasing: b[s..<e])) }
                start = i + 1
            }
            i += 1
        }
    }

    /// Parses 1*DIGIT without overflow; nil otherwise.
    static func parseDecimal(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !b.isEmpty, b.count <= 18 else { return nil }
        var n = 0
        for c in b {
            guard c >= 0x30 && c <= 0x39 else { return nil }
            n = n * 10 + Int(c - 0x30)
        }
        return n
    }
}

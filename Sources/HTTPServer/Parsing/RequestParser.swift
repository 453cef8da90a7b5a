import Glibc

/// An incremental HTTP/1.1 request parser (RFC 9112), fed with whatever chunks the socket returns.
///
/// It buffers only unconsumed bytes, remembers how far it has scanned for the end of the head (so
/// byte-at-a-time clients cost O(n), not O(n²)), and decides body limits from the framing before
/// buffering a body.
struct RequestParser {
    /// Size limits; exceeding them yields the matching status.
    struct Limits: Sendable {
        // The defaults are the server configuration's, stated once there.
        private static let defaults = HTTPServerConfiguration()
        var maxHeadBytes = Limits.defaults.maxHeadBytes
        var maxURIBytes = Limits.defaults.maxURIBytes
        var maxBodyBytes = Limits.defaults.maxBodyBytes
    }

    /// What `next()` found.
    enum Event {
        /// A complete request; `keepAlive` is the connection's persistence per RFC 9112 §9.3.
        case request(HTTPRequest, keepAlive: Bool)
        /// The head of a request whose body follows (its `body` still empty): nothing of the body
        /// is read until `admitBody()`, so the head can be refused first.
        case head(HTTPRequest)
        /// More bytes are needed.
        case needMore
        /// The request is invalid; answer `status` and close the connection.
        case error(status: Int, detail: String)
    }

    private enum State {
        case head
        /// A head was returned; its body waits for `admitBody()`.
        case awaitingAdmission(Framing)
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case failed(status: Int, detail: String)
    }

    /// A parsed head waiting for its body.
    struct Head {
        var request: HTTPRequest
        var keepAlive: Bool
        var expectContinue: Bool
        var framing: Framing
    }

    let limits: Limits
    private(set) var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var state = State.head
    private var head: Head?
    private var body: [UInt8] = []
    private var continueOffered = false
    private var trailerBytes = 0
    /// The current head's request line is known to be complete (caches a scan).
    private var requestLineSeen = false

    init(limits: Limits) { self.limits = limits }

    /// Bytes received but not yet consumed by a complete request.
    var bufferedCount: Int { buffer.count - start }

    /// Whether a request is partially received (head bytes or a body in progress).
    var isMidRequest: Bool {
        if case .head = state { return bufferedCount > 0 }
        return true
    }

    /// Whether part of a request head has been received.
    var isInHead: Bool {
        if case .head = state { return bufferedCount > 0 }
        return false
    }

    /// Whether a body is being received (its head was admitted).
    var isInBody: Bool {
        switch state {
        case .fixedBody, .chunkSize, .chunkData, .chunkDataEnd, .trailers: return true
        default: return false
        }
    }

    /// The body bytes the request in progress holds or will hold by what it announced: the whole
    /// `Content-Length` (its capacity is reserved at once), or the chunks so far and the rest of
    /// the current one. 0 outside a body.
    var bodyCommitment: Int {
        switch state {
        case .fixedBody(let remaining), .chunkData(let remaining): return body.count + remaining
        case .chunkSize, .chunkDataEnd, .trailers: return body.count
        default: return 0
        }
    }

    /// `bodyCommitment`, and `isIdle` below, for the event loop, which keeps the parser in a class
    /// (`Connection.parser`): read through a getter there, the whole parser was copied first (its
    /// buffer, head and body retained and released, three times a request: callgrind, issue 42);
    /// a mutating call reads it in place. Neither changes anything.
    mutating func bodyCommitmentInPlace() -> Int { bodyCommitment }

    /// `isIdle`, read in place (see `bodyCommitmentInPlace()`).
    mutating func isIdleInPlace() -> Bool { isIdle }

    /// Lets the body of the head `next()` returned be read.
    mutating func admitBody() {
        guard case .awaitingAdmission(let framing) = state else { return }
        switch framing {
        case .length(let n):
            body.reserveCapacity(n)
            state = .fixedBody(remaining: n)
        case .chunked, .none:
            state = .chunkSize
        }
    }

    /// Whether no request is in progress and nothing is buffered (the connection is idle).
    var isIdle: Bool {
        if case .head = state { return bufferedCount == 0 }
        return false
    }

    /// Appends received bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            scanned = 0
            start = 0
        } else if start > 4096 && start > buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes.bindMemory(to: UInt8.self))
    }

    /// Appends received bytes (tests).
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Drops buffer capacity when nothing is buffered, so idle connections hold little memory.
    mutating func releaseMemoryIfIdle() {
        if isIdle && buffer.capacity > 0 {
            buffer = []
            start = 0
            scanned = 0
        }
    }

    /// Returns true once per request when the client asked for `100-continue` and awaits it (RFC 9110 §10.1.1).
    mutating func takeContinueRequest() -> Bool {
        guard let head, head.expectContinue, !continueOffered, bufferedCount == 0, body.isEmpty else {
            return false
        }
        switch state {
        case .fixedBody, .chunkSize:
            continueOffered = true
            return true
        default:
            return false
        }
    }

    /// Parses as far as the buffered bytes allow.
    mutating func next() -> Event {
        while true {
            switch state {
            case .failed(let status, let detail):
                return .error(status: status, detail: detail)
            case .head:
                switch parseHeadStep() {
                case .some(let event): return event
                case .none: continue
                }
            case .awaitingAdmission:
                // Nothing is read past a head until it is admitted; a refused one closes the connection.
                return .needMore
            case .fixedBody(let remaining):
                let take = min(remaining, bufferedCount)
                if take > 0 {
                    body.append(contentsOf: buffer[start..<start + take])
                    start += take
                }
                if take == remaining { return finishRequest() }
                state = .fixedBody(remaining: remaining - take)
                return .needMore
            case .chunkSize:
                guard let line = takeLine(maxLength: 4096) else { return lineFailureOrMore(maxLength: 4096) }
                guard let size = Self.parseChunkSize(line) else { return fail(400, "invalid chunk size") }
                if size == 0 {
                    state = .trailers
                    trailerBytes = 0
                    continue
                }
                if size > limits.maxBodyBytes - body.count { return fail(413, "request body exceeds the limit") }
                state = .chunkData(remaining: size)
            case .chunkData(let remaining):
                let take = min(remaining, bufferedCount)
                if take > 0 {
                    body.append(contentsOf: buffer[start..<start + take])
                    start += take
                }
                if take < remaining {
                    state = .chunkData(remaining: remaining - take)
                    return .needMore
                }
                state = .chunkDataEnd
            case .chunkDataEnd:
                guard let line = takeLine(maxLength: 2) else { return lineFailureOrMore(maxLength: 2) }
                guard line.isEmpty else { return fail(400, "chunk data not followed by CRLF") }
                state = .chunkSize
            case .trailers:
                // RFC 9112 §7.1.2: trailer fields are read and discarded; they are not merged into headers.
                guard let line = takeLine(maxLength: limits.maxHeadBytes) else {
                    return lineFailureOrMore(maxLength: limits.maxHeadBytes)
                }
                trailerBytes += line.count + 2
                if trailerBytes > limits.maxHeadBytes { return fail(431, "trailer section too large") }
                if line.isEmpty { return finishRequest() }
                if !Self.isValidFieldLine(line) { return fail(400, "invalid trailer field") }
            }
        }
    }

    private mutating func fail(_ status: Int, _ detail: String) -> Event {
        state = .failed(status: status, detail: detail)
        return .error(status: status, detail: detail)
    }

    private mutating func finishRequest() -> Event {
        guard var h = head else { return fail(500, "parser state lost") }
        h.request.body = body
        body = []
        head = nil
        state = .head
        continueOffered = false
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        }
        scanned = start
        return .request(h.request, keepAlive: h.keepAlive)
    }

    /// Takes one line (without CRLF or LF) if complete.
    private mutating func takeLine(maxLength: Int) -> [UInt8]? {
        let end = buffer.count
        var i = start
        while i < end {
            if buffer[i] == 0x0A {
                var lineEnd = i
                if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = Array(buffer[start..<lineEnd])
                start = i + 1
                return line
            }
            if i - start > maxLength + 1 { return nil }
            i += 1
        }
        return nil
    }

    private mutating func lineFailureOrMore(maxLength: Int) -> Event {
        if bufferedCount > maxLength + 2 {
            if case .trailers = state { return fail(431, "trailer section too large") }
            return fail(400, "malformed chunked framing")
        }
        return .needMore
    }

    /// Parses `hex [BWS] [; ext]` (RFC 9112 §7.1, §7.1.1); nil when malformed or absurdly large.
    static func parseChunkSize(_ line: [UInt8]) -> Int? {
        var size = 0
        var digits = 0
        var i = 0
        while i < line.count, let v = RequestTarget.hexValue(line[i]) {
            if digits >= 15 { return nil }
            size = size << 4 | Int(v)
            digits += 1
            i += 1
        }
        if digits == 0 { return nil }
        while i < line.count && (line[i] == 0x20 || line[i] == 0x09) { i += 1 }
        if i == line.count { return size }
        guard line[i] == 0x3B else { return nil }
        for c in line[i...] where (c < 0x20 && c != 0x09) || c == 0x7F { return nil }
        return size
    }

    static func isValidFieldLine(_ line: [UInt8]) -> Bool {
        guard let colon = line.firstIndex(of: 0x3A), colon > 0 else { return false }
        for c in line[..<colon] where !isTokenChar(c) { return false }
        for c in line[(colon + 1)...] where (c < 0x20 && c != 0x09) || c == 0x7F { return false }
        return true
    }

    @inline(__always) static func isTokenChar(_ c: UInt8) -> Bool {
        // tchar (RFC 9110 §5.6.2): ALPHA / DIGIT / "!#$%&'*+-.^_`|~"
        switch c {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }

    /// One step of head parsing; nil means "state changed, keep going".
    private mutating func parseHeadStep() -> Event? {
        // RFC 9112 §2.2: ignore empty lines received before the request line.
        while start < buffer.count && (buffer[start] == 0x0D || buffer[start] == 0x0A) { start += 1 }
        if scanned < start { scanned = start }
        let found: Int? = buffer.withUnsafeBufferPointer { buf in
            Self.findHeadEnd(buf, from: scanned, start: start)
        }
        guard let headEnd = found else {
            scanned = max(start, buffer.count - 1)
            let pending = buffer.count - start
            // Only look for the end of the request line once the limits are at stake, so a
            // byte-at-a-time client does not cost a rescan per byte.
            if pending > limits.maxHeadBytes || pending > limits.maxURIBytes + 32 {
                if !requestLineSeen { requestLineSeen = buffer[start...].contains(0x0A) }
                if !requestLineSeen { return fail(414, "URI too long") }
                if pending > limits.maxHeadBytes { return fail(431, "request head too large") }
            }
            return .needMore
        }
        let result: Result<Head, HeadError> = buffer.withUnsafeBufferPointer { buf in
            Self.parseHead(UnsafeBufferPointer(rebasing: buf[start..<headEnd]), limits: limits)
        }
        requestLineSeen = false
        let headLength = headEnd - start
        start = headEnd
        scanned = start
        switch result {
        case .failure(let e):
            return fail(e.status, e.detail)
        case .success(let h):
            if headLength > limits.maxHeadBytes { return fail(431, "request head too large") }
            head = h
            body = []
            switch h.framing {
            case .none:
                return finishRequest()
            case .length(let n):
                if n > limits.maxBodyBytes { return fail(413, "request body exceeds the limit") }
                if n == 0 { return finishRequest() }
            case .chunked:
                break
            }
            state = .awaitingAdmission(h.framing)
            return .head(h.request)
        }
    }
}

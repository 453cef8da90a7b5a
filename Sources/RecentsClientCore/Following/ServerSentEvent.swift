/// One event of a `text/event-stream`, as the WHATWG HTML "Server-sent events" section frames it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field, `message` when absent.
    public var type: String
    /// The `data:` lines joined with line feeds.
    public var data: String
    /// The last `id:` seen on the stream (it persists across events), or nil.
    public var lastEventId: String?

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventId: String? = nil) {
        self.type = type
        self.data = data
        self.lastEventId = lastEventId
    }
}

/// An incremental `text/event-stream` parser: feed it bytes as they arrive, take whole events out.
///
/// Lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the next
/// are one line end); a line starting with `:` is a comment (the server's keep-alive); `field:
/// value` drops one space after the colon; an empty line dispatches the event, unless it has no
/// data. Memory is bounded: a line longer than `maximumLineBytes` or an event's data longer than
/// `maximumEventBytes` is an error, since a stream that never ends a line would otherwise grow
/// the buffer without bound.
public struct ServerSentEventParser: Sendable {
    /// The stream broke a size limit.
    public struct TooLarge: Error, Sendable, Hashable {}

    /// The longest line accepted.
    public var maximumLineBytes: Int
    /// The longest event data accepted.
    public var maximumEventBytes: Int
    private var line: [UInt8] = []
    private var afterCR = false
    private var data: [UInt8] = []
    private var hasData = false
    private var type = ""
    private var lastEventId: String?

    /// Creates a parser with limits (16 MiB by default: a full 1000-row transition fits many times).
    public init(maximumLineBytes: Int = 16 << 20, maximumEventBytes: Int = 16 << 20) {
        self.maximumLineBytes = maximumLineBytes
        self.maximumEventBytes = maximumEventBytes
    }

    /// Consumes bytes and returns the events they complete.
    /// - Throws: `TooLarge` when a line or an event exceeds its limit.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(TooLarge) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D, 0x0A:
                afterCR = byte == 0x0D
                if let event = try endLine() { events.append(event) }
            default:
                guard line.count < maximumLineBytes else { throw TooLarge() }
                line.append(byte)
            }
        }
        return events
    }

    /// Interprets the buffered line; an empty one dispatches.
    private mutating func endLine() throws(TooLarge) -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = String(decoding: line[..<colon], as: UTF8.self)
        var valueStart = colon < line.endIndex ? colon + 1 : colon
        if valueStart < line.endIndex && line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = line[valueStart...]
        switch field {
        case "data":
            guard data.count + value.count < maximumEventBytes else { throw TooLarge() }
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        case "event":
            type = String(decoding: value, as: UTF8.self)
        case "id" where !value.contains(0):
            lastEventId = String(decoding: value, as: UTF8.self)
        default:
            break  // `retry` and unknown fields: the client has its own backoff.
        }
        return nil
    }

    /// The event gathered since the last blank line, if it has data; resets the event buffers.
    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            type = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            type: type.isEmpty ? "message" : type, data: String(decoding: data, as: UTF8.self),
            lastEventId: lastEventId)
    }
}

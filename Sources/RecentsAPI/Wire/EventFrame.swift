import RecentsJSON
import SystemSupport

/// The bytes of the event stream (the WHATWG HTML "server-sent events" format): fields end in LF,
/// an event ends in a blank line, and a line starting with `:` is a comment clients ignore.
enum EventFrame {
    /// The heartbeat: a comment, so proxies see traffic and clients see nothing.
    static let keepAlive = Array(": keep-alive\n\n".utf8)

    /// A transition event. `body` is one line of JSON (the writer escapes every CR and LF).
    static func transition(epoch: String, version: Int64, body: [UInt8]) -> [UInt8] {
        var bytes = Array(
            "id: \(EventsRequest.eventId(epoch: epoch, version: version))\nevent: transition\ndata: ".utf8)
        bytes.reserveCapacity(bytes.count + body.count + 2)
        bytes.append(contentsOf: body)
        bytes.append(contentsOf: [0x0A, 0x0A])
        return bytes
    }

    /// The reconnection time a client waits before it opens the stream again (SSE's `retry:`),
    /// a field of the event it precedes.
    static func retry(milliseconds: Int64) -> [UInt8] {
        var bytes = Array("retry: ".utf8)
        appendDecimal(milliseconds, to: &bytes)
        bytes.append(0x0A)
        return bytes
    }

    /// The last event of a stream whose client must reload: its version can no longer be answered.
    static func resync(currentVersion: Int64) -> [UInt8] {
        var json = JSONWriter(capacity: 32)
        json.raw("{")
        json.key("currentVersion")
        json.int(currentVersion)
        json.raw("}")
        return Array("event: resync\ndata: ".utf8) + json.bytes + [0x0A, 0x0A]
    }

    /// The last event of a stream whose bearer token expired: the client needs a fresh token
    /// before it reconnects (the Access control issue: a stream never outlives its token).
    static let tokenExpired = Array(
        "event: unauthorized\ndata: {\"type\":\"unauthorized\",\"detail\":\"The bearer token has expired.\"}\n\n".utf8)
}

import RecentsAPI

extension DemoHistory {
    /// `{"calls": [...]}`, the body of one batch post.
    static func json(_ calls: ArraySlice<DemoCall>) -> [UInt8] {
        var writer = JSONWriter(capacity: 160 * calls.count + 16)
        writer.raw("{")
        writer.key("calls")
        writer.raw("[")
        for (position, call) in calls.enumerated() {
            if position > 0 { writer.comma() }
            call.write(to: &writer)
        }
        writer.raw("]}")
        return writer.bytes
    }
}

extension DemoCall {
    /// The call as `POST /v1/lists/{list}/calls` reads it.
    func write(to writer: inout JSONWriter) {
        writer.raw("{")
        Self.members([("id", id), ("direction", direction), ("endReason", endReason)], to: &writer)
        writer.raw(",\"peer\":{")
        Self.members([("id", peer.id), ("name", peer.name)], to: &writer)
        writer.raw("},\"video\":")
        writer.bool(video)
        for (key, number) in [("duration", duration), ("timestamp", timestamp)] as [(StaticString, Int)] {
            writer.comma()
            writer.key(key)
            writer.int(number)
        }
        writer.raw("}")
    }

    /// String members, comma-separated.
    private static func members(_ members: [(StaticString, String)], to writer: inout JSONWriter) {
        for (position, (key, value)) in members.enumerated() {
            if position > 0 { writer.comma() }
            writer.key(key)
            writer.string(value)
        }
    }
}

import RecentsCore
import RecentsJSON

/// `POST /v1/lists/{list}/rows/{rowId}/gesture`: the server decides how a swipe ends, with
/// Telegram's thresholds (`Gesture.decide`), and applies it as a reveal or a close.
enum ReleaseSwipe {
    static func make(_ service: Service) -> Endpoint {
        service.writes.endpoint(
            Command(
                .POST, "/v1/lists/{list}/rows/{rowId}/gesture",
                parse: { exchange throws(APIError) in
                    try ItemRequest(exchange, or: "no such row", body: try gesture(try exchange.requiredJSONBody()))
                },
                run: { row, tx in
                    let info = try tx.listInfo(row.list)
                    guard try tx.call(row.id, in: row.list) != nil else {
                        throw APIError.notFound("no row '\(row.id)' in list '\(row.list)'")
                    }
                    let decision = row.body.decide(optionCount: RowOption.rowOptions.count)
                    let change = info.state.revealing(rowId: row.id, revealed: decision.outcome == .open)
                    if change.changed { try tx.setState(change.state, of: row.list) }
                    return Versioned(value: decision, versionBefore: info.version)
                },
                members: reply))
    }

    /// Reads the release of a pan.
    static func gesture(_ value: JSONValue) throws(APIError) -> Gesture {
        var reader = JSONObjectReader(value, path: "")
        let initialOffset = reader.number("initialOffset", required: true)
        let offset = reader.number("offset", required: true)
        let velocity = reader.number("velocity", required: true)
        let buttonWidth = reader.number("buttonWidth", required: false)
        reader.finish()
        guard reader.errors.isEmpty, let initialOffset, let offset, let velocity else {
            throw .validationFailed(reader.errors)
        }
        let gesture = Gesture(
            initialOffset: initialOffset, offset: offset, velocity: velocity,
            buttonWidth: buttonWidth ?? Gesture.defaultButtonWidth)
        let rules = gesture.validationErrors()
        if !rules.isEmpty { throw .validationFailed(rules) }
        return gesture
    }

    /// The decision, and the option a full swipe selected (`null` when none did).
    @Sendable private static func reply(_ decision: GestureDecision, _ json: inout JSONWriter) {
        json.key("outcome")
        json.string(decision.outcome.rawValue)
        json.comma()
        json.key("option")
        if let index = decision.selectedOptionIndex, RowOption.rowOptions.indices.contains(index) {
            json.option(RowOption.rowOptions[index])
        } else {
            json.raw("null")
        }
        json.comma()
        json.key("offset")
        json.double(decision.offset)
    }
}

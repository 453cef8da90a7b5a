import RecentsCore

/// Reads and checks query parameters; anything not an integer or out of range is 400 `bad-request`
/// (contract section 4), so a client learns of a typo instead of getting a default silently.
struct QueryParameters {
    /// The decoded parameters in request order.
    let items: [(name: String, value: String)]

    /// The value of `name` (the first occurrence wins).
    private func lookup(_ name: String) -> String? {
        for item in items where item.name == name { return item.value }
        return nil
    }

    /// The integer `name`, nil when absent. One outside `range` (also one beyond 64 bits) is "out of
    /// range" with `range`, or with `shown` when the documented range differs (`wait` clamps).
    private func integer(_ name: String, in range: ClosedRange<Int64>, shown: String? = nil) throws(APIError)
        -> Int64?
    {
        guard let text = lookup(name) else { return nil }
        let value = Int64(text)
        if let value, range.contains(value) { return value }
        guard value != nil || Self.isIntegerText(text) else {
            throw .badRequest("query parameter '\(name)' must be an integer, got '\(Self.excerpt(text))'")
        }
        throw .badRequest(
            "query parameter '\(name)' is out of range: must be from \(shown ?? "\(range.lowerBound) to \(range.upperBound)"), "
                + "got \(Self.excerpt(text))")
    }

    private func filter(_ name: String) throws(APIError) -> CallFilter? {
        guard let text = lookup(name) else { return nil }
        guard let filter = CallFilter(rawValue: text) else {
            throw .badRequest("query parameter '\(name)' must be 'all' or 'missed', got '\(Self.excerpt(text))'")
        }
        return filter
    }

    /// The view named by `filter`, `limit` and `tz` (defaults: `ViewParameters.default`).
    func view() throws(APIError) -> ViewParameters {
        let limits = ViewParameters.limitRange
        let zones = ViewParameters.tzRange
        return ViewParameters(
            filter: try filter("filter") ?? ViewParameters.default.filter,
            limit: try integer("limit", in: Int64(limits.lowerBound)...Int64(limits.upperBound)).map { Int($0) }
                ?? ViewParameters.default.limit,
            tz: try integer("tz", in: Int64(zones.lowerBound)...Int64(zones.upperBound)).map { Int($0) }
                ?? ViewParameters.default.tz)
    }

    /// The view the client shows (`fromFilter`, `fromLimit`, `fromTz`), each defaulting to `current`'s.
    func fromView(defaultingTo current: ViewParameters) throws(APIError) -> ViewParameters {
        let limits = ViewParameters.limitRange
        let zones = ViewParameters.tzRange
        return ViewParameters(
            filter: try filter("fromFilter") ?? current.filter,
            limit: Int(
                try integer("fromLimit", in: Int64(limits.lowerBound)...Int64(limits.upperBound))
                    ?? Int64(current.limit)),
            tz: Int(try integer("fromTz", in: Int64(zones.lowerBound)...Int64(zones.upperBound)) ?? Int64(current.tz)))
    }

    /// The client's version (`since`), if any.
    func since() throws(APIError) -> Int64? {
        try integer("since", in: 0...Int64.max)
    }

    /// Seconds to hold an empty transition (`wait`, 0 by default, clamped to `maximum`). Any
    /// non-negative integer is accepted, also one too large for 64 bits: the contract says large
    /// waits are clamped, not refused.
    func wait(maximum: Int) throws(APIError) -> Int {
        guard let text = lookup("wait") else { return 0 }
        let significant = text.utf8.drop(while: { $0 == 0x30 })
        if significant.count > 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { return maximum }
        guard
            let value = try integer(
                "wait", in: 0...Int64.max, shown: "0 to \(maximum) (a larger wait is held \(maximum) s)")
        else { return 0 }
        return Int(min(value, Int64(maximum)))
    }

    /// Whether the client asks for the transitions that leave its view as it was too
    /// (`includeEmpty=true`; `false` or absent: not), so it learns every version of the list.
    func includeEmpty() throws(APIError) -> Bool {
        switch lookup("includeEmpty") {
        case nil, "false": return false
        case "true": return true
        case let text?:
            throw .badRequest("query parameter 'includeEmpty' must be 'true' or 'false', got '\(Self.excerpt(text))'")
        }
    }

    /// The epoch the client's version belongs to, if given; an empty `epoch=` counts as absent
    /// (no epoch is empty, so it can only mean "none").
    func epoch() -> String? {
        guard let epoch = lookup("epoch"), !epoch.isEmpty else { return nil }
        return epoch
    }

    /// Whether `text` is an integer, whatever its size: an optional sign, then decimal digits.
    private static func isIntegerText(_ text: String) -> Bool {
        let bytes = text.utf8
        let digits =
            bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? bytes.dropFirst() : bytes[...]
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// A parameter value shortened for an error message.
    private static func excerpt(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}

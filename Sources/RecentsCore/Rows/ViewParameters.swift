/// Which calls take part in a view.
public enum CallFilter: String, Codable, Sendable, Hashable, CaseIterable {
    /// Every call.
    case all
    /// Only missed calls (incoming and unanswered).
    case missed
}

/// The query that defines a view of a list: filter, window size and the viewer's time zone.
public struct ViewParameters: Codable, Sendable, Hashable {
    /// Which calls take part.
    public var filter: CallFilter
    /// Rows in the window, `ViewParameters.limitRange`.
    public var limit: Int
    /// The viewer's UTC offset in minutes, `ViewParameters.tzRange`.
    public var tz: Int

    /// Allowed window sizes.
    public static let limitRange: ClosedRange<Int> = 1...1000
    /// Allowed UTC offsets in minutes (UTC-14:00 to UTC+14:00).
    public static let tzRange: ClosedRange<Int> = -840...840
    /// The window a request that names none gets (the contract's default).
    public static let defaultLimit = 50
    /// The defaults of the contract: all calls, 50 rows, UTC.
    public static let `default` = ViewParameters(filter: .all, limit: defaultLimit, tz: 0)

    /// Creates parameters; callers validate against the ranges first (see `isValid`).
    public init(filter: CallFilter = .all, limit: Int = ViewParameters.defaultLimit, tz: Int = 0) {
        self.filter = filter
        self.limit = limit
        self.tz = tz
    }

    /// Whether `limit` and `tz` are inside their ranges.
    public var isValid: Bool { Self.limitRange.contains(limit) && Self.tzRange.contains(tz) }

    /// Whether a call takes part in views with these parameters.
    @inlinable
    public func includes(_ call: Call) -> Bool { filter == .all || call.isMissed }
}

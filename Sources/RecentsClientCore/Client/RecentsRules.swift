import RecentsCore

/// The rules a client applies on its own so an action shows within a frame, as `GET /v1/rules`
/// publishes them: the numbers of a swipe's release and the options every row reveals.
///
/// The server decides a release with the same `Gesture.decide(optionCount:rule:)`, so the row
/// settles where the client put it and the server's transition confirms it without moving it again.
public struct RecentsRules: Codable, Sendable, Hashable {
    /// The numbers `Gesture.decide` reads.
    public var gesture: GestureRule
    /// The right-side options of a row, innermost first.
    public var rowOptions: [RowOption]
    /// The window's sizes; nil from a server that predates them (use `RowLimits.contract`).
    public var rows: RowLimits?

    /// Creates rules.
    public init(gesture: GestureRule, rowOptions: [RowOption], rows: RowLimits? = .contract) {
        self.gesture = gesture
        self.rowOptions = rowOptions
        self.rows = rows
    }

    /// The sizes a view's window may take: what a view names when it names none, and the most
    /// rows one view holds (a larger `limit` is refused with 400).
    public struct RowLimits: Codable, Sendable, Hashable {
        /// The window of a view that names no `limit`.
        public var defaultLimit: Int
        /// The largest `limit` a view may name.
        public var maxLimit: Int

        /// Creates limits.
        public init(defaultLimit: Int, maxLimit: Int) {
            self.defaultLimit = defaultLimit
            self.maxLimit = maxLimit
        }

        /// The contract's sizes, as `RecentsCore.ViewParameters` holds them.
        public static let contract = RowLimits(
            defaultLimit: ViewParameters.defaultLimit, maxLimit: ViewParameters.limitRange.upperBound)
    }

    /// Telegram's numbers and the one "Delete" option: what a server publishes today, and what a
    /// client can use until `rules()` has answered (or when the server is too old to have it).
    public static let telegram = RecentsRules(gesture: .telegram, rowOptions: RowOption.rowOptions)
}

extension RecentsClient {
    /// `GET /v1/rules`: the gesture numbers and row options, to decide a swipe's release locally.
    ///
    /// The server lets caches keep the answer for five minutes (`Cache-Control: public, max-age=300`).
    public func rules() async throws(RecentsClientError) -> RecentsRules {
        try await send(request("GET", url(["v1", "rules"])), as: RecentsRules.self)
    }
}

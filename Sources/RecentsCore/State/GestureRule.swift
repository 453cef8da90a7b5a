/// The numbers `Gesture.decide` reads, published by the server (`GET /v1/rules`) so a client
/// decides a swipe's release on its own the way the server would, within one frame of the input.
///
/// Telegram's `ItemListRevealOptionsItemNode` hard-codes them; here they are one value so the
/// server, the web page and the Swift client read the same numbers.
public struct GestureRule: Codable, Sendable, Hashable {
    /// The width of one option button when a gesture names none (Telegram: 74 points).
    public var buttonWidth: Double
    /// Releases slower than this (points per second, absolute) keep the row where the drag left
    /// it; faster ones follow the fling's direction.
    public var slowVelocity: Double
    /// Rows with at most this many options select the outermost one when pulled a whole button
    /// past their options; rows with more need only `fullSwipeMargin`.
    public var buttonMarginMaxOptions: Int
    /// How far past the options a row with more than `buttonMarginMaxOptions` options is pulled
    /// to select the outermost one.
    public var fullSwipeMargin: Double

    /// Telegram's numbers.
    public static let telegram = GestureRule(
        buttonWidth: 74, slowVelocity: 100, buttonMarginMaxOptions: 2, fullSwipeMargin: 16)

    /// Creates a rule.
    public init(buttonWidth: Double, slowVelocity: Double, buttonMarginMaxOptions: Int, fullSwipeMargin: Double) {
        self.buttonWidth = buttonWidth
        self.slowVelocity = slowVelocity
        self.buttonMarginMaxOptions = buttonMarginMaxOptions
        self.fullSwipeMargin = fullSwipeMargin
    }
}

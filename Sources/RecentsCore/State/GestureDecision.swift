/// What a gesture release does to its row.
public enum GestureOutcome: String, Codable, Sendable, Hashable, CaseIterable {
    /// The options stay revealed.
    case open
    /// The row closes.
    case closed
    /// The outermost option is chosen and the row closes.
    case selected
}

/// The server's answer to a gesture release (the API writes it as the gesture reply's members).
public struct GestureDecision: Sendable, Hashable {
    /// What happens to the row.
    public var outcome: GestureOutcome
    /// The index (into the row's options) of the selected option, when `outcome` is `selected`.
    public var selectedOptionIndex: Int?
    /// The offset the row settles at: minus the options' width when open, else 0.
    public var offset: Double

    /// Creates a decision.
    public init(outcome: GestureOutcome, selectedOptionIndex: Int?, offset: Double) {
        self.outcome = outcome
        self.selectedOptionIndex = selectedOptionIndex
        self.offset = offset
    }
}

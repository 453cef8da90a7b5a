/// What a gesture release does to its row.
public enum GestureOutcome: String, Codable, Sendable, Hashable, CaseIterable {
    /// The options stay revealed.
    case open
    /// The row closes.
    case closed
    /// The outermost option is chosen and the row closes.
    case selected
}

/// The server's answer to a gesture release.
public struct GestureDecision: Codable, Sendable, Hashable {
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

    enum CodingKeys: String, CodingKey {
        case outcome, selectedOptionIndex, offset
    }

    /// Encodes with an explicit `"selectedOptionIndex": null` when nothing is selected.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(selectedOptionIndex, forKey: .selectedOptionIndex)
        try container.encode(offset, forKey: .offset)
    }
}

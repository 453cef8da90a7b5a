/// How a row's calls ended, as the cell's subtitle and icon show it.
public enum RowStatus: String, Codable, Sendable, Hashable, CaseIterable {
    /// The row's calls are missed (shown in red in Telegram).
    case missed
    /// Answered calls in both directions.
    case mixed
    /// Answered incoming calls only.
    case incoming
    /// Outgoing calls only.
    case outgoing
}

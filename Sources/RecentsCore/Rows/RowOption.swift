/// One right-side option revealed by swiping a row to the left.
public struct RowOption: Codable, Sendable, Hashable {
    /// The stable key clients send back when the option is chosen.
    public var key: String
    /// The button's title.
    public var title: String
    /// Whether the button is drawn as destructive (red).
    public var destructive: Bool

    /// Creates an option.
    public init(key: String, title: String, destructive: Bool) {
        self.key = key
        self.title = title
        self.destructive = destructive
    }

    /// "Delete": Telegram's call list offers exactly this one item behind a swipe.
    public static let delete = RowOption(key: "delete", title: "Delete", destructive: true)

    /// The options every row reveals today, innermost first (the last one is the outermost).
    public static let rowOptions: [RowOption] = [.delete]
}

/// The result of one write request: the body's value and the versions it created.
public struct WriteOutcome<T: Sendable>: Sendable {
    /// What the body returned.
    public var value: T
    /// The new version of each list this request changed; empty when it changed nothing.
    public var versions: [String: Int64]

    /// Creates an outcome (the store makes these; public for test doubles).
    public init(value: T, versions: [String: Int64]) {
        self.value = value
        self.versions = versions
    }
}

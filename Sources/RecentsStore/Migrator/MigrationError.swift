/// Why a database cannot be opened by this binary's schema history.
public struct MigrationError: Error, CustomStringConvertible, Sendable, Hashable {
    /// A human-readable explanation, naming the migration concerned.
    public var message: String

    /// "cannot open the database: …".
    public var description: String { "cannot open the database: \(message)" }
}

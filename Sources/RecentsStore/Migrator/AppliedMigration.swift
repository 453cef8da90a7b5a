/// A migration applied by one migration run.
public struct AppliedMigration: Sendable, Hashable, CustomStringConvertible {
    /// The migration's version number.
    public var version: Int
    /// The migration's file name.
    public var name: String
    /// The SHA-256 recorded for it.
    public var checksum: String

    /// "0001_initial_schema.sql (sha256 …)".
    public var description: String { "\(name) (sha256 \(checksum))" }
}

import RecentsCore

/// What a read sees of a list: its version, retention window, state and size.
public struct ListInfo: Sendable, Hashable {
    /// The list name.
    public var name: String
    /// The current version (0 for a list never written).
    public var version: Int64
    /// The oldest version still answered: `max(forgottenBelow, version - retainVersions)`, where
    /// `forgottenBelow` is the version the last forget created (0 if never forgotten).
    public var oldestRetainedVersion: Int64
    /// The state at `version`.
    public var state: ListState
    /// Live calls at `version`.
    public var callCount: Int
    /// Whether the list was ever written (a never-written list reads as empty at version 0).
    public var exists: Bool

    /// Creates a list description.
    public init(
        name: String, version: Int64, oldestRetainedVersion: Int64, state: ListState, callCount: Int, exists: Bool
    ) {
        self.name = name
        self.version = version
        self.oldestRetainedVersion = oldestRetainedVersion
        self.state = state
        self.callCount = callCount
        self.exists = exists
    }
}

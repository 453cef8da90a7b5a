/// Where a running `SQLiteStore.backup` is, for a progress line.
public enum BackupProgress: Sendable, Equatable {
    /// Bytes of the database copied so far, of its size when the copy began.
    case copied(bytes: Int, of: Int)
    /// The copy is complete and being read back whole (`PRAGMA quick_check`).
    case checking
    /// The copy checked out and is being made durable under its name.
    case syncing
}

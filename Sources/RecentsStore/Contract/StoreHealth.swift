/// Whether the store's writes are working, for `/healthz`: reads may still be served while it is
/// degraded.
public enum StoreHealth: Sendable, Hashable {
    /// The last write that changed a list reached the disk (or none has been tried).
    case ok
    /// The last write failed because the storage is unavailable; `reason` is a short phrase safe to
    /// show a client ("the disk is full"). Clears at the next write that commits a change.
    case degraded(reason: String)
}

extension StoreError {
    /// The phrase `/healthz` shows for a storage failure, nil for other errors: no engine
    /// message, path or SQL, since the endpoint is public.
    public var storageProblem: String? {
        switch self {
        case .full: "the disk is full"
        case .ioError: "disk I/O error"
        case .readOnly: "the database is read-only"
        case .unavailable: "the database does not answer"
        default: nil
        }
    }
}

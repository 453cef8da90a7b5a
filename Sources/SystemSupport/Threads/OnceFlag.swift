import Synchronization

/// A flag that is claimed once: the first `claim()` returns true, every later one false, from any
/// thread (a shutdown that several signals and callers may start).
public final class OnceFlag: Sendable {
    private let claimed = Mutex(false)

    /// An unclaimed flag.
    public init() {}

    /// True for the first caller only.
    public func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}

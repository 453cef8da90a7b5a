import Foundation

/// A value behind an `NSLock` (the client supports OS versions older than `Synchronization.Mutex`).
///
/// `@unchecked Sendable` is sound: `value` is private and only read or written inside
/// `withLock`, which holds the lock for the whole access, so no two threads touch it at once.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

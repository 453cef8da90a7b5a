/// A closure the store calls (`ListStore.onCommit`, `.watchedLists`), held by reference.
///
/// Why a box: a closure kept directly as a `Mutex`'s value is re-abstracted on every `withLock`,
/// whose inout round trip stores it back wrapped in two more thunks. Each read (one per batch)
/// made the chain longer: calls got slower without bound, memory grew, and the call's stack depth
/// with them. A class reference goes in and out of the lock unchanged.
final class StoreHook<Argument, Result>: Sendable {
    let call: @Sendable (Argument) -> Result

    init(_ call: @escaping @Sendable (Argument) -> Result) {
        self.call = call
    }
}

/// An engine's own failure type (`SQLiteError`, `PGError`), turned into a `StoreError` in one
/// place per engine (`storeError`), so the rest of the store maps errors the same way on both.
protocol EngineError: Error {
    /// The store-level error for this failure.
    var storeError: StoreError { get }
}

extension EngineError {
    /// Runs `body`, throwing its engine failures as `StoreError`s: what a `StoreReader` or
    /// `StoreWriter` method throws, so a body may catch the same errors on every back end.
    static func mapped<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as Self {
            throw error.storeError
        }
    }

    /// `error` as it leaves the store: engine failures become `StoreError`s, anything else (a
    /// body's own error, a `StoreError`, a `MigrationError`) passes unchanged.
    static func leavingStore(_ error: any Error) -> any Error {
        (error as? Self)?.storeError ?? error
    }

    /// `error` as a store-level storage failure (disk full, I/O error, read-only, the server out
    /// of reach), else nil.
    static func storageFailure(_ error: any Error) -> StoreError? {
        guard let error = leavingStore(error) as? StoreError, error.isStorageUnavailable else { return nil }
        return error
    }
}

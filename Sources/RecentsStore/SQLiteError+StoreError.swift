import CSQLite

extension SQLiteError {
    /// The store-level error for this failure; the SQLite message and SQL go along for the logs.
    var storeError: StoreError {
        let detail = logDescription
        switch code {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(detail)
        case SQLITE_FULL: return .full(detail)
        case SQLITE_IOERR: return .ioError(detail)
        case SQLITE_READONLY: return .readOnly(detail)
        case SQLITE_CONSTRAINT: return .constraint(unique: isUniqueViolation || isPrimaryKeyViolation, detail)
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt(detail)
        default: return .engine(detail)
        }
    }

    /// Whether a PRIMARY KEY constraint failed (`SQLITE_CONSTRAINT_PRIMARYKEY`, a macro Swift cannot import).
    var isPrimaryKeyViolation: Bool { extendedCode == SQLITE_CONSTRAINT | (6 << 8) }

    /// Runs `body`, throwing its SQLite failures as `StoreError`s: what a `StoreReader` or
    /// `StoreWriter` method throws, so a body may catch the same errors on every back end.
    static func mapped<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw error.storeError
        }
    }

    /// `error` as it leaves the store: SQLite failures become `StoreError`s, anything else (a
    /// body's own error, a `StoreError`, a `MigrationError`) passes unchanged.
    static func leavingStore(_ error: any Error) -> any Error {
        (error as? SQLiteError)?.storeError ?? error
    }
}

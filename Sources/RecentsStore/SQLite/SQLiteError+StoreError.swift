internal import CSQLite

extension SQLiteError: EngineError {
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
}

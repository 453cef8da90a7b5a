import CSQLite
import Testing

@testable import RecentsStore

/// SQLite failures leave the store as `StoreError`s, inside a body as well as at its completion.
@Suite struct StoreErrorTests {
    @Test func engineFailuresMapToStoreErrorCases() {
        func mapped(_ code: Int32, extended: Int32? = nil) -> StoreError {
            SQLiteError(code: code, extendedCode: extended ?? code, message: "m", sql: "SELECT 1").storeError
        }
        for code in [SQLITE_BUSY, SQLITE_LOCKED] {
            if case .busy = mapped(code) {} else { Issue.record("\(code) is not .busy") }
        }
        #expect(mapped(SQLITE_FULL).isStorageUnavailable)
        #expect(mapped(SQLITE_IOERR, extended: SQLITE_IOERR | (4 << 8)).isStorageUnavailable)
        #expect(mapped(SQLITE_READONLY).isStorageUnavailable)
        #expect(mapped(SQLITE_CONSTRAINT, extended: SQLITE_CONSTRAINT | (8 << 8)).isUniqueViolation)
        #expect(!mapped(SQLITE_CONSTRAINT, extended: SQLITE_CONSTRAINT | (3 << 8)).isUniqueViolation)
        #expect(!mapped(SQLITE_BUSY).isStorageUnavailable)
        if case .corrupt = mapped(SQLITE_NOTADB) {} else { Issue.record("NOTADB is not .corrupt") }
        if case .engine = mapped(SQLITE_ERROR) {} else { Issue.record("ERROR is not .engine") }
        // The engine's message and SQL reach the log line, which clients never see.
        #expect(String(describing: mapped(SQLITE_FULL)).contains("[sql: SELECT 1]"))
    }

    /// A PostgreSQL server that does not answer is named as such to clients and on /healthz,
    /// not as a disk error (which would send an operator to the wrong machine).
    @Test func aLostPostgreSQLServerIsUnavailableNotADiskError() {
        let lost = PGError(sqlState: nil, message: "server closed the connection", connectionLost: true).storeError
        #expect(lost.isStorageUnavailable)
        #expect(lost.storageProblem == "the database does not answer")
        for state in ["57P01", "08006", "53300"] {
            let error = PGError(sqlState: state, message: "m", connectionLost: false).storeError
            #expect(error.storageProblem == "the database does not answer", "\(state)")
        }
        #expect(
            PGError(sqlState: "53100", message: "m", connectionLost: false).storeError.storageProblem
                == "the disk is full")
        #expect(PGError(sqlState: "23505", message: "m", connectionLost: false).storeError.isUniqueViolation)
    }

    @Test func aBodyCatchesStoreErrorsFromItsTransaction() async throws {
        try await withStore { store in
            _ = try await store.write { try $0.insertCalls([makeCall("a")], into: "alice") }
            let caught = try await store.write { transaction -> Bool in
                do {
                    try transaction.insertCalls([makeCall("a")], into: "alice")
                    return false
                } catch let error as StoreError {
                    return error.isUniqueViolation
                }
            }
            #expect(caught.value)
            // A read of a version outside the window is the store's own error too.
            await #expect(throws: StoreError.versionNotRetained(list: "alice", version: 9)) {
                try await store.read { _ = try $0.calls(in: "alice", at: 9) }
            }
        }
    }
}

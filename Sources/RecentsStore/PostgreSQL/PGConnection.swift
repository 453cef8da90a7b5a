internal import CLibPQ
import Glibc

/// One libpq connection, used by one thread at a time; every statement with values is sent with
/// its parameters apart from its text (`PQprepare`/`PQexecPrepared`), never spliced into SQL.
///
/// Prepared statements are cached per connection by their SQL text; a reset forgets them.
final class PGConnection {
    /// libpq's `connect_timeout` (seconds, per host) unless the URI sets its own. libpq waits
    /// indefinitely without one, and a host that drops packets instead of refusing them (a dead
    /// machine on a real network) would hold every reconnect for TCP's own timeout, minutes,
    /// instead of letting libpq go on to the URI's next host. 2 s is libpq's minimum.
    static let defaultConnectTimeoutSeconds = 2

    private let handle: OpaquePointer
    private var prepared: [String: String] = [:]
    /// Whether the connection string asks for `target_session_attrs=read-write`: then a server
    /// that refuses a write as read-only (SQLSTATE 25006) is no longer the one to write to.
    let requiresReadWrite: Bool

    /// Connects to `uri` (any connection string libpq accepts).
    /// - Throws: `PGError` with `connectionLost` when the server cannot be reached.
    init(uri: String) throws {
        if let reason = recents_libpq_load() {
            throw PGError(sqlState: nil, message: String(cString: reason), connectionLost: true)
        }
        // Expanded, `uri`'s own parameters override the earlier default (libpq: "the last value wins").
        let keywords: [String?] = ["connect_timeout", "dbname", nil]
        let values: [String?] = [String(Self.defaultConnectTimeoutSeconds), uri, nil]
        let connected = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let handle = connected else {
            throw PGError(sqlState: nil, message: "out of memory", connectionLost: true)
        }
        self.handle = handle
        requiresReadWrite = Self.option("target_session_attrs", of: handle) == "read-write"
        // libpq prints notices to stderr, in the middle of the log's lines: a server shutting
        // down sends every session a WARNING or FATAL first, which PGLink logs as a lost connection.
        _ = PQsetNoticeProcessor(handle, { _, _ in }, nil)
        guard PQstatus(handle) == CONNECTION_OK else {
            // Every property is set, so throwing runs deinit, which finishes the handle.
            let message = Self.trimmed(PQerrorMessage(handle))
            throw PGError(sqlState: nil, message: message, connectionLost: true)
        }
        // Errors stay machine-readable and warnings stay out of the server's stderr.
        _ = try? execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is still usable.
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether a transaction block is open (or failed and awaiting ROLLBACK).
    var inTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Reconnects with the same parameters; prepared statements are forgotten.
    func reset() throws {
        prepared.removeAll()
        PQreset(handle)
        guard isHealthy else {
            throw PGError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), connectionLost: true)
        }
        _ = try? execute("SET client_min_messages = warning")
    }

    /// Runs `sql` (one or more statements without parameters, e.g. a migration or `BEGIN`).
    @discardableResult
    func execute(_ sql: String) throws -> PGResult {
        try check(PQexec(handle, sql))
    }

    /// Runs one statement with `values` bound to `$1`, `$2`, … and returns its rows.
    @discardableResult
    func query(_ sql: String, _ values: any PGValue...) throws -> PGResult {
        try query(sql, values: values)
    }

    /// Runs one statement with `values` bound to `$1`, `$2`, … and returns its rows.
    @discardableResult
    func query(_ sql: String, values: [any PGValue]) throws -> PGResult {
        let name = try preparedName(sql, parameters: values.count)
        let texts = values.map(\.pgText)
        return try withCStrings(texts) { pointers in
            try check(PQexecPrepared(handle, name, Int32(pointers.count), pointers, nil, nil, 0))
        }
    }

    /// Runs `statements` in order in one round trip (libpq's pipeline mode) and returns their
    /// results. When one fails, the server skips the rest, and its failure is thrown.
    func pipeline(_ statements: [PGStatement]) throws -> [PGResult] {
        // Preparing is a round trip of its own, once per statement and connection: before.
        let names = try statements.map { try preparedName($0.sql, parameters: $0.values.count) }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PGError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), connectionLost: !isHealthy)
        }
        var failure: (any Error)?
        var results: [PGResult] = []
        for (statement, name) in zip(statements, names) where failure == nil {
            let sent = withCStrings(statement.values.map(\.pgText)) { pointers in
                PQsendQueryPrepared(handle, name, Int32(pointers.count), pointers, nil, nil, 0)
            }
            if sent != 1 { failure = lastError() }
        }
        if failure == nil, PQpipelineSync(handle) != 1 { failure = lastError() }
        if failure == nil {
            for _ in statements {
                guard let result = PQgetResult(handle) else {
                    failure = failure ?? lastError()
                    break
                }
                if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                    PQclear(result)
                } else {
                    do { results.append(try check(result)) } catch { failure = failure ?? error }
                }
                // Each statement's results end with a NULL.
                while let extra = PQgetResult(handle) { PQclear(extra) }
            }
            if let sync = PQgetResult(handle) { PQclear(sync) }
        }
        if PQexitPipelineMode(handle) != 1 {
            // Results are still pending (the connection broke mid-way): start over clean.
            failure = failure ?? lastError()
            try? reset()
        }
        if let failure { throw failure }
        return results
    }

    private func lastError() -> PGError {
        PGError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), connectionLost: !isHealthy)
    }

    /// The process id of this connection's server backend (what notifications it sends carry).
    var backendPID: Int32 { PQbackendPID(handle) }

    /// The server libpq chose among the URI's hosts, as `host:port` (after a failover, another one).
    var server: String {
        let host = PQhost(handle).map { String(cString: $0) } ?? ""
        let port = PQport(handle).map { String(cString: $0) } ?? ""
        return "\(host):\(port)"
    }

    /// The value libpq uses for connection parameter `keyword` (from the URI, the environment or
    /// its default), nil when unset.
    func option(_ keyword: String) -> String? { Self.option(keyword, of: handle) }

    private static func option(_ keyword: String, of handle: OpaquePointer) -> String? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let name = option.pointee.keyword {
            if String(cString: name) == keyword { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// The socket libpq reads from, for waiting on notifications.
    var socket: Int32 { PQsocket(handle) }

    /// Reads what the server sent and returns the notifications among it (channel, payload).
    func notifications() throws -> [(channel: String, payload: String, sender: Int32)] {
        guard PQconsumeInput(handle) == 1 else {
            throw PGError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), connectionLost: true)
        }
        var found: [(channel: String, payload: String, sender: Int32)] = []
        while let notification = PQnotifies(handle) {
            let note = notification.pointee
            found.append((String(cString: note.relname), String(cString: note.extra), note.be_pid))
            PQfreemem(notification)
        }
        return found
    }

    private func preparedName(_ sql: String, parameters: Int) throws -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count)"
        _ = try check(PQprepare(handle, name, sql, Int32(parameters), nil))
        prepared[sql] = name
        return name
    }

    /// The result, or its failure as a `PGError`.
    private func check(_ result: OpaquePointer?) throws -> PGResult {
        guard let result else {
            throw PGError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), connectionLost: !isHealthy)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PGResult(result)
        default:
            // Read the fields before clearing: the result owns their memory.
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            PQclear(result)
            throw PGError(
                sqlState: state, message: primary ?? Self.trimmed(PQerrorMessage(handle)),
                connectionLost: !isHealthy)
        }
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown libpq error" }
        var text = String(cString: message)
        while text.last?.isWhitespace == true { text.removeLast() }
        return text.isEmpty ? "unknown libpq error" : text
    }
}

/// Calls `body` with C strings for `texts` (NULL for nil), valid only during the call.
private func withCStrings<R>(_ texts: [String?], _ body: ([UnsafePointer<CChar>?]) throws -> R) rethrows -> R {
    // strdup'd copies: each pointer stays valid for the whole call, unlike nested closures'.
    let copies = texts.map { text in text.flatMap { strdup($0) } }
    defer { for copy in copies { free(copy) } }
    return try body(copies.map { $0.map { UnsafePointer($0) } })
}

/// One statement of a `PGConnection.pipeline`: its SQL and the values bound to `$1`, `$2`, ….
struct PGStatement {
    let sql: String
    let values: [any PGValue]

    init(_ sql: String, _ values: any PGValue...) {
        self.sql = sql
        self.values = values
    }
}

import SystemSupport

/// Errors from starting the server, worded for an operator: `127.0.0.1:8080: address already in use`.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed; the error names what was being done and why it failed.
    case systemCall(SystemError)
    /// `start()` was called twice or after shutdown.
    case alreadyStarted

    /// A system-call failure of `operation` with `errno` `code`.
    static func system(_ operation: String, code: Int32) -> HTTPServerError {
        .systemCall(SystemError(operation, code: code))
    }

    /// The error in words.
    public var description: String {
        switch self {
        case .systemCall(let error): return error.description
        case .alreadyStarted: return "the server was already started"
        }
    }
}

import Glibc

/// A failed system call, described in words: `"bind 127.0.0.1:8080: address already in use"`.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, e.g. `"bind 127.0.0.1:8080"`.
    public var operation: String
    /// The `errno` it failed with.
    public var code: Int32

    /// An error for `operation` failing with `code`.
    public init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// `operation: reason`, the reason in lower case as `strerror` words it.
    public var description: String { operation + ": " + Self.describe(code) }

    /// The C library's words for `code`, first letter lowered to fit after a colon
    /// (`EADDRINUSE` → `"address already in use"`).
    public static func describe(_ code: Int32) -> String {
        // glibc's strerror is thread-safe since 2.32: known codes map to constant strings and
        // unknown ones are formatted in a thread-local buffer.
        guard let words = strerror(code) else { return "error \(code)" }
        var text = String(cString: words)
        if let first = text.unicodeScalars.first, ("A"..."Z").contains(first), !text.hasPrefix("I/O") {
            text = first.properties.lowercaseMapping + text.dropFirst()
        }
        return text
    }
}

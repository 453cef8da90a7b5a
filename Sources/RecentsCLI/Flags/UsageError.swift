/// A command-line mistake: reported on stderr with a pointer to `--help`, exit status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, in one line.
    public let message: String

    /// The message.
    public var description: String { message }
}

/// A flag's text and where it came from, so an error can name the flag or variable to fix.
struct RawValue: Equatable {
    /// The text as given.
    let text: String
    /// `--port` or `RECENTS_PORT`.
    let origin: String

    /// "invalid value 'abc' for --port: must be an integer from 0 to 65535".
    func invalid(must expectation: String) -> UsageError {
        UsageError(message: "invalid value '\(text)' for \(origin): must be \(expectation)")
    }
}

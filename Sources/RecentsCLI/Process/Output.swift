import Glibc

/// Where a command's lines go: the process's stdout and stderr, or a test's buffers.
public struct Output: Sendable {
    /// Writes one line (without its newline) as normal output.
    let standard: @Sendable (String) -> Void
    /// Writes one line (without its newline) as a diagnostic.
    let error: @Sendable (String) -> Void
    /// Where long commands say how far they have come; nil says nothing.
    let progress: ProgressSink?

    /// Lines to custom sinks (tests).
    public init(
        standard: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
        progress: ProgressSink? = nil
    ) {
        self.standard = standard
        self.error = error
        self.progress = progress
    }

    /// Unbuffered lines to file descriptors 1 and 2, so they reach a container log even when the
    /// process is killed right after; progress goes to 2, drawn in place when it is a terminal.
    public static let process = Output(
        standard: { write(fd: 1, $0 + "\n") }, error: { write(fd: 2, $0 + "\n") },
        progress: ProgressSink(isTerminal: isatty(2) == 1, write: { write(fd: 2, $0) }))

    private static func write(fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

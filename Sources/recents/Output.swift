import Foundation

/// Unbuffered line output, so lines reach a container log even when the process is killed.
enum Output {
    /// Writes `line` and a newline to stdout.
    static func standard(_ line: String) {
        write(fd: 1, line + "\n")
    }

    /// Writes `line` and a newline to stderr.
    static func error(_ line: String) {
        write(fd: 2, line + "\n")
    }

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

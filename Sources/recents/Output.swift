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

/// Levels in increasing severity; a logger prints its level and above.
enum LogLevel: String, CaseIterable, Comparable {
    case debug, info, warn, error

    static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// Writes logfmt lines (`ts=… level=… msg="…" key=value`) to stderr, the format the API's access log uses.
struct Logger: Sendable {
    /// The lowest level printed.
    let minimum: LogLevel

    /// Prints one line when `level` is at least `minimum`; fields keep their order.
    func log(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        guard level >= minimum else { return }
        var line = "ts=\(Logger.timestamp()) level=\(level.rawValue) msg=\(Logger.quoted(message))"
        for (key, value) in fields {
            line += " \(key)=\(Logger.value(value))"
        }
        Output.error(line)
    }

    /// RFC 3339 UTC with milliseconds, e.g. `2026-11-30T07:53:42.123Z`.
    static func timestamp() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), spec.tv_nsec / 1_000_000)
    }

    /// A bare value when it is safe in logfmt, else a quoted one.
    static func value(_ text: String) -> String {
        let needsQuotes =
            text.isEmpty || text.contains { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "\\" || $0.isNewline }
        return needsQuotes ? quoted(text) : text
    }

    /// `text` in double quotes with `"`, `\` and newlines escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.append(character)
            }
        }
        return result + "\""
    }
}

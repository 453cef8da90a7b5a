/// A minimal logfmt logger writing one line per event to stderr.
public struct Logger: Sendable {
    /// Severity levels, lowest first.
    public enum Level: Int, Sendable, Comparable, CustomStringConvertible {
        /// Verbose diagnostics.
        case debug = 0
        /// Normal operation, including access logs.
        case info = 1
        /// Something unexpected but handled.
        case warn = 2
        /// A failure.
        case error = 3

        /// Parses `debug`, `info`, `warn`/`warning` or `error` (case-insensitive).
        public init?(string: String) {
            switch string.lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warn", "warning": self = .warn
            case "error": self = .error
            default: return nil
            }
        }

        /// The level's logfmt name.
        public var description: String {
            switch self {
            case .debug: return "debug"
            case .info: return "info"
            case .warn: return "warn"
            case .error: return "error"
            }
        }

        /// Orders by severity.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Events below this level are dropped before formatting.
    public var level: Level
    /// Where lines go instead of stderr (tests read what a component logged).
    private let sink: (@Sendable (String) -> Void)?

    /// A logger that emits events at `level` and above to stderr, or to `sink`.
    public init(level: Level = .info, sink: (@Sendable (String) -> Void)? = nil) {
        self.level = level
        self.sink = sink
    }

    /// Whether events at `level` would be written.
    public func isEnabled(_ level: Level) -> Bool { level >= self.level }

    /// Writes one event with extra `key=value` fields.
    public func log(_ level: Level, _ message: String, _ fields: [(String, String)] = []) {
        guard isEnabled(level) else { return }
        var line = Logger.format(level, message, fields)
        if let sink { return sink(line) }
        line.withUTF8 { buf in _ = writeAll(fd: 2, UnsafeRawBufferPointer(buf)) }
    }

    /// Logs at debug level.
    public func debug(_ message: String, _ fields: [(String, String)] = []) { log(.debug, message, fields) }
    /// Logs at info level.
    public func info(_ message: String, _ fields: [(String, String)] = []) { log(.info, message, fields) }
    /// Logs at warn level.
    public func warn(_ message: String, _ fields: [(String, String)] = []) { log(.warn, message, fields) }
    /// Logs at error level.
    public func error(_ message: String, _ fields: [(String, String)] = []) { log(.error, message, fields) }

    /// Formats a logfmt line, newline-terminated.
    public static func format(_ level: Level, _ message: String, _ fields: [(String, String)]) -> String {
        var line = "ts=" + timestamp() + " level=" + level.description + " msg="
        appendValue(message, to: &line)
        for (key, value) in fields {
            line += " " + key + "="
            appendValue(value, to: &line)
        }
        line += "\n"
        return line
    }

    /// Appends `value`, quoted and escaped when it contains spaces, quotes, `=` or control characters.
    public static func appendValue(_ value: String, to line: inout String) {
        let needsQuotes =
            value.isEmpty || value.utf8.contains { $0 <= 0x20 || $0 == 0x22 || $0 == 0x3D || $0 == 0x5C || $0 == 0x7F }
        guard needsQuotes else {
            line += value
            return
        }
        appendQuoted(value, to: &line) { "\\x" + String($0, radix: 16) }
    }

    /// RFC 3339 UTC timestamp with milliseconds, e.g. `2026-11-30T07:50:00.123Z`.
    public static func timestamp() -> String {
        let (seconds, milliseconds) = SystemClock.wallTime()
        return timestamp(seconds: seconds, milliseconds: milliseconds)
    }

    /// `timestamp()`'s text for a given wall-clock time.
    public static func timestamp(seconds: Int64, milliseconds: Int) -> String {
        let time = CalendarTime(utc: seconds)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return pad(time.year, 4) + "-" + pad(time.month, 2) + "-" + pad(time.day, 2) + "T" + pad(time.hour, 2) + ":"
            + pad(time.minute, 2) + ":" + pad(time.second, 2) + "." + pad(milliseconds, 3) + "Z"
    }
}

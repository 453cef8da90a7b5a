import SystemSupport

/// A loop's access log: logfmt lines appended as bytes into one buffer and written to stderr
/// with one write(2) per loop iteration.
///
/// At tens of thousands of requests a second, building each line as a String cost about half
/// the server's throughput; this writes the same line without allocating.
struct AccessLog {
    private var buffer: [UInt8] = []
    /// The timestamp, `2026-11-30T07:50:00.123Z`, read from the clock at most once per loop iteration.
    private(set) var timestamp: [UInt8] = []
    /// Whether `timestamp` is this iteration's.
    private var timestampFresh = false
    /// The wall-clock second `timestamp` shows: within it, only the milliseconds are rewritten
    /// (formatting the whole text took ~10,000 instructions, once per loop iteration; issue 42).
    private var timestampSecond: Int64 = -1

    /// Starts a loop iteration: the next line reads the clock again.
    mutating func newIteration() { timestampFresh = false }

    /// Brings `timestamp` to the given wall-clock time.
    mutating func refreshTimestamp(seconds: Int64, milliseconds: Int) {
        timestampFresh = true
        if seconds != timestampSecond || timestamp.count < 5 {
            timestampSecond = seconds
            timestamp = Array(Logger.timestamp(seconds: seconds, milliseconds: milliseconds).utf8)
            return
        }
        // `.mmmZ` ends the text.
        let end = timestamp.count - 1
        timestamp[end - 3] = UInt8(ascii: "0") + UInt8(milliseconds / 100)
        timestamp[end - 2] = UInt8(ascii: "0") + UInt8(milliseconds / 10 % 10)
        timestamp[end - 1] = UInt8(ascii: "0") + UInt8(milliseconds % 10)
    }

    /// Appends one `msg=request` line.
    mutating func append(
        method: String, path: String, remote: String, status: Int, bytes: Int, durationNanos: UInt64, id: String
    ) {
        if !timestampFresh {
            let (seconds, milliseconds) = SystemClock.wallTime()
            refreshTimestamp(seconds: seconds, milliseconds: milliseconds)
        }
        append("ts=")
        buffer.append(contentsOf: timestamp)
        append(" level=info msg=request method=")
        appendValue(method)
        append(" path=")
        appendValue(path)
        append(" status=")
        appendDecimal(status, to: &buffer)
        append(" bytes=")
        appendDecimal(bytes, to: &buffer)
        append(" duration_ms=")
        let micros = Int(durationNanos / 1000)
        appendDecimal(micros / 1000, to: &buffer)
        buffer.append(UInt8(ascii: "."))
        let fraction = micros % 1000
        if fraction < 100 { buffer.append(UInt8(ascii: "0")) }
        if fraction < 10 { buffer.append(UInt8(ascii: "0")) }
        appendDecimal(fraction, to: &buffer)
        append(" request_id=")
        appendValue(id)
        // Empty for a request made in process: no field rather than `remote=""`.
        if !remote.isEmpty {
            append(" remote=")
            appendValue(remote)
        }
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count > 256 * 1024 { flush() }
    }

    /// Writes every buffered line with one write(2).
    mutating func flush() {
        if buffer.isEmpty { return }
        buffer.withUnsafeBytes { _ = writeAll(fd: 2, $0) }
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1024 * 1024)
    }

    private mutating func append(_ text: StaticString) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A logfmt value: the bytes as they are when nothing needs quoting (the common case), else
    /// the logger's quoting.
    private mutating func appendValue(_ value: String) {
        var value = value
        // Over the contiguous bytes: the generic `utf8.contains` and `append(contentsOf: utf8)` were
        // a fifth of a logged request's line (callgrind, issue 42).
        let plain = value.withUTF8 { bytes in
            if bytes.isEmpty { return false }
            for c in bytes where c <= 0x20 || c == 0x22 || c == 0x3D || c == 0x5C || c >= 0x7F { return false }
            buffer.append(contentsOf: bytes)
            return true
        }
        if !plain {
            var quoted = ""
            Logger.appendValue(value, to: &quoted)
            buffer.append(contentsOf: quoted.utf8)
        }
    }
}

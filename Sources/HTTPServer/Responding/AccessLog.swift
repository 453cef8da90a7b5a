import SystemSupport

/// A loop's access log: logfmt lines appended as bytes into one buffer and written to stderr
/// with one write(2) per loop iteration.
///
/// At tens of thousands of requests a second, building each line as a String cost about half
/// the server's throughput; this writes the same line without allocating.
struct AccessLog {
    private var buffer: [UInt8] = []
    /// The timestamp, formatted at most once per loop iteration.
    private var timestamp: [UInt8] = []

    /// Starts a loop iteration: the next line formats a fresh timestamp.
    mutating func newIteration() { timestamp.removeAll(keepingCapacity: true) }

    /// Appends one `msg=request` line.
    mutating func append(
        method: String, path: String, remote: String, status: Int, bytes: Int, durationNanos: UInt64, id: String
    ) {
        if timestamp.isEmpty { timestamp = Array(Logger.timestamp().utf8) }
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
        let plain =
            !value.isEmpty
            && !value.utf8.contains { $0 <= 0x20 || $0 == 0x22 || $0 == 0x3D || $0 == 0x5C || $0 >= 0x7F }
        if plain {
            buffer.append(contentsOf: value.utf8)
        } else {
            var quoted = ""
            Logger.appendValue(value, to: &quoted)
            buffer.append(contentsOf: quoted.utf8)
        }
    }
}

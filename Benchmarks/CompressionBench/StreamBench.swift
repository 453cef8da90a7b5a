import Glibc
import RecentsCompression

/// Bytes per event and resident memory per open encoder for one coding and setting.
struct StreamBench {
    /// `gzip`, `br` or `identity`.
    var coding: ContentCoding
    var settings: StreamingSettings
    /// Open encoders for the memory figure.
    var encoders: Int
    /// Events each encoder codes before memory is read again (a stream that has been open a while).
    var eventsPerEncoder: Int
    /// Stop opening encoders once RSS grows past this many bytes (the machine is shared).
    var memoryCap: Int

    /// Events coded on one stream for the bytes figure.
    static let streamLength = 1000

    /// Runs both figures and prints one tab-separated line.
    func run() {
        var events = SampleEvents()
        let samples = (1...Self.streamLength).map { events.event(version: $0) }
        // Bytes: one stream, every event flushed on its own.
        let encoder = settings.makeEncoder(for: coding)
        // Thread CPU time, not wall time: the machine is shared, and CPU is what each stream costs.
        let start = Self.threadCPUNanoseconds()
        let sizes = samples.map { encoder?.encode($0).count ?? $0.count }
        let nanosecondsPerEvent = Double(Self.threadCPUNanoseconds() - start) / Double(samples.count)
        let identity = samples.map(\.count)
        let steady = sizes.dropFirst(100)
        let steadyIdentity = identity.dropFirst(100)

        // Memory: many open streams, each having coded one event, then `eventsPerEncoder`.
        let before = ResidentMemory.bytes()
        var open: [any StreamingEncoder] = []
        open.reserveCapacity(encoders)
        var sink = 0
        while open.count < encoders {
            guard let next = settings.makeEncoder(for: coding) else { break }
            sink &+= next.encode(samples[open.count % samples.count]).count
            open.append(next)
            if open.count % 500 == 0 && ResidentMemory.bytes() - before > memoryCap { break }
        }
        let afterFirst = ResidentMemory.bytes()
        for round in 1..<eventsPerEncoder {
            for (index, encoder) in open.enumerated() {
                sink &+= encoder.encode(samples[(index + round * 7) % samples.count]).count
            }
        }
        let afterMany = ResidentMemory.bytes()
        let count = max(1, open.count)
        let perFirst = open.isEmpty ? "-" : String((afterFirst - before) / count)
        let perMany = open.isEmpty ? "-" : String((afterMany - before) / count)
        print(
            [
                coding.name, label, String(sizes[0]), String(identity[0]),
                String(format1(Double(steady.reduce(0, +)) / Double(steady.count))),
                String(format1(Double(steadyIdentity.reduce(0, +)) / Double(steadyIdentity.count))),
                String(format1(nanosecondsPerEvent / 1000)), String(open.count),
                perFirst, perMany, String(sink & 1),
            ].joined(separator: "\t"))
        withExtendedLifetime(open) {}
    }

    /// This thread's CPU time in nanoseconds.
    static func threadCPUNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// The setting as text, e.g. `level 6, windowBits 12, memLevel 5`.
    var label: String {
        switch coding {
        case .identity: "-"
        case .gzip:
            "level \(settings.gzipLevel), windowBits \(settings.gzipWindowBits), memLevel \(settings.gzipMemoryLevel)"
        case .br: "quality \(settings.brotliQuality), lgwin \(settings.brotliWindow)"
        }
    }

    private func format1(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

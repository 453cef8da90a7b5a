import SystemSupport

/// Where a long-running command says how far it has come: stderr, told whether it is a terminal.
public struct ProgressSink: Sendable {
    /// Whether the sink is a terminal, where one line is redrawn in place; elsewhere (a pipe, a
    /// container log) a redrawn line would be noise, so only each phase gets a line.
    let isTerminal: Bool
    /// Writes text as it is (no newline added).
    let write: @Sendable (String) -> Void

    /// A sink for tests and embedders.
    public init(isTerminal: Bool, write: @escaping @Sendable (String) -> Void) {
        self.isTerminal = isTerminal
        self.write = write
    }
}

/// How far a long command (`seed`, `backup`) has come: on a terminal one line redrawn at most ten
/// times a second with the amount done of the total, the rate and the time left; elsewhere one
/// line per phase. Without a sink it says nothing, so a command's own lines stay as they were.
struct Progress {
    /// What the command is doing, as the line's prefix: `seed demo`, `backup`.
    let task: String
    let sink: ProgressSink?
    /// Monotonic nanoseconds; injected so tests control the rate and the time left.
    let now: () -> UInt64
    private var phaseStart: UInt64 = 0
    private var started: UInt64?
    private var lastDrawn: UInt64?
    private var total = 0
    private var unit = Unit.items("")
    private var isDrawn = false

    /// What is counted, for the line: items with a name, or bytes shown in MB.
    enum Unit {
        case items(String)
        case bytes
    }

    init(task: String, sink: ProgressSink?, now: @escaping () -> UInt64 = SystemClock.monotonicNanoseconds) {
        self.task = task
        self.sink = sink
        self.now = now
    }

    /// Starts a phase of `total` units (0: a phase without a count); off a terminal, says it.
    mutating func begin(_ phase: String, total: Int = 0, unit: Unit = .items("")) {
        erase()
        self.total = total
        self.unit = unit
        phaseStart = now()
        if started == nil { started = phaseStart }
        lastDrawn = nil
        if sink?.isTerminal == false { sink?.write("\(task): \(phase)\n") }
    }

    /// Reports `done` units of the current phase; on a terminal redraws the line when a tenth of
    /// a second has passed since the last draw, or when the phase is complete.
    mutating func advance(to done: Int) {
        guard let sink, sink.isTerminal else { return }
        let time = now()
        if let lastDrawn, time &- lastDrawn < 100_000_000, done < total { return }
        lastDrawn = time
        sink.write("\r\u{1B}[2K" + line(done: done, elapsedNanos: time &- phaseStart))
        isDrawn = true
    }

    /// Ends the command's phases: off a terminal, says how long they took together; on one, erases
    /// the line so the command's own result stands alone.
    mutating func finish(_ summary: String) {
        erase()
        guard let sink, !sink.isTerminal else { return }
        let seconds = Double(now() &- (started ?? phaseStart)) / 1e9
        sink.write("\(task): \(summary) in \(Self.decimal(seconds)) s\n")
    }

    /// `120000 of 200000 calls (60%), 35200 calls/s, 3 s left`; the rate and the time left appear
    /// once some time has passed and something is done.
    func line(done: Int, elapsedNanos: UInt64) -> String {
        let percent = total > 0 ? min(100, done * 100 / total) : 0
        var text = "\(task): \(amount(done)) of \(amount(total)) (\(percent)%)"
        guard elapsedNanos > 0, done > 0 else { return text }
        let perSecond = Double(done) * 1e9 / Double(elapsedNanos)
        text += ", \(rate(perSecond))"
        if done < total {
            let left = (Double(total - done) / perSecond).rounded(.up)
            text += ", \(Int(left)) s left"
        }
        return text
    }

    private func amount(_ value: Int) -> String {
        switch unit {
        case .items(let name): name.isEmpty ? "\(value)" : "\(value) \(name)"
        case .bytes: "\(Self.decimal(Double(value) / 1e6)) MB"
        }
    }

    private func rate(_ perSecond: Double) -> String {
        switch unit {
        case .items(let name): "\(Int(perSecond)) \(name.isEmpty ? "" : name)/s"
        case .bytes: "\(Self.decimal(perSecond / 1e6)) MB/s"
        }
    }

    /// Erases a drawn line, so the next phase, result or error starts on a clean one.
    mutating func erase() {
        guard isDrawn else { return }
        sink?.write("\r\u{1B}[2K")
        isDrawn = false
    }

    /// One decimal place: `6.1`.
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

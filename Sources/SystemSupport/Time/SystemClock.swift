import Glibc

/// The two clocks the server reads: a monotonic one for durations and deadlines, and the wall
/// clock for timestamps (`Date` headers, log lines).
public enum SystemClock {
    /// Nanoseconds on `CLOCK_MONOTONIC`: never steps backwards, meaningful only as differences.
    public static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Whole seconds since the Unix epoch.
    public static func wallSeconds() -> Int64 { wallTime().seconds }

    /// Seconds since the Unix epoch and the milliseconds within that second.
    public static func wallTime() -> (seconds: Int64, milliseconds: Int) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return (Int64(time.tv_sec), time.tv_nsec / 1_000_000)
    }

    /// A duration in seconds, as a `Double` (metrics, log fields, help text); negative stays negative.
    public static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// A duration in whole nanoseconds; negative durations count as zero.
    public static func nanoseconds(_ duration: Duration) -> UInt64 {
        let parts = duration.components
        if parts.seconds < 0 || (parts.seconds == 0 && parts.attoseconds <= 0) { return 0 }
        let (whole, overflow) = UInt64(parts.seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        return whole &+ UInt64(parts.attoseconds / 1_000_000_000)
    }
}

extension Duration {
    /// The duration in seconds (metrics, log fields, timed waits).
    @inlinable
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The duration in whole nanoseconds, truncated toward zero, saturating at `Int64`'s bounds.
    @inlinable
    public var inNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, carry) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if carry { return attoseconds < 0 ? .min : .max }
        return sum
    }
}

/// One client's allowance of requests: a token bucket holding up to twice the rate (the burst),
/// refilled continuously at the rate, one token a request (issue 25, item 6).
///
/// Kept in integers: the level counts billionths of a request, so a nanosecond of refill adds
/// exactly `rate` units and no rounding drifts the sustained rate.
struct TokenBucket: Sendable {
    /// Units of one request.
    static let unit: Int64 = 1_000_000_000

    /// Requests per second sustained.
    let rate: Int64
    /// Units held now, at most `capacity`.
    private(set) var level: Int64
    /// When `level` was last brought up to date (monotonic nanoseconds).
    private(set) var updatedAt: UInt64

    /// A full bucket at `now`: a client seen for the first time may burst at once.
    init(rate: Int, now: UInt64) {
        self.rate = Int64(rate)
        self.level = 2 * Int64(rate) * Self.unit
        self.updatedAt = now
    }

    /// The most the bucket holds: bursts up to twice the sustained rate.
    var capacity: Int64 { 2 * rate * Self.unit }

    /// Takes one request's token at `now`: 0 when there was one, else the nanoseconds until there
    /// will be one (nothing is taken then, so a refused request costs its client nothing more).
    mutating func take(now: UInt64) -> Int64 {
        // The clock is monotonic, but a bucket read by two threads may see their instants in
        // either order; an earlier one refills nothing. From empty the bucket is full after
        // capacity / rate = 2 s, so a longer gap adds no more and cannot overflow.
        let elapsed = Int64(min(now &- min(now, updatedAt), 2 * UInt64(Self.unit)))
        level = min(capacity, level + elapsed * rate)
        updatedAt = max(updatedAt, now)
        if level >= Self.unit {
            level -= Self.unit
            return 0
        }
        return (Self.unit - level + rate - 1) / rate
    }
}

/// How `RecentsClient.follow` waits, reconnects and chooses its transport.
public struct FollowOptions: Sendable, Hashable {
    /// Seconds a long-poll is held by the server (0...30).
    public var wait: Int
    /// Whether to try the event stream (`GET …/events`) first; long-poll is the fallback.
    public var useEventStream: Bool
    /// The first reconnect delay in seconds; each failure doubles the cap, the delay is random below it.
    public var initialBackoff: Double
    /// The largest reconnect delay in seconds.
    public var maximumBackoff: Double
    /// Consecutive failed attempts after which the stream ends with the last error (nil: never).
    public var maximumFailures: Int?
    /// Events the event stream may buffer for a slow consumer before it reconnects instead.
    public var eventBufferCapacity: Int

    /// Creates options; the defaults suit an app on a phone.
    public init(
        wait: Int = 30, useEventStream: Bool = true, initialBackoff: Double = 0.5, maximumBackoff: Double = 30,
        maximumFailures: Int? = nil, eventBufferCapacity: Int = 64
    ) {
        self.wait = wait
        self.useEventStream = useEventStream
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.maximumFailures = maximumFailures
        self.eventBufferCapacity = eventBufferCapacity
    }

    /// The delay before reconnect attempt `failures` (1, 2, …): "full jitter", uniform in
    /// 0...min(maximum, initial × 2^(failures−1)), so clients cut off together do not return together.
    public func backoff(afterFailures failures: Int, using generator: inout some RandomNumberGenerator) -> Double {
        let exponent = Double(min(max(failures - 1, 0), 30))
        let cap = min(maximumBackoff, initialBackoff * pow2(exponent))
        return cap > 0 ? Double.random(in: 0...cap, using: &generator) : 0
    }

    private func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 2 }
        return value
    }
}

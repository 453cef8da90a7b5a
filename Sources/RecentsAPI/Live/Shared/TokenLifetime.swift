import RecentsAuth

/// The one rule for how long a live request (a parked long-poll, an open stream) may last: what
/// it asks for, but never past its token's `exp` (issue 10): then it ends saying the token expired.
struct TokenLifetime: Equatable {
    /// How long the request may last from now (zero or less: its token expired already).
    var duration: Duration
    /// Whether `duration` is the token's expiry rather than what was asked for.
    var endsByExpiry: Bool

    /// `wanted`, capped by the time left to the token `exchange` carries (none when auth is off).
    init(_ wanted: Duration, for exchange: Exchange, verifier: JWTVerifier?) {
        // Written with `if let`, not `tokenExpiry.flatMap { … }`: Swift 6.3.1's optimizer crashes on
        // the closure form in release builds (CopyPropagation, "Found outside of lifetime use").
        var timeLeft: Duration?
        if let expiry = exchange.context.tokenExpiry, let verifier { timeLeft = verifier.timeUntil(expiry) }
        self.init(wanted, timeLeft: timeLeft)
    }

    /// `wanted`, capped by `timeLeft` (nil: no token, or one that does not expire).
    init(_ wanted: Duration, timeLeft: Duration?) {
        if let timeLeft, timeLeft < wanted {
            self.duration = timeLeft
            self.endsByExpiry = true
        } else {
            self.duration = wanted
            self.endsByExpiry = false
        }
    }
}

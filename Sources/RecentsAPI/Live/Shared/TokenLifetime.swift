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
        self.init(wanted, timeLeft: exchange.context.tokenExpiry.flatMap { expiry in verifier?.timeUntil(expiry) })
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

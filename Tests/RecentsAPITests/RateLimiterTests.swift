import Synchronization
import Testing

@testable import RecentsAPI

/// The token buckets of issue 25, item 6: bursts to 2N, N per second sustained, one client never
/// touching another's allowance, and a fixed bound on memory however many clients there are.
@Suite struct RateLimiterTests {
    let clock = ManualClock()

    func limiter(rate: Int, buckets: Int = 1024) -> RateLimiter {
        RateLimiter(rate: rate, buckets: buckets, clock: clock.read)
    }

    /// How many of `count` requests of `key` are admitted at the present instant.
    func admitted(_ limiter: RateLimiter, _ key: RateLimitKey, count: Int) -> Int {
        (0..<count).filter { _ in limiter.admit(key) == nil }.count
    }

    @Test(arguments: [1, 5, 100])
    func aNewClientMayBurstToTwiceTheRate(rate: Int) {
        let limiter = limiter(rate: rate)
        #expect(admitted(limiter, .list("alice"), count: 2 * rate) == 2 * rate)
        #expect(limiter.admit(.list("alice")) == 1)
    }

    /// Ten simulated seconds at the rate: every request goes through; at twice the rate, the
    /// burst plus ten seconds' worth, and nothing more.
    @Test(arguments: [1, 7, 50])
    func theSustainedRateIsTheRate(rate: Int) {
        let limiter = limiter(rate: rate)
        let key = RateLimitKey.list("alice")
        _ = admitted(limiter, key, count: 2 * rate)  // spend the burst
        // Rounded up, so ten seconds' steps are at least ten seconds.
        let step = (1_000_000_000 + UInt64(rate) - 1) / UInt64(rate)
        var passed = 0
        for _ in 0..<(10 * rate) {
            clock.advance(by: .nanoseconds(step))
            if limiter.admit(key) == nil { passed += 1 }
        }
        #expect(passed == 10 * rate)

        let fast = self.limiter(rate: rate)
        var fastPassed = 0
        for _ in 0..<(20 * rate) {
            clock.advance(by: .nanoseconds(step / 2))
            if fast.admit(key) == nil { fastPassed += 1 }
        }
        // 10 s at 2N offered: the burst of 2N, then N per second (one less, at most, for rounding).
        #expect((2 * rate + 10 * rate - 1)...(2 * rate + 10 * rate) ~= fastPassed)
    }

    @Test func aRefusalSaysWhenToComeBackAndCostsNothing() {
        let limiter = limiter(rate: 2)
        let key = RateLimitKey.address("203.0.113.7")
        _ = admitted(limiter, key, count: 4)
        // Refused requests take nothing: however many were refused, a token half a second on.
        for _ in 0..<100 { #expect(limiter.admit(key) == 1) }
        clock.advance(by: .milliseconds(500))
        #expect(limiter.admit(key) == nil)
        #expect(limiter.admit(key) == 1)
    }

    @Test func oneClientLimitedLeavesEveryOtherAlone() {
        let limiter = limiter(rate: 3)
        #expect(admitted(limiter, .list("mallory"), count: 1000) == 6)
        #expect(admitted(limiter, .list("alice"), count: 6) == 6)
        #expect(admitted(limiter, .address("203.0.113.7"), count: 6) == 6)
        // A list and an address with the same text are different clients.
        #expect(admitted(limiter, .address("mallory"), count: 6) == 6)
    }

    /// An IPv6 client counts by its /64: a host cycling through its own addresses gains nothing.
    @Test func anIPv6ClientCountsByItsSlash64() {
        let limiter = limiter(rate: 1)
        #expect(admitted(limiter, .address("2001:db8:1:2::1"), count: 2) == 2)
        #expect(limiter.admit(.address("2001:db8:1:2:ffff:ffff:ffff:fffe")) == 1)
        #expect(limiter.admit(.address("2001:db8:1:2:0:0:0:1")) == 1)
        #expect(admitted(limiter, .address("2001:db8:1:3::1"), count: 2) == 2)
        #expect(admitted(limiter, .address("192.0.2.1"), count: 2) == 2)
        #expect(admitted(limiter, .address("192.0.2.2"), count: 2) == 2)
    }

    /// 100,000 distinct tokens' lists: the table never holds more than its bound, and a client in
    /// active use keeps its bucket (and so its limit) while the others come and go.
    @Test func memoryIsBoundedUnder100000DistinctClients() {
        let limiter = limiter(rate: 1, buckets: 4096)
        let busy = RateLimitKey.list("busy")
        _ = admitted(limiter, busy, count: 2)
        for index in 0..<100_000 {
            #expect(limiter.admit(.list("user-\(index)")) == nil)
            if index % 64 == 0 { #expect(limiter.admit(busy) == 1) }
        }
        #expect(limiter.bucketCount <= limiter.capacity)
        #expect(limiter.capacity == 4096)
        #expect(limiter.bucketCount > 4096 - RateLimiter.shardCount * 64)

        let defaults = RateLimiter(rate: 1, buckets: RateLimitSettings().buckets, clock: clock.read)
        for index in 0..<100_000 { _ = defaults.admit(.list("user-\(index)")) }
        #expect(defaults.bucketCount <= RateLimitSettings().buckets)
    }

    @Test func aClockReadOutOfOrderRefillsNothing() {
        var bucket = TokenBucket(rate: 1, now: 10_000_000_000)
        #expect(bucket.take(now: 10_000_000_000) == 0)
        #expect(bucket.take(now: 10_000_000_000) == 0)
        #expect(bucket.take(now: 9_000_000_000) == 1_000_000_000)
        #expect(bucket.take(now: 10_500_000_000) == 500_000_000)
        #expect(bucket.take(now: 11_000_000_000) == 0)
    }

    /// A bucket idle for a year holds no more than the burst (and the arithmetic does not overflow).
    @Test func aLongIdleBucketHoldsOnlyTheBurst() {
        let limiter = limiter(rate: 1000)
        let key = RateLimitKey.list("alice")
        _ = admitted(limiter, key, count: 2000)
        clock.advance(by: .seconds(365 * 86_400))
        #expect(admitted(limiter, key, count: 2001) == 2000)
        // At the largest rate the flag takes, centuries idle.
        var bucket = TokenBucket(rate: 1_000_000, now: 0)
        #expect(bucket.take(now: 0) == 0)
        #expect(bucket.take(now: UInt64.max / 2) == 0)
        #expect(bucket.level == bucket.capacity - TokenBucket.unit)
    }
}

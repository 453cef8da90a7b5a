import Foundation
import RecentsAPI
import Synchronization
import SystemSupport

/// The rate limiter's cost per request (issue 25), and whether a client being limited slows
/// another: nanoseconds per `admit` for one client alone, for a stream of new clients (every call
/// an eviction), and for one client while another thread floods the limiter with a client refused
/// on nearly every call. Equal figures with and without the flood mean the flood costs the other
/// client nothing. (At these loop speeds both clients outrun any rate, so most calls are refusals;
/// an admitted call does the same work: one lookup, a few integer steps, one store.)
enum RateLimitBench {
    struct Figure {
        var name: String
        /// Median nanoseconds per `admit` of the measured thread.
        var nanoseconds: Double
    }

    static func run(iterations: Int?, sink: inout Int) -> [Figure] {
        let rounds = iterations ?? 15
        let calls = 200_000
        var figures: [Figure] = []

        let alone = RateLimiter(rate: 1000, buckets: 65_536)
        let single = RateLimitKey.list("alice")
        figures.append(
            .init(
                name: "one client, admitted", nanoseconds: perCall(rounds, calls, &sink) { alone.admit(single) == nil })
        )

        let churn = RateLimiter(rate: 10, buckets: 4096)
        let keys = (0..<calls).map { RateLimitKey.list("user-\($0)") }
        var next = 0
        figures.append(
            .init(
                name: "a new client every call (evictions)",
                nanoseconds: perCall(rounds, calls, &sink) {
                    next = (next + 1) % keys.count
                    return churn.admit(keys[next]) == nil
                }))

        // Two threads, two clients: the measured one within its rate, the other refused on every
        // call. Baseline: the flood spins on a limiter of its own (the same load on the cores).
        // Then on the same limiter, in another shard (the usual case) and in the same shard (1 in
        // 16 pairs of clients: the two share one lock, held for a lookup and a few integer steps).
        let alice = RateLimitKey.list("alice")
        let shard = alice.shard(of: RateLimiter.shardCount)
        let names = (0..<1000).map { RateLimitKey.list("mallory-\($0)") }
        let sameShard = names.first { $0.shard(of: RateLimiter.shardCount) == shard } ?? names[0]
        let otherShard = names.first { $0.shard(of: RateLimiter.shardCount) != shard } ?? names[0]
        for (name, flooder, shared) in [
            ("one client, another thread flooding a limiter of its own", otherShard, false),
            ("one client, another refused on every call, other shard", otherShard, true),
            ("one client, another refused on every call, same shard", sameShard, true),
        ] {
            let limiter = RateLimiter(rate: 1000, buckets: 65_536)
            let own = RateLimiter(rate: 1, buckets: 16)
            let target = shared ? limiter : own
            let refused = refusedClient(flooder, on: target)
            let stop = Atomic<Bool>(false)
            let count = Atomic<Int>(0)
            let thread = JoinableThread.start(name: "bench-flood") {
                var local = 0
                while !stop.load(ordering: .relaxed) {
                    if target.admit(refused) != nil { local += 1 }
                }
                count.store(local, ordering: .relaxed)
            }
            let nanoseconds = perCall(rounds, calls, &sink) { limiter.admit(alice) == nil }
            stop.store(true, ordering: .relaxed)
            thread.join()
            sink &+= count.load(ordering: .relaxed)
            figures.append(.init(name: name, nanoseconds: nanoseconds))
        }
        return figures
    }

    /// `key`, with its bucket on `limiter` spent: every later call of it is refused.
    private static func refusedClient(_ key: RateLimitKey, on limiter: RateLimiter) -> RateLimitKey {
        while limiter.admit(key) == nil {}
        return key
    }

    /// Median nanoseconds per call of `body` over `rounds` batches of `calls`.
    private static func perCall(_ rounds: Int, _ calls: Int, _ sink: inout Int, _ body: () -> Bool) -> Double {
        let sample = Measure.median(iterations: rounds, sink: &sink, digest: { $0 }) {
            var admitted = 0
            for _ in 0..<calls where body() { admitted += 1 }
            return admitted
        }
        return sample.wall * 1_000_000 / Double(calls)
    }
}

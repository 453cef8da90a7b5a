import RecentsCore

/// Builds a believable call history: a few peers with different habits, grouped runs, missed streaks.
///
/// Uses its own generator and only integer arithmetic so the same `seed` and `now` give the same
/// calls everywhere (Swift's `SystemRandomNumberGenerator` and `Int.random(in:using:)` are not
/// guaranteed stable across releases, so draws go through `uniform`).
enum DemoHistory {
    /// How far back the history reaches.
    static let window = 30 * 86_400

    /// The cast, with relative call frequency: a partner, family, friends, a colleague, a delivery man.
    static let peers: [(peer: Peer, weight: Int, videoPercent: Int)] = [
        (Peer(id: "alice", name: "Alice Moreau"), 30, 35),
        (Peer(id: "bruno", name: "Bruno Lefèvre"), 15, 10),
        (Peer(id: "chloe", name: "Chloé Dubois"), 14, 40),
        (Peer(id: "david", name: "David Okafor"), 12, 5),
        (Peer(id: "emma", name: "Emma Lindqvist"), 10, 25),
        (Peer(id: "farid", name: "Farid Haddad"), 8, 0),
        (Peer(id: "grace", name: "Grace Kim"), 7, 15),
        (Peer(id: "hugo", name: "Hugo Martins"), 4, 0),
    ]

    /// `count` calls, oldest first, timestamps in `now - window ... now`, ids `seed-<seed>-<n>` from 1.
    static func generate(count: Int, seed: UInt64, now: Int) -> [Call] {
        guard count > 0 else { return [] }
        var random = SplitMix64(seed: seed)

        // Runs first (so their number is known), then spread evenly over the window, newest at `now`.
        var runLengths: [Int] = []
        var total = 0
        while total < count {
            let length = min(count - total, runLength(&random))
            runLengths.append(length)
            total += length
        }
        let slot = max(1, window / runLengths.count)
        var calls: [Call] = []
        calls.reserveCapacity(count)
        for (runIndex, length) in runLengths.enumerated() {
            // runIndex 0 is the oldest run; its last call is the latest moment in its slot.
            let slotEnd = now - (runLengths.count - 1 - runIndex) * slot
            let jitter = uniform(&random, slot / 2 + 1)
            var timestamp = daytime(max(0, slotEnd - jitter - length * 15 * 60))
            let pick = pickPeer(&random)
            let video = uniform(&random, 100) < pick.videoPercent
            // A third of multi-call runs are someone trying to reach you: a missed streak.
            let missedStreak = length > 1 && uniform(&random, 3) == 0
            for _ in 0..<length {
                let (direction, endReason) = missedStreak ? (.incoming, .missed) : outcome(&random)
                // Missed and busy calls never connected, so they last 0 s; others are mostly short.
                let connected = endReason == .hangup || endReason == .disconnect
                let draw = uniform(&random, 1000)
                let duration = connected ? 5 + 3595 * draw * draw * draw / 1_000_000_000 : 0
                calls.append(
                    Call(
                        id: "seed-\(seed)-\(calls.count + 1)", peer: pick.peer, direction: direction,
                        endReason: endReason, video: video, duration: duration, timestamp: Int64(min(now, timestamp))))
                timestamp += 60 + uniform(&random, 14 * 60) + duration
            }
        }
        return calls
    }

    /// The same day at the same relative moment between 08:00 and 22:00 UTC: people rarely call at 3 am.
    private static func daytime(_ timestamp: Int) -> Int {
        let day = timestamp - timestamp % 86_400
        return day + 8 * 3600 + (timestamp % 86_400) * 14 / 24
    }

    /// 1 most of the time, sometimes 2 to 5: people call back, or try again and again.
    private static func runLength(_ random: inout SplitMix64) -> Int {
        let draw = uniform(&random, 100)
        return draw < 55 ? 1 : draw < 80 ? 2 : draw < 92 ? 3 : draw < 97 ? 4 : 5
    }

    private static func pickPeer(
        _ random: inout SplitMix64
    ) -> (peer: Peer, weight: Int, videoPercent: Int) {
        var draw = uniform(&random, peers.reduce(0) { $0 + $1.weight })
        for entry in peers {
            if draw < entry.weight { return entry }
            draw -= entry.weight
        }
        return peers[0]
    }

    /// Direction and end reason: mostly answered calls, some missed, busy (declined) and dropped ones.
    private static func outcome(_ random: inout SplitMix64) -> (CallDirection, EndReason) {
        switch uniform(&random, 100) {
        case 0..<36: (.outgoing, .hangup)
        case 36..<66: (.incoming, .hangup)
        case 66..<82: (.incoming, .missed)
        case 82..<88: (.outgoing, .missed)
        case 88..<93: (.outgoing, .busy)
        case 93..<96: (.incoming, .busy)
        default: (.outgoing, .disconnect)
        }
    }

    /// A draw in `0..<bound` by plain modulo: bias is negligible for these small bounds and it is stable.
    private static func uniform(_ random: inout SplitMix64, _ bound: Int) -> Int {
        Int(random.next() % UInt64(max(1, bound)))
    }
}

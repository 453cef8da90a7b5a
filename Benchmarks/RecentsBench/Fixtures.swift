import RecentsCore

/// Reproducible realistic data for the benchmarks (SplitMix64, fixed seeds).
struct BenchRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum Fixtures {
    static let peers: [Peer] = (0..<200).map { Peer(id: "peer-\($0)", name: "Contact Number \($0)") }

    /// `count` ordered calls: a few peers calling back and forth, clustered in time.
    static func orderedCalls(_ count: Int, seed: UInt64 = 1) -> [Call] {
        var random = BenchRandom(seed: seed)
        var calls: [Call] = []
        calls.reserveCapacity(count)
        var timestamp: Int64 = 1_764_464_400
        var peer = peers[0]
        for index in 0..<count {
            if Int.random(in: 0..<3, using: &random) == 0 {
                peer = peers[Int.random(in: 0..<peers.count, using: &random)]
            }
            timestamp -= Int64.random(in: 1...7200, using: &random)
            let direction: CallDirection = Bool.random(using: &random) ? .incoming : .outgoing
            let end: EndReason = Int.random(in: 0..<4, using: &random) == 0 ? .missed : .hangup
            calls.append(
                Call(
                    id: "c-\(count - index)", peer: peer, direction: direction, endReason: end,
                    video: Int.random(in: 0..<10, using: &random) == 0,
                    duration: Int.random(in: 0...3600, using: &random),
                    timestamp: timestamp))
        }
        return calls
    }

    /// A realistic row at `timestamp` with id `id`.
    static func row(id: String, timestamp: Int64, random: inout BenchRandom) -> Row {
        let count = Int.random(in: 1...3, using: &random)
        let missed = Int.random(in: 0..<4, using: &random) == 0
        let incoming = missed || Bool.random(using: &random)
        let outgoing = !missed && (!incoming || Bool.random(using: &random))
        return Row(
            id: id, peer: peers[Int.random(in: 0..<peers.count, using: &random)], count: count,
            callIds: [id] + (1..<count).map { "\(id)-\($0)" }, timestamp: timestamp, missed: missed,
            incoming: incoming, outgoing: outgoing, video: Int.random(in: 0..<10, using: &random) == 0,
            duration: count == 1 ? Int.random(in: 0...3600, using: &random) : nil,
            status: Row.status(missed: missed, incoming: incoming, outgoing: outgoing), revealed: false,
            editing: false)
    }

    /// `n` rows in API order; timestamps step by 10 s so inserts can slot in between.
    static func rows(_ n: Int, random: inout BenchRandom) -> [Row] {
        (0..<n).map { index in
            row(id: "c-\(1_000_000 + n - index)", timestamp: 1_764_464_400 - Int64(index) * 10, random: &random)
        }
    }

    /// A new version of `old`: 10% deleted, 10% inserted, 5% changed (API-ordered), then `movedPercent`% moved.
    static func nextVersion(of old: [Row], movedPercent: Int, random: inout BenchRandom) -> [Row] {
        let n = old.count
        var new = old.filter { _ in Int.random(in: 0..<100, using: &random) >= 10 }
        for _ in 0..<(n * 5 / 100) where !new.isEmpty {
            let index = Int.random(in: 0..<new.count, using: &random)
            new[index].revealed.toggle()
            new[index].editing = true
        }
        for serial in 0..<(n / 10) {
            let slot = Int64.random(in: 0..<Int64(n), using: &random)
            new.append(row(id: "n-\(serial)", timestamp: 1_764_464_400 - slot * 10 + 5, random: &random))
        }
        new.sort(by: Row.precedes)
        for _ in 0..<(n * movedPercent / 100) where new.count > 1 {
            let from = Int.random(in: 0..<new.count, using: &random)
            let moved = new.remove(at: from)
            new.insert(moved, at: Int.random(in: 0...new.count, using: &random))
        }
        return new
    }
}

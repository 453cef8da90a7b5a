import Foundation

/// The seed of a randomized test: `RECENTS_SEED` when set (to replay a failure), else a fresh one;
/// printed either way, with the line that replays it.
public func testSeed(_ name: String) -> UInt64 {
    let seed =
        ProcessInfo.processInfo.environment["RECENTS_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
    print("\(name): seed \(seed) (replay with RECENTS_SEED=\(seed))")
    return seed
}

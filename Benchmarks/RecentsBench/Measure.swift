/// Timing helpers: monotonic clock, medians in milliseconds.
enum Measure {
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// The median wall time of `iterations` runs of `body` (after one warm-up run).
    ///
    /// `body` returns a number derived from its result, summed into `sink` so the optimiser
    /// cannot drop the measured work.
    static func median(iterations: Int, sink: inout Int, _ body: () throws -> Int) rethrows -> Double {
        let clock = ContinuousClock()
        sink &+= try body()
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<Swift.max(1, iterations) {
            let start = clock.now
            sink &+= try body()
            samples.append(milliseconds(clock.now - start))
        }
        samples.sort()
        let middle = samples.count / 2
        return samples.count % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2
    }
}

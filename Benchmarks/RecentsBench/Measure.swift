import Foundation
import SystemSupport

/// Timing helpers: medians in milliseconds of wall time and of this thread's CPU time.
///
/// Both are reported because the benchmark machine is shared: wall time is the figure asked
/// for, CPU time shows what the code costs when another build is competing for the cores.
enum Measure {
    struct Sample {
        var wall: Double
        var cpu: Double
    }

    static func milliseconds(_ duration: Duration) -> Double {
        SystemClock.seconds(duration) * 1000
    }

    static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Median wall and CPU times of `iterations` runs of `body` (after one warm-up run).
    ///
    /// Each result is digested into `sink` (so the optimiser cannot drop the work) and freed
    /// only after the clock stops: the figure is the cost of building it, not of releasing it.
    static func median<Result>(
        iterations: Int, sink: inout Int, digest: (Result) -> Int, _ body: () throws -> Result
    ) rethrows -> Sample {
        let clock = ContinuousClock()
        sink &+= digest(try body())
        var walls: [Double] = []
        var cpus: [Double] = []
        for _ in 0..<Swift.max(1, iterations) {
            let cpuStart = threadCPUMilliseconds()
            let start = clock.now
            let result = try body()
            walls.append(milliseconds(clock.now - start))
            cpus.append(threadCPUMilliseconds() - cpuStart)
            sink &+= digest(result)
        }
        return Sample(wall: median(walls), cpu: median(cpus))
    }
}

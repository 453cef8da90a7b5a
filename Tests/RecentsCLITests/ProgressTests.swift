import Synchronization
import Testing

@testable import RecentsCLI

/// The progress line of long commands (issue 43): redrawn in place on a terminal, one line per
/// phase elsewhere, on a clock the test moves.
@Suite struct ProgressTests {
    /// A progress reporter on a manual clock, writing into a buffer.
    final class Harness: Sendable {
        let written = Mutex<[String]>([])
        let clock = Atomic<UInt64>(1_000_000_000)

        func progress(terminal: Bool) -> Progress {
            Progress(
                task: "seed demo",
                sink: ProgressSink(isTerminal: terminal) { text in self.written.withLock { $0.append(text) } },
                now: { self.clock.load(ordering: .relaxed) })
        }

        func advanceClock(milliseconds: UInt64) { clock.add(milliseconds * 1_000_000, ordering: .relaxed) }
    }

    @Test func offATerminalEachPhaseIsOneLineAndNothingIsRedrawn() {
        let harness = Harness()
        var progress = harness.progress(terminal: false)
        progress.begin("generating 3000 calls")
        progress.begin("posting 3000 calls", total: 3000, unit: .items("calls"))
        for done in stride(from: 1000, through: 3000, by: 1000) {
            harness.advanceClock(milliseconds: 500)
            progress.advance(to: done)
        }
        progress.finish("posted 3000 calls")
        #expect(
            harness.written.withLock { $0 } == [
                "seed demo: generating 3000 calls\n", "seed demo: posting 3000 calls\n",
                "seed demo: posted 3000 calls in 1.5 s\n",
            ])
    }

    @Test func onATerminalTheLineShowsTheRateAndTimeLeftAtMostTenTimesASecond() {
        let harness = Harness()
        var progress = harness.progress(terminal: true)
        progress.begin("posting", total: 4000, unit: .items("calls"))
        #expect(harness.written.withLock { $0 }.isEmpty, "a terminal gets no phase lines")
        harness.advanceClock(milliseconds: 500)
        progress.advance(to: 1000)
        // Within the same tenth of a second: not drawn again.
        harness.advanceClock(milliseconds: 50)
        progress.advance(to: 1100)
        harness.advanceClock(milliseconds: 450)
        progress.advance(to: 2000)
        // The last amount is always drawn, however soon.
        harness.advanceClock(milliseconds: 10)
        progress.advance(to: 4000)
        progress.finish("posted")
        let erase = "\r\u{1B}[2K"
        #expect(
            harness.written.withLock { $0 } == [
                erase + "seed demo: 1000 calls of 4000 calls (25%), 2000 calls/s, 2 s left",
                erase + "seed demo: 2000 calls of 4000 calls (50%), 2000 calls/s, 1 s left",
                erase + "seed demo: 4000 calls of 4000 calls (100%), 3960 calls/s",
                erase,
            ])
    }

    @Test func bytesAreShownInMegabytes() {
        var progress = Progress(task: "backup", sink: nil)
        progress.begin("copying", total: 12_000_000, unit: .bytes)
        #expect(
            progress.line(done: 3_000_000, elapsedNanos: 500_000_000)
                == "backup: 3.0 MB of 12.0 MB (25%), 6.0 MB/s, 2 s left")
    }

    @Test func withoutASinkNothingIsSaid() {
        var progress = Progress(task: "seed demo", sink: nil)
        progress.begin("posting", total: 10)
        progress.advance(to: 10)
        progress.finish("done")
        #expect(progress.line(done: 0, elapsedNanos: 0) == "seed demo: 0 of 10 (0%)")
    }
}

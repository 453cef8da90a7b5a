import Synchronization
import SystemSupport

@testable import RecentsCLI

/// A command line running on a thread of its own (`follow` and `seed` block their caller until
/// their async work ends, which must not tie up a thread of Swift's cooperative pool).
struct CommandThread {
    /// Standard output lines as they are printed; ends when the command returns.
    let lines: AsyncStream<String>
    /// Standard error lines as they are printed; ends when the command returns.
    let errors: AsyncStream<String>
    /// The whole run, once the command returned.
    let finished: Task<Run, Never>

    /// Starts `recents ARGUMENTS` with `environment`.
    init(_ arguments: [String], environment: [String: String] = [:]) {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        let (errors, errorContinuation) = AsyncStream.makeStream(of: String.self)
        let captured = Captured()
        let output = Output(
            standard: { line in
                captured.lines.withLock { $0.standard.append(line) }
                continuation.yield(line)
            },
            error: { line in
                captured.lines.withLock { $0.error.append(line) }
                errorContinuation.yield(line)
            })
        self.lines = lines
        self.errors = errors
        finished = Task {
            await withCheckedContinuation { (done: CheckedContinuation<Run, Never>) in
                _ = JoinableThread.start(name: "cli-test") {
                    let status = CLI.run(arguments: arguments, environment: environment, output: output)
                    continuation.finish()
                    errorContinuation.finish()
                    done.resume(
                        returning: captured.lines.withLock {
                            Run(status: status, standard: $0.standard, error: $0.error)
                        })
                }
            }
        }
    }

    /// Runs `recents ARGUMENTS` to its end.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async -> Run {
        await CommandThread(arguments, environment: environment).finished.value
    }

    private final class Captured: Sendable {
        let lines = Mutex<(standard: [String], error: [String])>(([], []))
    }
}

import Dispatch
import Glibc
import Synchronization
import SystemSupport

/// Runs a command's async work to its end from the synchronous command line, cancelling it on
/// SIGINT or SIGTERM so that it closes its connections and returns its status normally.
enum SignalCancellation {
    /// Blocks the calling thread until `task` ends and returns its value; SIGINT and SIGTERM cancel it.
    ///
    /// Call it from a thread outside Swift's cooperative pool (the main thread does), since it blocks.
    static func wait(for task: Task<Int32, Never>) -> Int32 {
        // SIG_IGN first, or the default action would kill the process before the source sees the signal.
        let previous = [SIGINT, SIGTERM].map { ($0, signal($0, SIG_IGN)) }
        let queue = DispatchQueue(label: "recents.signals")
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { task.cancel() }
            source.resume()
            return source
        }
        let outcome = Outcome()
        Task {
            let status = await task.value
            outcome.finish(status)
        }
        let status = outcome.wait()
        sources.forEach { $0.cancel() }
        for (number, handler) in previous { signal(number, handler) }
        return status
    }

    /// A status handed from the task to the waiting thread.
    private final class Outcome: Sendable {
        private let status = Mutex<Int32>(1)
        private let latch = ThreadLatch()

        func finish(_ value: Int32) {
            status.withLock { $0 = value }
            latch.countDown()
        }

        func wait() -> Int32 {
            latch.wait()
            return status.withLock { $0 }
        }
    }
}

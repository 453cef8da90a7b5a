import SystemSupport

/// A fixed set of reader threads, each owning one connection, serving read jobs in FIFO order.
///
/// In WAL mode readers never wait for the writer, nor the writer for them
/// (https://sqlite.org/wal.html#concurrency), so reads proceed during a write batch; each read
/// sees the last commit before its transaction's first read.
final class ReaderPool<Connection>: Sendable {
    typealias Job = @Sendable (Connection) -> Void

    private let queue = JobQueue<Job>()
    private let finished: [JoinableThread]

    /// Starts one thread per connection; each connection is moved to its thread and used only there.
    init(connections: [Connection], name: String = "recents-read") {
        let queue = self.queue
        finished = connections.enumerated().map { index, connection in
            startThread(named: "\(name)-\(index)", owning: connection) { connection in
                while let jobs = queue.take(max: 1, wait: true) {
                    for job in jobs { job(connection) }
                }
            }
        }
    }

    /// Queues a job; false when the pool is closed.
    func submit(_ job: @escaping Job) -> Bool { queue.submit(job) }

    /// Stops accepting jobs, lets the threads drain the queue and waits for them to end.
    func close() {
        queue.close()
        // On a store thread (a completion dropping the last reference) waiting could deadlock;
        // the readers then end on their own after draining.
        if !isStoreThread { for thread in finished { thread.join() } }
    }
}

import Foundation
import RecentsTestSupport

/// Client threads writing to a real server process at once, each on a keep-alive connection of its
/// own: the load the crash-safety and backup tests put on the binary while they kill it or copy
/// its database.
enum WriterThreads {
    /// Starts `count` threads; thread `writer` runs `body(writer, client)` with its own connection
    /// to `port` (5 s timeout; a thread that cannot connect writes nothing). `body` returns when a
    /// write fails (the server died) or it is told to stop; the group is left when all have.
    static func start(
        _ count: Int, port: Int, _ body: @escaping @Sendable (_ writer: Int, _ client: TestHTTPClient) -> Void
    ) -> DispatchGroup {
        let group = DispatchGroup()
        for writer in 0..<count {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let client = try? TestHTTPClient(port: port, timeout: .seconds(5)) else { return }
                body(writer, client)
            }
        }
        return group
    }
}

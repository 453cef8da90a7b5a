import Foundation
import RecentsClient
import Testing

@Suite("follow over a real event-stream socket", .timeLimit(.minutes(1)))
struct RealSocketEventStreamTests {
    @Test func eventsArriveAsTheyAreWrittenAndCancellingClosesTheSocket() async throws {
        let server = try RawEventServer()
        defer { server.stop() }
        let client = RecentsClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        var happenings = server.happenings.makeAsyncIterator()
        let (delivered, deliver) = AsyncStream.makeStream(of: Int.self)
        let consumer = Task {
            for try await event in client.follow(list: "alice", options: FollowOptions(maximumFailures: 3)) {
                deliver.yield(event.to)
            }
        }
        var deliveries = delivered.makeAsyncIterator()
        let first = await happenings.next()
        guard case .request(let target) = first else {
            Issue.record("expected a request, got \(String(describing: first))")
            return
        }
        #expect(target.hasPrefix("/v1/lists/alice/events?"))
        // One event, then another later on the same connection: each arrives before the stream ends.
        server.send(": keep-alive\n\nevent: transition\ndata: \(wireTransition(from: nil, to: 1, inserts: ["a"]))\n\n")
        #expect(await deliveries.next() == 1)
        server.send("event: transition\ndata: \(wireTransition(from: 1, to: 2, inserts: ["b"], count: 2))\n\n")
        #expect(await deliveries.next() == 2)
        consumer.cancel()
        #expect(await happenings.next() == .closedByClient)
        _ = await consumer.result
    }
}

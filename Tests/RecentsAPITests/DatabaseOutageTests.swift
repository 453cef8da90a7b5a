import Foundation
import HTTPClient
import RecentsTestSupport
import Testing

@testable import RecentsAPI
@testable import RecentsStore

/// Streams, long-polls and /healthz while PostgreSQL is away (issue 24): the server's database is
/// a throwaway cluster of the test's own, stopped and started again under it.
@Suite(.enabled(if: ThrowawayCluster.isAvailable)) struct DatabaseOutageTests {
    static let day = 1_764_460_800

    /// A server on `cluster` with one reader, so that reads run one at a time in the order they
    /// were asked for, and heartbeats every 0.1 s, so that a stream shows at once it is open.
    static func server(on cluster: ThrowawayCluster) throws -> TestServer {
        try TestServer(on: TestDatabase(.postgresql, postgresURL: cluster.url), socket: true) { configuration in
            configuration.store.readers = 1
            configuration.events.heartbeat = .milliseconds(100)
        }
    }

    /// Holds the server's only reader until `release()`: the reads asked for meanwhile (a stream's
    /// or a long-poll's next computation) run after it, in order.
    final class ReaderGate {
        private let gate = DispatchSemaphore(value: 0)
        private let store: any ListStore

        init(_ server: TestServer) {
            store = server.store
            let entered = DispatchSemaphore(value: 0)
            store.read({ [gate] (_: any StoreReader) -> Int in
                entered.signal()
                gate.wait()
                return 0
            }) { _ in }
            entered.wait()
        }

        /// Lets the reader go on, and returns once every read asked for before this call is done
        /// (a last read behind them has completed, with whatever result).
        func releaseAndDrain() {
            let done = DispatchSemaphore(value: 0)
            store.read({ _ in 0 }) { _ in done.signal() }
            gate.signal()
            done.wait()
        }
    }

    /// A server on a new throwaway cluster whose alice holds c-1 (version 1).
    static func serverWithOneCall() throws -> (TestServer, ThrowawayCluster) {
        let cluster = try ThrowawayCluster()
        let server = try Self.server(on: cluster)
        #expect(
            try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: Self.day)).status
                == 201)
        return (server, cluster)
    }

    /// Writes c-2 (version 2) while the only reader is held, then stops the cluster and lets the
    /// reader go: the computation the write's commit started finds the database gone.
    static func writeAsTheDatabaseGoes(_ server: TestServer, _ cluster: ThrowawayCluster) throws {
        let reader = ReaderGate(server)
        #expect(
            try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-2", timestamp: Self.day + 60)).status
                == 201)
        try cluster.stop()
        reader.releaseAndDrain()
    }

    /// Posts `id` to alice until it is stored (the first tries after an outage may find the store
    /// still reconnecting, 503); the version.
    static func postEventually(_ server: TestServer, _ id: String, timestamp: Int) throws -> Int? {
        let deadline = Date().addingTimeInterval(30)
        while true {
            let answer = try server.request("POST", "/v1/lists/alice/calls", body: callJSON(id, timestamp: timestamp))
            if answer.status == 201 || Date() > deadline { return int(answer.json["version"]) }
            #expect(answer.status == 503, "\(answer.text)")
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    @Test func anOpenStreamStaysOpenWhileTheDatabaseIsAwayAndShowsTheWriteItWasComputingAfter() throws {
        let (server, cluster) = try Self.serverWithOneCall()
        let stream = try EventStreamClient(server, "/v1/lists/alice/events")
        #expect(try stream.nextTransition().to == 1)

        // The write's commit claims the stream; its computation waits for the reader, and by the
        // time it runs the database is gone.
        try Self.writeAsTheDatabaseGoes(server, cluster)

        // Still open, with its heartbeats (an ended stream would end its body instead, and the
        // transition below would never come).
        #expect(try stream.next().isComment)
        try cluster.start()
        let next = try stream.nextTransition()
        #expect(next.from == 1 && next.to == 2)
        #expect(next.inserts.map(\.id) == ["c-2"])
    }

    @Test func aParkedLongPollStaysParkedWhileTheDatabaseIsAwayAndIsAnsweredAfter() throws {
        let (server, cluster) = try Self.serverWithOneCall()
        let poll = try server.client()
        try poll.sendRaw(Array("GET /v1/lists/alice/transitions?since=1&wait=60 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try server.waitForParked(1))

        try Self.writeAsTheDatabaseGoes(server, cluster)

        // Its computation failed: it waits on, counted among the parked ones.
        #expect(try server.waitForParked(1))
        try cluster.start()
        let answer = try poll.readResponse()
        #expect(answer.status == 200, "\(answer.text)")
        let reply = try answer.decode(TransitionReply.self)
        #expect(reply.from == 1 && reply.to == 2)
        #expect(reply.inserts.map(\.id) == ["c-2"])
    }

    @Test func aStreamOpenedWhileTheDatabaseIsAwayGets200AndItsFirstEventOnceItIsBack() throws {
        let (server, cluster) = try Self.serverWithOneCall()
        try cluster.kill()

        let health = try server.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "degraded")
        #expect(health.json["reason"] as? String == "the database does not answer")
        let refused = try server.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("c-2", timestamp: Self.day + 60))
        #expect(refused.status == 503)
        #expect(refused.json["type"] as? String == "storage-unavailable")

        // What a browser's EventSource opens (or reopens) meanwhile: 200 at once, then heartbeats.
        let stream = try EventStreamClient(server, "/v1/lists/alice/events")
        #expect(stream.head.status == 200)
        #expect(stream.head.header("Content-Type") == "text/event-stream")
        #expect(try stream.next().isComment)
        try cluster.start()
        let first = try stream.nextTransition()
        #expect(first.reason == .initial && first.from == nil && first.to == 1)

        #expect(try Self.postEventually(server, "c-2", timestamp: Self.day + 60) == 2)
        let next = try stream.nextTransition()
        #expect(next.from == 1 && next.to == 2)
        #expect(try server.request("GET", "/healthz").text == #"{"status":"ok"}"#)
    }
}

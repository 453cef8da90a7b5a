import Foundation
import RecentsClient
import RecentsCore
import Testing

/// How `RecentsClient.send(_:)` puts each `ListAction` on the wire, and which answers keep it queued.
@Suite("ListAction requests")
struct ActionRequestTests {
    /// A client whose server answers every write with `status` and a body each reply type can read.
    static func client(status: Int = 200) -> (RecentsClient, CannedTransport) {
        let body =
            status < 300
            ? #"{"version":7,"epoch":"e1","revealedRowId":null,"changed":true,"editing":false,"outcome":"open","#
                + #""option":null,"offset":-74,"deletedCallIds":[]}"#
            : #"{"type":"t","title":"","status":\#(status)}"#
        let transport = CannedTransport { _ in TransportResponse(status: status, body: Data(body.utf8)) }
        return (RecentsClient(baseURL: URL(string: "http://recents.test/base")!, transport: transport), transport)
    }

    static let gesture = Gesture(initialOffset: 0, offset: -60, velocity: -30)

    /// Each intent, and the method, path (with query) and body it must be sent as.
    static let cases: [(ListIntent, ViewParameters, String, String, String)] = [
        (.setEditing(true), .default, "PUT", "/base/v1/lists/alice/editing", #"{"editing":true}"#),
        (
            .reveal(rowId: "c:1", revealed: false), .default, "PUT", "/base/v1/lists/alice/rows/c:1/reveal",
            #"{"revealed":false}"#
        ),
        (
            .release(rowId: "c-1", gesture: gesture), .default, "POST", "/base/v1/lists/alice/rows/c-1/gesture",
            #"{"buttonWidth":74,"initialOffset":0,"offset":-60,"velocity":-30}"#
        ),
        (
            .deleteRow(rowId: "c-1", scope: .everyone), ViewParameters(filter: .missed, limit: 5, tz: -300), "POST",
            "/base/v1/lists/alice/rows/c-1/options/delete?filter=missed&limit=5&tz=-300", #"{"scope":"everyone"}"#
        ),
        (.clear(scope: .me), .default, "POST", "/base/v1/lists/alice/clear", #"{"scope":"me"}"#),
    ]

    @Test func everyIntentIsItsWriteUnderItsKeyWithTheSameBytesEachTime() async throws {
        for (intent, view, method, path, body) in Self.cases {
            let (client, transport) = Self.client()
            let action = ListAction(id: "key-\(method)-\(path.count)", list: "alice", intent: intent, view: view)
            let reply = try await client.send(action)
            #expect(reply.version == 7 && reply.epoch == "e1")
            _ = try await client.send(action)
            let requests = transport.requests
            #expect(requests.count == 2)
            for request in requests {
                let target = request.url.path + (request.url.query.map { "?" + $0 } ?? "")
                #expect(request.method == method && target == path, "\(intent)")
                #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == body, "\(intent)")
                #expect(request.header("Idempotency-Key") == action.id, "\(intent)")
            }
        }
    }

    @Test(arguments: [401, 408, 429, 500, 502, 503, 504])
    func anAnswerThatMayChangeKeepsTheActionWaiting(status: Int) async throws {
        let (client, _) = Self.client(status: status)
        let queue = try ActionQueue(client: client)
        try await queue.enqueue(ListAction(id: "k", list: "alice", intent: .setEditing(true), view: .default))
        guard case .stalled = await queue.sendNext() else {
            Issue.record("status \(status) ended the action")
            return
        }
        #expect(await queue.waitingCount == 1)
    }

    @Test(arguments: [400, 403, 404, 409, 422])
    func aRefusalEndsTheAction(status: Int) async throws {
        let (client, _) = Self.client(status: status)
        let queue = try ActionQueue(client: client)
        try await queue.enqueue(ListAction(id: "k", list: "alice", intent: .setEditing(true), view: .default))
        guard case .answered(.refused(_, let problem)) = await queue.sendNext() else {
            Issue.record("status \(status) kept the action")
            return
        }
        let left = await queue.waitingCount
        #expect(problem.status == status && left == 0)
    }
}

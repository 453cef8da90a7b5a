import Foundation
import RecentsTestSupport
import Synchronization
import Testing

extension CrashSafetyTests {
    /// One request with a key: what was sent, and (once acknowledged) what came back.
    struct KeyedWrite: Sendable {
        var list: String
        var key: String
        var body: String
        var id: String?
        var reply: [UInt8] = []
    }

    /// Writers post calls with server-made ids under an `Idempotency-Key` while the server is
    /// killed with SIGKILL; after the restart each writer retries its unanswered request with the
    /// same key. Every key must then stand for exactly one stored call (no loss, no duplicate),
    /// and a retry of an answered request must get the same bytes.
    @Test func idempotentRetriesAcrossKillNineNeitherLoseNorDuplicate() throws {
        let (binary, directory) = try Self.scratch("recents-crash-idem")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("crash.sqlite").path
        var answered: [KeyedWrite] = []
        for round in 1...3 {
            let server = try ServerProcess(binary: binary, database: database)
            let acks = Mutex<[KeyedWrite]>([])
            let unanswered = Mutex<[KeyedWrite]>([])
            let group = WriterThreads.start(16, port: server.port) { writer, client in
                for n in 0..<10_000 {
                    let body =
                        #"{"peer": {"id": "p\#(n % 3)"}, "direction": "incoming", "timestamp": \#(1_764_460_800 + n)}"#
                    var write = KeyedWrite(list: "idem-\(writer % 4)", key: "r\(round)-w\(writer)-n\(n)", body: body)
                    guard let response = try? Self.post(write, client: client), response.status == 201 else {
                        unanswered.withLock { $0.append(write) }
                        return
                    }
                    write.id = Self.firstId(response)
                    write.reply = response.body
                    acks.withLock { $0.append(write) }
                }
            }
            let target = Self.killNineWhileWriting(server, writers: group, targets: 50...300) {
                acks.withLock { $0.count }
            }
            #expect(acks.withLock { $0.count } >= target, "round \(round) wrote too little before the kill")

            let restarted = try ServerProcess(binary: binary, database: database)
            defer { restarted.kill9() }
            let client = try TestHTTPClient(port: restarted.port)
            // Retry what got no answer: whether or not it committed before the kill, the key
            // makes it exactly one call.
            var replayed = 0
            let retried = unanswered.withLock { $0 }
            for var write in retried {
                let response = try Self.post(write, client: client)
                #expect(response.status == 201, "retry of \(write.key): \(response.status) \(response.text)")
                if response.header("Idempotent-Replayed") == "true" { replayed += 1 }
                write.id = Self.firstId(response)
                write.reply = response.body
                answered.append(write)
            }
            let roundAcks = acks.withLock { $0 }
            answered += roundAcks
            print(
                "idempotent crash round \(round): \(roundAcks.count) answered before SIGKILL, \(retried.count) "
                    + "retried after restart, \(replayed) of those had committed before the kill (replayed)")
            // A retry of an answered request replays that answer byte for byte.
            for write in roundAcks.suffix(20) {
                let response = try Self.post(write, client: client)
                #expect(response.body == write.reply, "\(write.key): a replay must repeat the first answer")
            }
            for list in Set(answered.map(\.list)) {
                let writes = answered.filter { $0.list == list }
                let ids = writes.compactMap(\.id)
                #expect(ids.count == writes.count && Set(ids).count == ids.count, "\(list): one id per key")
                let count = int(try client.request("GET", "/v1/lists/\(list)").json["callCount"])
                #expect(count == writes.count, "\(list): \(count ?? -1) calls for \(writes.count) keys")
            }
            for write in answered {
                let response = try client.request("GET", "/v1/lists/\(write.list)/calls/\(write.id ?? "none")")
                #expect(response.status == 200, "round \(round): acknowledged \(write.key) lost")
            }
        }
    }

    static func post(_ write: KeyedWrite, client: TestHTTPClient) throws -> TestResponse {
        try client.request(
            "POST", "/v1/lists/\(write.list)/calls", body: write.body, headers: [("Idempotency-Key", write.key)])
    }

    static func firstId(_ response: TestResponse) -> String? {
        (response.json["calls"] as? [[String: Any]])?.first?["id"] as? String
    }
}

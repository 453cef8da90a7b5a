import Foundation
import RecentsCore
import RecentsTestSupport
import Testing

/// Random and mutated bodies and query strings on every endpoint: each must get a clear 2xx or
/// 4xx answer (never a 5xx, a hang or a crash), and the server must still serve afterwards.
@Suite struct APIFuzzTests {
    static let bodies = [
        #"{"peer": {"id": "bob"}, "direction": "incoming", "timestamp": 1764460800}"#,
        #"{"calls": [{"id": "c-1", "peer": {"id": "bob", "name": "B"}, "direction": "outgoing", "endReason": "busy", "video": true, "duration": 5, "timestamp": 1}]}"#,
        #"{"revealed": true}"#, #"{"editing": false}"#, #"{"scope": "everyone"}"#,
        #"{"initialOffset": 0, "offset": -200, "velocity": -500, "buttonWidth": 74}"#,
    ]
    static let targets = [
        ("POST", "/v1/lists/alice/calls"), ("PUT", "/v1/lists/alice/rows/c-1/reveal"),
        ("PUT", "/v1/lists/alice/editing"), ("POST", "/v1/lists/alice/rows/c-1/gesture"),
        ("POST", "/v1/lists/alice/rows/c-1/options/delete"), ("POST", "/v1/lists/alice/clear"),
        ("GET", "/v1/lists/alice/rows"), ("GET", "/v1/lists/alice/transitions"),
        ("DELETE", "/v1/lists/alice/calls/c-1"),
        ("GET", "/v1/lists/alice"), ("DELETE", "/v1/lists/alice"),
    ]
    static let queries = [
        "", "?limit=3", "?filter=missed&tz=-840", "?since=0", "?since=1&fromFilter=missed", "?limit=%ff",
        "?tz=1e3", "?since=99999999999999999999", "?filter=", "?wait=0&since=0&epoch=x",
    ]

    static func mutate(_ text: String, _ random: inout SplitMix64) -> String {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
            let position = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: bytes.remove(at: position)
            case 1: bytes.insert(UInt8.random(in: 0x20...0x7E, using: &random), at: position)
            case 2:
                bytes[position] =
                    [UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "]"), UInt8(ascii: "9")].randomElement(
                        using: &random) ?? 0
            case 3: bytes = Array(bytes[..<position])
            default: bytes.insert(contentsOf: Array(#","x":null"#.utf8), at: position)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: Backend.available)
    func noInputGetsAServerError(backend: Backend) throws {
        let seed = testSeed("APIFuzzTests")
        var random = SplitMix64(seed: seed)
        let server = try TestServer(backend, socket: true)
        var client = try server.client()
        try client.request("POST", "/v1/lists/alice/calls", body: Self.bodies[1])
        var previous = ""
        for _ in 0..<2000 {
            let (method, path) = Self.targets.randomElement(using: &random) ?? Self.targets[0]
            let query = Self.queries.randomElement(using: &random) ?? ""
            let base = Self.bodies.randomElement(using: &random) ?? "{}"
            let body: String? =
                method == "GET" || method == "DELETE"
                ? nil : Bool.random(using: &random) ? Self.mutate(base, &random) : base
            let response: TestResponse
            do {
                response = try client.request(method, path + query, body: body)
            } catch {
                Issue.record("seed \(seed): \(method) \(path)\(query) \(body ?? "") → \(error), after \(previous)")
                throw error
            }
            #expect(
                response.status < 500,
                "seed \(seed): \(method) \(path)\(query) \(body ?? "") → \(response.status) \(response.text)")
            #expect(
                (200..<300).contains(response.status) || response.headers["content-type"] == "application/problem+json")
            previous = "\(method) \(path)\(query) → \(response.status)"
            // Malformed HTTP (e.g. a bad percent-escape) ends the connection by design.
            if response.headers["connection"] == "close" { client = try server.client() }
        }
        #expect(try server.request("GET", "/healthz").status == 200)
    }
}

import Foundation

/// `recents seed`: fills a list on a running server with a demo history, for demos and load tests.
enum SeedCommand {
    /// The API's per-request batch limit.
    static let batchSize = 1000

    static let flags: [FlagSpec] = [
        FlagSpec(
            "list", value: "NAME", default: nil, help: "list to fill: 1 to 64 of A-Z a-z 0-9 . _ -", env: false,
            required: true),
        FlagSpec(
            "calls", value: "N", default: nil, help: "number of calls to post, 1..1000000", env: false, required: true),
        FlagSpec("host", value: "ADDR", default: "127.0.0.1", help: "server address (0.0.0.0 and :: mean 127.0.0.1)"),
        FlagSpec("port", value: "PORT", default: "8080", help: "server port, 1..65535"),
        FlagSpec("seed", value: "S", default: "1", help: "generator seed; same seed and --now, same calls", env: false),
        FlagSpec("now", value: "UNIX", default: "current time", help: "newest possible timestamp (Unix s)", env: false),
        FlagSpec("timeout", value: "SECONDS", default: "30", help: "per-request timeout", env: false),
    ]

    private struct Batch: Encodable {
        let calls: [DemoCall]
    }

    private struct Reply: Decodable {
        let version: Int
    }

    /// Generates the history, posts it in batches and returns the exit status.
    static func run(_ flags: ParsedFlags) throws(UsageError) -> Int32 {
        guard let list = flags.string("list") else { throw UsageError(message: "missing required flag '--list'") }
        guard isValidListName(list) else {
            throw UsageError(
                message: "invalid value '\(list)' for --list: must be 1 to 64 characters of A-Z a-z 0-9 . _ -")
        }
        guard let count = try flags.integer("calls", in: 1...1_000_000) else {
            throw UsageError(message: "missing required flag '--calls'")
        }
        let host = HealthcheckCommand.connectHost(for: flags.string("host") ?? "127.0.0.1")
        let port = try flags.integer("port", in: 1...65_535) ?? 8080
        let seed = try flags.integer("seed", in: 0...Int.max) ?? 1
        let now = try flags.integer("now", in: 0...4_102_444_800) ?? Int(time(nil))
        let timeout = try flags.seconds("timeout", maximum: 3600) ?? 30

        let calls = DemoHistory.generate(count: count, seed: UInt64(seed), now: now)
        let client = MiniHTTPClient(host: host, port: port, timeout: timeout)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var version: Int?
        var start = 0
        while start < calls.count {
            let batch = Batch(calls: Array(calls[start..<min(start + batchSize, calls.count)]))
            start += batch.calls.count
            let response: HTTPResponse
            do {
                let body = try encoder.encode(batch)
                response = try client.request(
                    method: "POST", path: "/v1/lists/\(list)/calls", body: Array(body), contentType: "application/json")
            } catch {
                Output.error("recents seed: error: \(error)")
                return 1
            }
            guard response.status == 200 || response.status == 201 else {
                Output.error(
                    "recents seed: error: POST /v1/lists/\(list)/calls answered \(response.status) \(response.reason): "
                        + response.bodyText)
                return 1
            }
            version = try? JSONDecoder().decode(Reply.self, from: Data(response.body)).version
        }
        guard let version else {
            Output.error("recents seed: error: the last answer had no integer \"version\": the server may be too old")
            return 1
        }
        Output.standard("seeded \(calls.count) calls into \(list) (version \(version))")
        return 0
    }

    /// The API's list-name alphabet, checked here because the name goes into the URL path unescaped.
    static func isValidListName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default:
                    false
                }
            }
    }
}

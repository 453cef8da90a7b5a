import Glibc
import HTTPClient
import RecentsAPI

/// `recents seed`: fills a list on a running server with a demo history, for demos and load tests.
enum SeedCommand: Command {
    /// What to post and where.
    struct Options {
        /// The list to fill (required).
        var list: String?
        /// How many calls (required).
        var calls: Int?
        /// The server's address; serve's default.
        var host = AppConfiguration().http.host
        /// The server's port; serve's default.
        var port = AppConfiguration().http.port
        /// The generator's seed.
        var seed = 1
        /// The newest possible timestamp (Unix seconds); nil means the current time.
        var now: Int?
        /// The bound on connecting, and then on each request and its answer.
        var timeout: Duration = .seconds(30)
    }

    /// The API's per-request batch limit.
    static let batchSize = 1000

    static let name = "seed"
    static let summary = "post a realistic demo call history to a running server"
    static let details = """
        Posts a realistic, deterministic demo history (peers, grouped runs, missed, video and busy calls
        over the 30 days before --now) to a running server, at most 1000 calls per request, and prints
        'seeded N calls into LIST (version V)'. Exits 1 on any answer other than 200 or 201.
        """
    static var defaults: Options { Options() }
    static var flags: [Flag<Options>] {
        [
            Flag(
                "list", "NAME", \.list, .optional(listName), help: "list to fill: 1 to 64 of A-Z a-z 0-9 . _ -",
                env: false, required: true),
            Flag(
                "calls", "N", \.calls, .optional(.integer(1...1_000_000)), help: "number of calls to post, 1..1000000",
                env: false, required: true),
        ] + HealthcheckCommand.serverFlags(\.host, \.port) + [
            Flag(
                "seed", "S", \.seed, .integer(atLeast: 0), help: "generator seed; same seed and --now, same calls",
                env: false),
            Flag(
                "now", "UNIX", \.now, .optional(.integer(0...4_102_444_800), none: "current time"),
                help: "newest possible timestamp (Unix s)", env: false),
            Flag("timeout", "SECONDS", \.timeout, .seconds(maximum: 3600), help: "per-request timeout", env: false),
        ]
    }

    /// The API's list-name alphabet, checked here because the name goes into the URL path unescaped.
    static var listName: FlagValue<String> {
        .restricted(maximum: 64, rule: "1 to 64 characters of A-Z a-z 0-9 . _ -") { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    /// Generates the history, posts it in batches and returns the exit status.
    static func run(_ options: Options, output: Output) -> Int32 {
        // The parser has checked both required flags.
        guard let list = options.list, let count = options.calls else { return CLI.usageStatus }
        let calls = DemoHistory.generate(count: count, seed: UInt64(options.seed), now: options.now ?? time(nil))
        let path = "/v1/lists/\(list)/calls"
        var version: Int64?
        var start = 0
        while start < calls.count {
            let batch = calls[start..<min(start + batchSize, calls.count)]
            start += batch.count
            let response: HTTPClientResponse
            do throws(HTTPClientError) {
                // A connection per batch, closed after it: seeding is rare, and no socket is left idle.
                let connection = try HTTPConnection(
                    host: HealthcheckCommand.connectHost(for: options.host), port: options.port,
                    timeout: options.timeout)
                response = try connection.request(
                    "POST", path, bytes: DemoHistory.json(batch),
                    headers: CLI.requestHeaders + [("Content-Type", "application/json")])
            } catch {
                output.error("recents seed: error: \(error.description)")
                return 1
            }
            guard response.status == 200 || response.status == 201 else {
                output.error(
                    "recents seed: error: POST \(path) answered \(response.status) \(response.reason): \(response.text)"
                )
                return 1
            }
            version = Self.version(in: response.body)
        }
        guard let version else {
            output.error("recents seed: error: the last answer had no integer \"version\": the server may be too old")
            return 1
        }
        output.standard("seeded \(calls.count) calls into \(list) (version \(version))")
        return 0
    }

    /// The integer member `version` of a JSON object, or nil.
    static func version(in body: [UInt8]) -> Int64? {
        guard case .object(let members) = try? JSONParser.parse(body),
            case .number(_, let integer)? = members.first(where: { $0.0 == "version" })?.1
        else { return nil }
        return integer
    }
}

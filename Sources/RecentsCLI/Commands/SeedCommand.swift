import Glibc
import RecentsAPI
import RecentsClientCore

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
        /// A bearer token for a server with access control.
        var token: String?
    }

    /// The API's per-request batch limit.
    static let batchSize = 1000

    static let name = "seed"
    static let summary = "post a realistic demo call history to a running server"
    static let details = """
        Posts a realistic, deterministic demo history (peers, grouped runs, missed, video and busy calls
        over the 30 days before --now) to a running server through RecentsClient, at most 1000 calls per
        request, and prints 'seeded N calls into LIST (version V)'. On a terminal, stderr shows the calls
        posted of the total, the rate and the time left; in a pipe or a log, one line per phase. The call ids are fixed by --seed, so
        a rerun on the same list posts only the calls it does not hold (', M were there already'), and
        leaves the others as they are. Exits 1 on any other answer than 2xx.
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
            FollowCommand.tokenFlag(\.token),
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

    /// Generates the history, posts it in batches through `RecentsClient` and returns the exit status.
    static func run(_ options: Options, output: Output) -> Int32 {
        // The parser has checked both required flags.
        guard let list = options.list, let count = options.calls else { return CLI.usageStatus }
        let client: RecentsClient
        do {
            client = try CLI.client(
                host: options.host, port: options.port, token: options.token, timeout: options.timeout)
        } catch {
            output.error("recents seed: error: \(error.description)")
            return 1
        }
        let now = options.now ?? time(nil)
        let task = Task { () -> Int32 in
            var progress = Progress(task: "seed \(list)", sink: output.progress)
            progress.begin("generating \(count) calls")
            let calls = DemoHistory.generate(count: count, seed: UInt64(options.seed), now: now)
            progress.begin(
                "posting \(calls.count) calls, \(batchSize) a request", total: calls.count, unit: .items("calls"))
            do {
                let outcome = try await post(calls, to: list, client: client) { progress.advance(to: $0) }
                progress.finish("posted \(outcome.posted) calls")
                output.standard(outcome.line(list: list))
                return 0
            } catch {
                progress.erase()
                output.error("recents seed: error: seeding \(list): \(sentence(error))")
                return 1
            }
        }
        return SignalCancellation.wait(for: task)
    }
}

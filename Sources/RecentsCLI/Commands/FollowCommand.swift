import Dispatch
import Glibc
import RecentsAPI
import RecentsClientCore
import RecentsCore

/// `recents follow`: prints a list's transitions as they happen, through `RecentsClient.follow`
/// (event stream, long-poll fallback, resync and reconnects as the library does them).
enum FollowCommand: Command {
    /// Which view of which list, and how to print it.
    struct Options {
        /// The list to follow (required).
        var list: String?
        /// The server's address; serve's default.
        var host = AppConfiguration().http.host
        /// The server's port; serve's default.
        var port = AppConfiguration().http.port
        /// The view's filter.
        var filter = ViewParameters.default.filter
        /// The view's window.
        var limit = ViewParameters.default.limit
        /// The view's UTC offset in minutes.
        var tz = ViewParameters.default.tz
        /// Print each transition's JSON as received instead of a summary line.
        var json = false
        /// Exit after this many transitions (nil: until SIGINT or SIGTERM).
        var exitAfter: Int?
        /// A bearer token for a server with access control.
        var token: String?
    }

    static let name = "follow"
    static let summary = "print a list's transitions as they happen"
    static let details = """
        Follows one view of --list on a running server (its event stream, or long-polls) and prints one
        line per transition: the initial load, then each change, as 'version=V from=F reason=R deletes=D
        inserts=I updates=U rows=N hint=H', or with --json the transition's JSON as received. Reconnects
        after failures and resyncs after a 410, as RecentsClient does, saying so on stderr ('cannot reach
        the server (…); reconnecting in T s', then 'reconnected'). SIGINT or SIGTERM ends it (exit 0);
        an answer a retry cannot fix (401, 403, 404) exits 1.
        """
    static var defaults: Options { Options() }
    static var flags: [Flag<Options>] {
        [
            Flag(
                "list", "NAME", \.list, .optional(SeedCommand.listName),
                help: "list to follow: 1 to 64 of A-Z a-z 0-9 . _ -", env: false, required: true)
        ] + HealthcheckCommand.serverFlags(\.host, \.port) + [
            Flag("filter", "all|missed", \.filter, .filter, help: "which calls the view shows", env: false),
            Flag(
                "limit", "N", \.limit, .integer(ViewParameters.limitRange), help: "rows in the view's window",
                env: false),
            Flag("tz", "MINUTES", \.tz, .integer(ViewParameters.tzRange), help: "viewer's UTC offset", env: false),
            .switch("json", \.json, help: "print each transition's JSON as received, one a line"),
            Flag(
                "exit-after", "N", \.exitAfter, .optional(.integer(atLeast: 1), none: "never"),
                help: "exit 0 after N transitions", env: false),
            tokenFlag(\.token),
        ]
    }

    /// `--token`, with `RECENTS_TOKEN`: a bearer token for a server with access control (`seed`, `follow`).
    static func tokenFlag<Options>(_ keyPath: WritableKeyPath<Options, String?>) -> Flag<Options> {
        Flag("token", "JWT", keyPath, .optional(.nonEmpty), help: "bearer token for a server with access control")
    }

    /// Follows until a signal, `--exit-after` or an error; returns the exit status.
    static func run(_ options: Options, output: Output) -> Int32 {
        guard let list = options.list else { return CLI.usageStatus }
        let client: RecentsClient
        do {
            client = try CLI.client(host: options.host, port: options.port, token: options.token)
        } catch {
            output.error("recents follow: error: \(error.description)")
            return 1
        }
        let view = ViewParameters(filter: options.filter, limit: options.limit, tz: options.tz)
        let task = Task { () -> Int32 in
            var printed = 0
            do {
                for try await event in client.follow(list: list, view: view, onLink: { output.error(line($0)) }) {
                    output.standard(options.json ? String(decoding: event.json, as: UTF8.self) : summary(event))
                    printed += 1
                    if let limit = options.exitAfter, printed >= limit { return 0 }
                }
                return 0
            } catch {
                output.error("recents follow: error: \(sentence(error))")
                return 1
            }
        }
        return SignalCancellation.wait(for: task)
    }

    /// The stderr line of a reconnect: `recents follow: cannot reach the server (…); reconnecting in 1.2 s`.
    static func line(_ link: FollowLink) -> String {
        switch link {
        case .retrying(_, let delay, let error):
            let tenths = Int((delay * 10).rounded())
            return "recents follow: cannot reach the server (\(error)); reconnecting in \(tenths / 10).\(tenths % 10) s"
        case .restored:
            return "recents follow: reconnected"
        }
    }

    /// `version=3 from=1 reason=interactiveChanges deletes=0 inserts=1 updates=0 rows=2 hint=down`.
    static func summary(_ event: TransitionEvent) -> String {
        let transition = event.transition
        let hints = Set(transition.inserts.compactMap(\.directionHint?.rawValue)).sorted()
        return [
            "version=\(event.to)", "from=\(event.from.map(String.init) ?? "none")",
            "reason=\(transition.reason.rawValue)", "deletes=\(transition.deletes.count)",
            "inserts=\(transition.inserts.count)", "updates=\(transition.updates.count)", "rows=\(transition.count)",
            "hint=\(hints.isEmpty ? "none" : hints.joined(separator: ","))",
        ].joined(separator: " ")
    }
}

extension FlagValue where Value == CallFilter {
    /// `all` or `missed`.
    static var filter: FlagValue { .choice(CallFilter.allCases.map { ($0.rawValue, $0) }) }
}

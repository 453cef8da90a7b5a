import HTTPServer
import RecentsAPI
import RecentsStore
import SystemSupport

/// `recents serve`: flags → `AppConfiguration` → `RecentsApp`, with signal-driven graceful shutdown.
enum ServeCommand: Command {
    /// Ceiling for the timeouts, so a typo cannot make a connection linger for years.
    static let maximumTimeout = 86_400

    static let name = "serve"
    static let summary = "run the HTTP service until SIGTERM or SIGINT"
    static let details = """
        Runs the HTTP service. Logs one logfmt line per event to stderr (the effective configuration
        at --log-level debug), stops gracefully on SIGTERM or SIGINT and exits 0; exits 1 when it
        cannot start (database cannot be opened, port in use), leaving no database file it created,
        and 2 on a usage error (a bad flag, an auth secret too short, none on a public address).
        """

    static var defaults: AppConfiguration { AppConfiguration() }

    /// What `serve` reads beyond the configuration: where the auth secret comes from, whether
    /// an identity provider's key set comes with its issuer and audience, and whether a public
    /// address has a way to check tokens. Each is a usage error (2), as a too-short secret is.
    static func resolve(_ options: inout AppConfiguration, environment: [String: String]) throws(UsageError) {
        options.authSecret = try AuthSecretFlags.load(file: options.authSecretFile, environment: environment)
        try IdentityProviderFlags.check(options)
        if let refusal = AuthPolicy.insecureDefault(options) { throw UsageError(message: refusal.description) }
        // A body the budget could never hold would be refused every time.
        guard options.http.maxBodyMemory >= options.http.maxBodyBytes else {
            throw UsageError(
                message: "--max-body-memory (\(options.http.maxBodyMemory)) must be at least --max-body-bytes "
                    + "(\(options.http.maxBodyBytes))")
        }
    }

    static var flags: [Flag<AppConfiguration>] {
        [
            Flag("host", "ADDR", \.http.host, .nonEmpty, help: "address to bind (0.0.0.0 for all interfaces)"),
            Flag(
                "port", "PORT", \.http.port, .integer(0...65_535),
                help: "TCP port to bind, 0..65535 (0 picks a free one)"),
            Flag(
                "db", "PATH", \.store.path, .nonEmpty,
                help: "SQLite database file (created on first start) or postgresql:// URI"),
            Flag(
                "placement", "FILE", \.store.placement, .optional(.string),
                help: "JSON file placing lists on several postgresql:// shards (replaces --db), followed"),
            Flag(
                "retain-versions", "N", \.store.retainVersions, .integer(atLeast: 1),
                help: "versions per list answerable by ?since= (>= 1)"),
            Flag(
                "max-calls-per-list", "N", \.maxCallsPerList, .integer(atLeast: 1),
                help: "live calls one list may hold; a write beyond gets 409 list-full"),
            Flag(
                "cors-origin", "ORIGIN", \.corsOrigin, .optional(.string),
                help: "allow this CORS origin and answer preflights"),
            Flag("log-level", "LEVEL", \.logLevel, .logLevel, help: "debug, info, warn or error"),
            Flag(
                "auth", "MODE", \.authDisabled, .authMode,
                help: "jwt (check bearer tokens) or none (no checks, even on a public address)"),
            AuthSecretFlags.file(\.authSecretFile),
        ] + IdentityProviderFlags.flags + [
            Flag(
                "max-head-bytes", "BYTES", \.http.maxHeadBytes, .integer(atLeast: 1),
                help: "largest request head before 431 (>= 1)"),
            Flag(
                "max-uri-bytes", "BYTES", \.http.maxURIBytes, .integer(atLeast: 1),
                help: "longest request target before 414 (>= 1)"),
            Flag(
                "max-body-bytes", "BYTES", \.http.maxBodyBytes, .integer(atLeast: 1),
                help: "largest request body before 413 (>= 1)"),
            Flag(
                "head-timeout", "SECONDS", \.http.headReadTimeout, .seconds(maximum: maximumTimeout),
                help: "time to send a request head before 408"),
            Flag(
                "body-timeout", "SECONDS", \.http.bodyTimeout, .seconds(maximum: maximumTimeout),
                help: "time to send a whole request body, from its head, before 408"),
            Flag(
                "max-body-memory", "BYTES", \.http.maxBodyMemory, .integer(atLeast: 1),
                help: "bytes of request bodies received at once, all connections together, before 503"),
            Flag(
                "idle-timeout", "SECONDS", \.http.idleTimeout, .seconds(maximum: maximumTimeout),
                help: "time an idle keep-alive connection stays open"),
            Flag(
                "max-connections", "N", \.http.maxConnections, .integer(atLeast: 1),
                help: "open connections beyond which new ones get 503"),
            Flag(
                "sse-heartbeat", "SECONDS", \.events.heartbeat, .seconds(maximum: maximumTimeout),
                help: "time between keep-alive comments on an event stream"),
            Flag(
                "sse-max-age", "SECONDS", \.events.maxAge, .seconds(maximum: maximumTimeout),
                help: "life of an event stream before it closes, plus up to a fifth at random"),
            Flag("threads", "N", \.http.loopCount, .loopCount, help: "event-loop threads, 0 = one per core"),
            Flag(
                "readers", "N", \.store.readers, .integer(1...256),
                help: "SQLite reader threads, each with its own connection"),
            Flag(
                "writers", "N", \.store.writers, .integer(1...64),
                help: "PostgreSQL writer connections, each committing its own batches"),
            Flag(
                "view-cache-bytes", "BYTES", \.memory.viewCacheBytes, .integer(atLeast: 0),
                help: "bytes of rows answers kept in the view cache (0 turns it off)"),
            Flag(
                "max-list-heads", "N", \.memory.listHeads, .integer(atLeast: 1),
                help: "lists whose current version is kept in memory"),
            Flag(
                "max-long-polls", "N", \.memory.longPolls, .integer(atLeast: 1),
                help: "parked long-polls beyond which a wait gets 503"),
            Flag(
                "max-long-polls-per-list", "N", \.memory.longPollsPerList, .integer(atLeast: 1),
                help: "parked long-polls of one list beyond which its wait gets 429"),
            Flag(
                "max-streams-per-list", "N", \.memory.streamsPerList, .integer(atLeast: 1),
                help: "open event streams of one list beyond which a new one gets 429"),
            Flag(
                "max-wait", "SECONDS", \.memory.maxWait, .integer(1...3600),
                help: "longest a long-poll is held; a larger wait is clamped to it"),
            Flag(
                "compression", "MODE", \.compression.enabled, .choice([("on", true), ("off", false)]),
                help: "on: answers in br or gzip when the client accepts them; off: always identity"),
            Flag(
                "compression-threshold", "BYTES", \.compression.threshold, .integer(atLeast: 0),
                help: "smallest body worth compressing"),
            Flag(
                "gzip-level", "N", \.compression.gzipLevel, .integer(1...9),
                help: "gzip level of answers compressed at run time, 1 (fastest) to 9 (smallest)"),
            Flag(
                "brotli-quality", "N", \.compression.brotliQuality, .integer(0...11),
                help: "Brotli quality of answers compressed at run time, 0 (fastest) to 11 (smallest)"),
            Flag(
                "rate-limit", "N", \.rateLimit.requestsPerSecond, .integer(0...1_000_000),
                help: "requests per second per token's list or client address, bursts to 2N (0 = off)"),
            Flag(
                "trusted-proxies", "CIDRS", \.http.trustedProxies, .trustedProxies,
                help: "proxies whose Forwarded or X-Forwarded-For names the client (10.0.0.0/8,::1)"),
        ]
    }

    /// Starts the app, blocks until a signal has shut it down, and returns the exit status.
    static func run(_ configuration: AppConfiguration, output: Output) -> Int32 {
        let logger = Logger(level: configuration.logLevel)
        if !HeapPadding.keep() { logger.warn("glibc refused M_TOP_PAD; writes may fault pages in again") }
        // The effective configuration, named as the flags are, so an operator can paste it back.
        logger.log(
            .debug, "configuration",
            flags.map { flag in (flag.name.replacing("-", with: "_"), flag.text(configuration) ?? "") })
        return SignalShutdown.serve(configuration, logger: logger)
    }
}

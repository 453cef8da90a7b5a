import HTTPServer
import RecentsAuth
import RecentsStore
import SystemSupport

/// Everything `recents serve` can configure. Each default is stated once, in the configuration
/// type that holds it (`HTTPServerConfiguration`, `StoreConfiguration`, `MemoryLimits`,
/// `EventStreamSettings`, or here), and the CLI's help reads it from there.
public struct AppConfiguration: Sendable {
    /// Listener, threads, limits and timeouts of the HTTP server (`errorResponse` is set by `RecentsApp`).
    public var http = HTTPServerConfiguration()
    /// The SQLite file, retention and reader threads.
    public var store = StoreConfiguration(path: "./recents.sqlite")
    /// Events below this level are not logged; access-log lines are `info`.
    public var logLevel: Logger.Level = .info
    /// When set, CORS headers allow this origin and `OPTIONS` preflights are answered.
    public var corsOrigin: String?
    /// Writes queued for the store beyond which new ones get 503 `overloaded`: each costs memory
    /// until its group commit.
    public var maxPendingWrites = 8192
    /// Live calls one list may hold; a write that would take it beyond gets 409 `list-full` and
    /// stores nothing, so no client grows one list (its index, its clear) without bound.
    public var maxCallsPerList = 1_000_000
    /// Bounds on what clients can make the API keep in memory.
    public var memory = MemoryLimits()
    /// How event streams keep their connection alive and when they end.
    public var events = EventStreamSettings()
    /// Whether and how answers are compressed.
    public var compression = CompressionSettings()

    /// The key tokens are verified with; nil when none is configured (see `authDisabled`).
    public var authSecret: AuthSecret?
    /// `--auth-secret-file`, as given (the CLI reads it into `authSecret`).
    public var authSecretFile: String?
    /// `--auth none`: no token checks even on a public address, chosen explicitly.
    public var authDisabled = false
    /// `--auth-jwks`: the JSON Web Key Set file of an identity provider whose tokens are accepted
    /// (beside HS256 ones when a secret is configured too); re-read when it changes.
    public var authKeySetFile: String?
    /// `--auth-issuer`: the `iss` a provider's tokens carry; required with `authKeySetFile`.
    public var authIssuer: String?
    /// `--auth-audience`: what a provider's tokens' `aud` must hold; required with `authKeySetFile`.
    public var authAudience: String?
    /// Requests per second each client may send.
    public var rateLimit = RateLimitSettings()
    /// The time long-poll waits, stream heartbeats, max-age ends and retries are read on (tests
    /// pass a `ManualClock` they advance).
    var clock = LiveClock.system

    /// The documented defaults.
    public init() {}
}

/// How fast each client may send requests (issue 25): a token bucket per token's list, or per
/// client address for requests without a valid token.
public struct RateLimitSettings: Sendable {
    /// Requests per second sustained, bursts to twice that; 0 turns limiting off. Off by default
    /// because the right rate depends on the app (docs/DEPLOY.md recommends one for public servers).
    public var requestsPerSecond = 0
    /// Buckets kept, the least recently used going first: a bucket forgotten is a client that was
    /// idle long enough to have a full one anyway. About 100 bytes each, so 65,536 cost ~7 MB.
    public var buckets = 65_536
    /// Monotonic nanoseconds, for the buckets' refill (tests step it by hand).
    var clock: @Sendable () -> UInt64 = SystemClock.monotonicNanoseconds

    /// The documented defaults.
    public init() {}
}

/// How event streams keep their connection alive and when they end.
public struct EventStreamSettings: Sendable, Equatable {
    /// Between two `: keep-alive` comments, so proxies keep the connection.
    public var heartbeat: Duration = .seconds(15)
    /// A stream's life before it closes cleanly, plus a random jitter of up to a fifth of it (60 s
    /// at the default), so reconnects after a deploy or a rebalance spread out.
    public var maxAge: Duration = .seconds(300)
    /// The least a client waits before it reconnects (sent as `retry:` in each stream's first
    /// event): about how long a restart keeps the port closed.
    public var reconnect: Duration = .seconds(1)
    /// Up to this much more, at random per stream, so that 16,000 clients cut off together come
    /// back over two seconds, not in one burst that overflows the accept queue.
    public var reconnectJitter: Duration = .seconds(2)

    /// The documented defaults.
    public init() {}
}

/// How answers are compressed (RFC 9110 §8.4, negotiated by `Accept-Encoding`).
public struct CompressionSettings: Sendable, Equatable {
    /// Whether answers are compressed at all; off, every answer is identity and request bodies
    /// in a coding are still read.
    public var enabled = true
    /// Bodies smaller than this are sent as they are: below about a kilobyte a coding's framing
    /// and the CPU cost more than the bytes saved.
    public var threshold = 1024
    /// The gzip level of answers compressed at run time (1 fastest ... 9 smallest); the embedded
    /// files are compressed at build time at 9.
    public var gzipLevel = 6
    /// The Brotli quality of answers compressed at run time (0 fastest ... 11 smallest): 5 makes
    /// JSON views about as small as gzip 9 in a fiftieth of quality 11's time (Benchmarks/
    /// COMPRESSION.md); the embedded files, compressed once at build time, use 11.
    public var brotliQuality = 5

    /// The documented defaults.
    public init() {}
}

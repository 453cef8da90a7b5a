import Glibc

/// Listener, threading, limits and timeouts of an `HTTPServer`.
public struct HTTPServerConfiguration: Sendable {
    /// Address to bind (`0.0.0.0`, `127.0.0.1`, `::`); loopback unless asked, so nothing is exposed by default.
    public var host: String = "127.0.0.1"
    /// Port to bind; 0 picks a free one (see `HTTPServer.localPort`).
    public var port: Int = 8080
    /// Number of event-loop threads; defaults to the number of cores.
    public var loopCount: Int = HTTPServerConfiguration.defaultLoopCount
    /// `listen(2)` backlog.
    public var backlog: Int = 1024
    /// Maximum request head (request line + fields) in bytes → 431.
    public var maxHeadBytes: Int = 16 * 1024
    /// Maximum request-target length in bytes → 414.
    public var maxURIBytes: Int = 8 * 1024
    /// Maximum decoded body length in bytes → 413 and close.
    public var maxBodyBytes: Int = 1024 * 1024
    /// Time allowed to receive a complete head, from its first byte or from connect → 408 and close.
    public var headReadTimeout: Duration = .seconds(10)
    /// Time an idle keep-alive connection is kept before it is closed silently.
    public var idleTimeout: Duration = .seconds(60)
    /// Open connections beyond which new ones get 503 and are closed.
    public var maxConnections: Int = 20_000
    /// Bytes read per `recv` call.
    public var readChunkSize: Int = 64 * 1024

    /// The default configuration.
    /// Headers added to the answers the server makes itself (400 for malformed HTTP, 408, 413,
    /// 414, 431, 503), which never reach a handler: e.g. CORS headers, so a browser client can
    /// read those errors too.
    public var errorHeaders: [(name: String, value: String)] = []

    public init() {}

    /// The number of online cores, at least 1.
    public static var defaultLoopCount: Int { max(1, sysconfCores()) }
}

private func sysconfCores() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

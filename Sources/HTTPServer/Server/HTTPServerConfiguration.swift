import Glibc

/// Listener, threading, limits and timeouts of an `HTTPServer`.
public struct HTTPServerConfiguration: Sendable {
    /// Address to bind (`0.0.0.0`, `127.0.0.1`, `::`); loopback unless asked, so nothing is exposed by default.
    public var host: String = "127.0.0.1"
    /// Port to bind; 0 picks a free one (see `HTTPServer.localPort`).
    public var port: Int = 8080
    /// Number of event-loop threads; defaults to the number of cores.
    public var loopCount: Int = HTTPServerConfiguration.defaultLoopCount
    /// `listen(2)` backlog. When thousands of event streams reconnect at once (after a restart),
    /// connections that find the accept queue full are dropped and retried by the client's TCP
    /// 1 and 3 s later; the kernel caps this at `net.core.somaxconn` (4096 on current Linux).
    public var backlog: Int = 4096
    /// Maximum request head (request line + fields) in bytes → 431.
    public var maxHeadBytes: Int = 16 * 1024
    /// Maximum request-target length in bytes → 414.
    public var maxURIBytes: Int = 8 * 1024
    /// Maximum decoded body length in bytes → 413 and close.
    public var maxBodyBytes: Int = 1024 * 1024
    /// Time allowed to receive a complete head, from its first byte or from connect → 408 and close.
    public var headReadTimeout: Duration = .seconds(10)
    /// Time an idle keep-alive connection is kept before it is closed silently; also how long a
    /// response (or stream) may wait for a client that reads nothing before it is closed.
    public var idleTimeout: Duration = .seconds(60)
    /// Open connections beyond which new ones get 503 and are closed.
    public var maxConnections: Int = 20_000
    /// Proxies whose `Forwarded` or `X-Forwarded-For` names the client (`HTTPRequest.clientAddress`);
    /// none by default, so what a client claims about itself changes nothing.
    public var trustedProxies = TrustedProxies()
    /// Bytes read per `recv` call.
    public var readChunkSize: Int = 64 * 1024
    /// Renders the answers the server makes itself, which never reach a handler: 400 for
    /// malformed HTTP, 408, 413, 414, 431, 503 at the connection limit or while draining, 505.
    /// `detail` says what went wrong in words. The server adds its own framing headers.
    public var errorResponse: @Sendable (_ status: Int, _ detail: String) -> HTTPResponse =
        HTTPServerConfiguration.plainTextError

    /// The default configuration.
    public init() {}

    /// The number of online cores, at least 1.
    public static var defaultLoopCount: Int { max(1, sysconfCores()) }

    /// The default `errorResponse`: the detail as `text/plain`, with `Retry-After: 1` on 503.
    @Sendable public static func plainTextError(_ status: Int, _ detail: String) -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": "text/plain; charset=utf-8"]
        if status == 503 { headers.add("Retry-After", "1") }
        return HTTPResponse(status: status, headers: headers, body: Array(detail.utf8))
    }
}

private func sysconfCores() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

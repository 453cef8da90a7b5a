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
    /// Time allowed to receive a whole body, from its head's admission → 408 and close: a client
    /// that sends a byte now and then is not idle, but may not hold its connection and its share
    /// of `maxBodyMemory` for longer than this. 1 MiB in 30 s is 280 kbit/s; a slower link
    /// compresses its body or sends smaller ones.
    public var bodyTimeout: Duration = .seconds(30)
    /// Bytes of request bodies being received at once, over every connection; a body that would
    /// take more is answered 503 with `Retry-After` before any of it is read, and the connection
    /// closes. A body holds its announced length (`Content-Length`; a chunked one, what it sent so
    /// far) from its admission until its answer, so bodies queued for a slow disk count too.
    ///
    /// 64 MiB by default, sized for a 2-core host with a few GB of memory: 64 bodies at the 1 MiB
    /// limit, more than two cores parse at once (a 1 MiB JSON body takes milliseconds to read, so
    /// hundreds go through each second), and thousands of typical writes (one call is about
    /// 200 bytes, a gzip batch of 1,000 calls about 30 KB). Together with the 64 MiB view cache it
    /// keeps what clients can make the server hold well under the host's memory, whatever their number.
    public var maxBodyMemory: Int = 64 * 1024 * 1024
    /// Open connections beyond which new ones get 503 and are closed.
    public var maxConnections: Int = 20_000
    /// Proxies whose `Forwarded` or `X-Forwarded-For` names the client (`HTTPRequest.clientAddress`);
    /// none by default, so what a client claims about itself changes nothing.
    public var trustedProxies = TrustedProxies()
    /// Bytes read per `recv` call.
    public var readChunkSize: Int = 64 * 1024
    /// Renders the answers the server makes itself, which never reach a handler: 400 for
    /// malformed HTTP, 408, 413, 414, 431, 503 at the connection limit, while draining or past
    /// `maxBodyMemory`, 505.
    /// `detail` says what went wrong in words. The server adds its own framing headers.
    public var errorResponse: @Sendable (_ status: Int, _ detail: String) -> HTTPResponse =
        HTTPServerConfiguration.plainTextError

    /// Decides on each request whose body follows, once its head arrived and before any byte of
    /// the body is read (auth and rate limits, in an application): the body of a request it
    /// refuses is never read or buffered. Nil reads every body.
    public var admission: HTTPAdmission?

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

/// A fully received HTTP/1.x request.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The request target exactly as sent (origin-form or absolute-form).
    public var target: String
    /// The raw, undecoded path (for absolute-form targets, the path part only).
    public var path: String
    /// The path split on `/` with each segment percent-decoded; `/` gives `[]`.
    public var pathSegments: [String]
    /// Decoded query parameters in order (`+` decodes to a space).
    public var query: [(name: String, value: String)]
    /// The header fields.
    public var headers: HTTPHeaders
    /// The authority the request is for (RFC 9112 §3.2.2): an absolute-form target's, which wins
    /// over the `Host` field, else the field's value; empty when neither names one.
    public var host: String
    /// The decoded body (chunked framing removed).
    public var body: [UInt8]
    /// The minor version of HTTP/1.x.
    public var versionMinor: Int
    /// The echoed or generated request id.
    public var requestId: String
    /// Monotonic instant at which the request's bytes were read.
    public var receivedAt: ContinuousClock.Instant
    /// The client's numeric IP address (`203.0.113.7`, `2001:db8::1`) as the socket saw it: a
    /// proxy's, behind one; empty for a request not read from a socket.
    public var peerAddress = ""
    /// The client's address: the peer's, or, when the peer is a trusted proxy
    /// (`HTTPServerConfiguration.trustedProxies`), the one its forwarding header names
    /// (`ClientAddress`); empty for a request not read from a socket.
    public var clientAddress = ""
    /// What the application kept on this connection while handling one of its earlier requests
    /// (`HTTPResponder.remember`); nil before that, and for a request not read from a socket.
    public var connectionMemo: (any AnyObject & Sendable)?
    /// What the server's admission hook noted on this request's head (`HTTPAdmissionResult.readBody`);
    /// nil for a request without a body, or when no hook is configured.
    public var admission: (any Sendable)?

    /// Builds a request by hand (tests, internal dispatch); parses `target` into path and query.
    public init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        versionMinor: Int = 1, requestId: String = "", receivedAt: ContinuousClock.Instant = .now
    ) {
        self.method = method
        self.target = target
        // A hand-built target that does not decode routes nowhere (it has no segments).
        let parsed = try? RequestTarget.parse(target).get()
        self.path = parsed?.path ?? target
        self.pathSegments = parsed?.segments ?? []
        self.query = parsed?.query ?? []
        self.headers = headers
        self.host = parsed?.authority ?? headers["Host"] ?? ""
        self.body = body
        self.versionMinor = versionMinor
        self.requestId = requestId
        self.receivedAt = receivedAt
    }

    /// Builds a parsed request without re-splitting the target.
    init(
        method: HTTPMethod, target: String, parsed: RequestTarget, headers: HTTPHeaders, versionMinor: Int,
        host: String
    ) {
        self.host = host
        self.method = method
        self.target = target
        self.path = parsed.path
        self.pathSegments = parsed.segments
        self.query = parsed.query
        self.headers = headers
        self.body = []
        self.versionMinor = versionMinor
        self.requestId = ""
        self.receivedAt = .now
    }
}

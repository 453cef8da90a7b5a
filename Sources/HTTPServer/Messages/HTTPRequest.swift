/// A fully received HTTP/1.x request.
public struct HTTPRequest: Sendable {
    /// What the request line and fields say, in one shared box: a request is copied several times
    /// on its way from the parser to a handler (the parser's state, the event, the responder, the
    /// exchange), and with these eight fields inline each copy was about ten reference counts,
    /// retained and then released (callgrind of a cached read, issue 42). Copy-on-write: a setter
    /// copies a box that another request shares.
    private var message: Message

    /// The request method.
    public var method: HTTPMethod {
        get { message.method }
        set { uniqueMessage().method = newValue }
    }
    /// The request target exactly as sent (origin-form or absolute-form).
    public var target: String {
        get { message.target }
        set { uniqueMessage().target = newValue }
    }
    /// The raw, undecoded path (for absolute-form targets, the path part only).
    public var path: String {
        get { message.path }
        set { uniqueMessage().path = newValue }
    }
    /// The path split on `/` with each segment percent-decoded; `/` gives `[]`.
    public var pathSegments: [String] {
        get { message.pathSegments }
        set { uniqueMessage().pathSegments = newValue }
    }
    /// Decoded query parameters in order (`+` decodes to a space).
    public var query: [(name: String, value: String)] {
        get { message.query }
        set { uniqueMessage().query = newValue }
    }
    /// The header fields.
    public var headers: HTTPHeaders {
        get { message.headers }
        set { uniqueMessage().headers = newValue }
    }
    /// The authority the request is for (RFC 9112 §3.2.2): an absolute-form target's, which wins
    /// over the `Host` field, else the field's value; empty when neither names one.
    public var host: String {
        get { message.host }
        set { uniqueMessage().host = newValue }
    }
    /// The minor version of HTTP/1.x.
    public var versionMinor: Int {
        get { message.versionMinor }
        set { uniqueMessage().versionMinor = newValue }
    }
    /// The decoded body (chunked framing removed).
    public var body: [UInt8]
    /// The echoed or generated request id.
    public var requestId: String
    /// Monotonic instant at which the request's bytes were read.
    public var receivedAt: ContinuousClock.Instant {
        get { Self.clockOrigin.advanced(by: receivedSinceOrigin) }
        set { receivedSinceOrigin = Self.clockOrigin.duration(to: newValue) }
    }
    /// `receivedAt`, kept as its distance from `clockOrigin`. `ContinuousClock.Instant` is not
    /// frozen (a resilient type of the standard library), so a stored one left this struct, the
    /// parser's `Head` and `Event` and the parser itself with a layout known only at run time:
    /// every copy, destroy and optional check of a request went through type metadata and value
    /// witnesses, ~4,000 instructions of a cached read (callgrind, issue 42). `Duration` is frozen.
    var receivedSinceOrigin: Duration
    /// The instant every `receivedSinceOrigin` counts from (this process's first use of it).
    static let clockOrigin = ContinuousClock.now
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
        // A hand-built target that does not decode routes nowhere (it has no segments).
        let parsed = try? RequestTarget.parse(target).get()
        message = Message(
            method: method, target: target, path: parsed?.path ?? target, pathSegments: parsed?.segments ?? [],
            query: parsed?.query ?? [], headers: headers, host: parsed?.authority ?? headers["Host"] ?? "",
            versionMinor: versionMinor)
        self.body = body
        self.requestId = requestId
        receivedSinceOrigin = Self.clockOrigin.duration(to: receivedAt)
    }

    /// Builds a parsed request without re-splitting the target.
    init(
        method: HTTPMethod, target: String, parsed: RequestTarget, headers: HTTPHeaders, versionMinor: Int,
        host: String
    ) {
        message = Message(
            method: method, target: target, path: parsed.path, pathSegments: parsed.segments, query: parsed.query,
            headers: headers, host: host, versionMinor: versionMinor)
        self.body = []
        self.requestId = ""
        // The event loop sets the loop iteration's clock (`EventLoop.clockNow`) before dispatch.
        receivedSinceOrigin = .zero
    }

    /// The box, copied first when another request shares it.
    private mutating func uniqueMessage() -> Message {
        if !isKnownUniquelyReferenced(&message) { message = message.copy() }
        return message
    }

    /// The fields of the request line and head behind `HTTPRequest`'s accessors.
    ///
    /// Safety of `@unchecked Sendable`: an instance is only mutated through
    /// `HTTPRequest.uniqueMessage()`, which first copies it unless `isKnownUniquelyReferenced`
    /// says no other reference exists; a box that two requests (or two threads) can see is never
    /// written, so every shared instance is effectively immutable.
    private final class Message: @unchecked Sendable {
        var method: HTTPMethod
        var target: String
        var path: String
        var pathSegments: [String]
        var query: [(name: String, value: String)]
        var headers: HTTPHeaders
        var host: String
        var versionMinor: Int

        init(
            method: HTTPMethod, target: String, path: String, pathSegments: [String],
            query: [(name: String, value: String)], headers: HTTPHeaders, host: String, versionMinor: Int
        ) {
            self.method = method
            self.target = target
            self.path = path
            self.pathSegments = pathSegments
            self.query = query
            self.headers = headers
            self.host = host
            self.versionMinor = versionMinor
        }

        func copy() -> Message {
            Message(
                method: method, target: target, path: path, pathSegments: pathSegments, query: query,
                headers: headers, host: host, versionMinor: versionMinor)
        }
    }
}

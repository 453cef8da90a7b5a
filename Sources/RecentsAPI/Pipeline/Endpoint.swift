import HTTPServer

/// One operation of the API, declared once: its method, its path pattern and its handler.
///
/// The handler parses the request into a typed value first (path parameters, query and body:
/// every check that needs no database, so a bad request never reaches the store), then answers
/// it, usually by a store read or command and a rendering step. A thrown `APIError` is answered
/// by the pipeline, the one place errors become problem+json.
struct Endpoint: Sendable {
    /// What a handler does with a request that reached it.
    typealias Handler = @Sendable (Exchange) throws(APIError) -> Void

    let method: HTTPMethod
    let pattern: RoutePattern
    let handle: Handler
    /// Who may call it when auth is on; read from the pattern unless declared otherwise.
    var access: EndpointAccess
    /// Whether a token is also accepted as the `access_token` query parameter (RFC 6750 §2.3):
    /// the event stream alone sets it, because a browser's `EventSource` cannot send headers.
    var acceptsQueryToken = false

    /// An endpoint whose handler needs no parsed input (`/healthz`, `/metrics`).
    init(_ method: HTTPMethod, _ pattern: String, handle: @escaping Handler) {
        self.method = method
        self.pattern = RoutePattern(pattern)
        self.handle = handle
        self.access = EndpointAccess(pattern: self.pattern)
    }

    /// This endpoint, also accepting its token as the `access_token` query parameter.
    func acceptingQueryToken() -> Endpoint {
        var endpoint = self
        endpoint.acceptsQueryToken = true
        return endpoint
    }

    /// An endpoint that parses into `Request`, then answers it; `answer` runs only on valid input.
    init<Request: Sendable>(
        _ method: HTTPMethod, _ pattern: String,
        parse: @escaping @Sendable (Exchange) throws(APIError) -> Request,
        answer: @escaping @Sendable (Request, Exchange) -> Void
    ) {
        self.init(method, pattern) { exchange throws(APIError) in
            answer(try parse(exchange), exchange)
        }
    }
}

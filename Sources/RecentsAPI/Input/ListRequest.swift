import RecentsCore

/// A parsed request for one list (`/v1/lists/{list}…`): the commands' version reply names its list.
protocol ListCommandRequest: Sendable {
    /// The list the request is for.
    var list: String { get }
}

/// A validated request for one list and what was read from its query or body.
struct ListRequest<Body: Sendable>: ListCommandRequest {
    var list: String
    var body: Body

    /// Reads `{list}` (404 `no such list` outside its alphabet), then `body`, in that order.
    init(_ exchange: Exchange, body: @autoclosure () throws(APIError) -> Body) throws(APIError) {
        list = try exchange.list()
        self.body = try body()
    }
}

/// A validated request for one call or row of a list: `{list}` and the id after it.
struct ItemRequest<Body: Sendable>: ListCommandRequest {
    var list: String
    var id: String
    var body: Body

    /// Reads `{list}` and the id (404 with `detail` outside their alphabets), then `body`, in that order.
    init(_ exchange: Exchange, or detail: String, body: @autoclosure () throws(APIError) -> Body) throws(APIError) {
        list = try exchange.list(or: detail)
        id = try exchange.id(1, or: detail)
        self.body = try body()
    }
}

extension ListRequest where Body == Void {
    /// A request that names only its list.
    init(_ exchange: Exchange) throws(APIError) {
        try self.init(exchange, body: ())
    }
}

extension ItemRequest where Body == Void {
    /// A request that names only its call or row.
    init(_ exchange: Exchange, or detail: String) throws(APIError) {
        try self.init(exchange, or: detail, body: ())
    }
}

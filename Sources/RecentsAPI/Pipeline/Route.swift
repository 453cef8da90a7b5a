import HTTPServer

/// What one request resolved to: an endpoint, or one of the answers the route table gives itself
/// (404, 405, `OPTIONS`). Built once at start-up and shared by every request that resolves to it,
/// so a request carries one reference, and middleware (metrics, next auth) can read what it names.
final class Route: Sendable {
    /// The label of /metrics: the pattern, or `unmatched` / `unmatched-method`.
    let label: String
    /// Where `label` stands in the router's `labels`: /metrics counts under this number, so a
    /// request hashes no string to be counted.
    let labelIndex: Int
    /// The endpoint this route runs; nil for the table's own answers.
    let endpoint: Endpoint?
    /// Where each path parameter stands among the request's decoded segments.
    let parameterPositions: [Int]
    let handle: Endpoint.Handler

    /// The route of a declared endpoint, its pattern the `labelIndex`-th label.
    init(_ endpoint: Endpoint, labelIndex: Int) {
        label = endpoint.pattern.description
        self.labelIndex = labelIndex
        self.endpoint = endpoint
        parameterPositions = endpoint.pattern.parameterPositions
        handle = endpoint.handle
    }

    /// One of the table's own answers.
    init(label: String, labelIndex: Int, handle: @escaping Endpoint.Handler) {
        self.label = label
        self.labelIndex = labelIndex
        endpoint = nil
        parameterPositions = []
        self.handle = handle
    }
}

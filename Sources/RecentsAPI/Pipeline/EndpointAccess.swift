/// Which token an endpoint needs when auth is on (issue 10).
enum EndpointAccess: Sendable, Hashable {
    /// Anyone: `/healthz`, `/v1/openapi.json`, the web client's files.
    case open
    /// A token for the `{list}` parameter (the first segment after `/v1/lists/`), or an admin one.
    case list
    /// An admin token (`/metrics`).
    case admin
    /// Any valid token, whatever it grants (`GET /v1/me`): declared by the endpoint, never read
    /// from a pattern.
    case identity

    /// The rule of a pattern: everything under `/v1/lists/{list}` is the list's, `/metrics` is
    /// the admin's, the rest is open. Read from the pattern so no new list route can forget it.
    init(pattern: RoutePattern) {
        let segments = pattern.segments
        if segments.count >= 3, segments[0] == .literal("v1"), segments[1] == .literal("lists"),
            case .parameter = segments[2]
        {
            self = .list
        } else if segments == [.literal("metrics")] {
            self = .admin
        } else {
            self = .open
        }
    }
}

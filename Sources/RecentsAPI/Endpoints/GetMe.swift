import RecentsAuth
import RecentsJSON

/// `GET /v1/me`: what the request's token says (issue 25, item 3), so a client holding a token
/// from its identity provider learns which list is its own: `{"list", "scope", "expiresAt"}`.
///
/// Any valid token may ask, whatever its scope; without one, 401 as everywhere. A server running
/// without access control answers 404: no token names a list there.
enum GetMe {
    static func make(_ service: Service) -> Endpoint {
        var endpoint = Endpoint(.GET, "/v1/me") { exchange throws(APIError) in
            guard let claims = exchange.context.claims else {
                throw .notFound("this server runs without access control, so no token names a list")
            }
            // The answer is the token's, and a token is a secret: no cache may keep it.
            exchange.json(200, render(claims), headers: [("Cache-Control", "no-store")])
        }
        endpoint.access = .identity
        return endpoint
    }

    /// `{"list": "alice", "scope": ["read", "write"], "expiresAt": 1764464400}`: the scope as the
    /// words this server acts on, `expiresAt` the token's `exp` (refused 60 s of skew later).
    static func render(_ claims: TokenClaims) -> [UInt8] {
        var json = JSONWriter()
        json.raw("{")
        json.key("list")
        json.string(claims.subject)
        json.comma()
        json.key("scope")
        let words = claims.scope.description.split(separator: " ").map(String.init)
        json.array(words) { $0.string($1) }
        json.comma()
        json.key("expiresAt")
        json.int(claims.expiresAt)
        json.raw("}")
        return json.bytes
    }
}

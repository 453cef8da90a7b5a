import RecentsCore

/// What a request touches, for the access rules of issue 10.
public enum ProtectedResource: Sendable, Hashable {
    /// `/v1/lists/{list}` and everything below it.
    case list(String)
    /// `/metrics`: admin tokens only.
    case metrics
    /// `GET /v1/me`: what the token itself says, open to any valid token whatever its scope.
    case identity
}

/// Whether a request reads or changes what it touches.
public enum AccessKind: Sendable, Hashable {
    /// GET and HEAD, the long-poll and the event stream.
    case read
    /// Every other method, `DELETE /v1/lists/{list}` included.
    case write
}

/// The answer to "may this request go on?".
public enum AuthDecision: Sendable, Hashable {
    /// Go on, on behalf of these claims.
    case allow(TokenClaims)
    /// 401 `unauthorized`: no token, or one that did not verify (`nil` when none was sent).
    case unauthorized(TokenError?)
    /// 403 `forbidden`: a valid token for another list, or without the scope needed.
    case forbidden

    /// The `WWW-Authenticate` value of a refusal (RFC 6750 §3), nil when allowed.
    public var wwwAuthenticate: String? {
        switch self {
        case .allow: return nil
        case .unauthorized(nil): return #"Bearer realm="recents""#
        case .unauthorized: return #"Bearer realm="recents", error="invalid_token""#
        case .forbidden: return #"Bearer realm="recents", error="insufficient_scope""#
        }
    }

    /// The HTTP status: 200 stands for "go on".
    public var status: Int {
        switch self {
        case .allow: return 200
        case .unauthorized: return 401
        case .forbidden: return 403
        }
    }
}

/// The access rules of issue 10, as a pure function.
public enum Authorizer {
    /// Decides a request from its credential, what it touches and how.
    ///
    /// A token's `sub` must be the list exactly (byte for byte: `a` does not open `ab`), unless
    /// its scope has `admin`, which opens every list and `/metrics`. Reads need `read`, writes
    /// `write` (`admin` implies both). `GET /v1/me` needs a valid token and nothing more. Whether the list exists plays no part, so a refusal
    /// reveals nothing about it.
    public static func decide(
        _ credential: Credential, resource: ProtectedResource, access: AccessKind
    ) -> AuthDecision {
        let claims: TokenClaims
        switch credential {
        case .missing: return .unauthorized(nil)
        case .rejected(let error): return .unauthorized(error)
        case .verified(let verified): claims = verified
        }
        if claims.scope.contains(.admin) { return .allow(claims) }
        switch resource {
        case .identity:
            return .allow(claims)
        case .metrics:
            return .forbidden
        case .list(let list):
            guard Bytewise.equal(claims.subject, list) else { return .forbidden }
            let allowed = access == .read ? claims.scope.allowsRead : claims.scope.allowsWrite
            return allowed ? .allow(claims) : .forbidden
        }
    }
}

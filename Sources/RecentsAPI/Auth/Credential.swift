/// What a request proved about its caller, before any rule about what it touches.
public enum Credential: Sendable, Hashable {
    /// No bearer token at all (no `Authorization` field, or one with another scheme).
    case missing
    /// A token that verified, with its claims.
    case verified(TokenClaims)
    /// A token that was sent and refused.
    case rejected(TokenError)
}

extension JWTVerifier {
    /// The credential of a request, from every `Authorization` field it carried and, on the
    /// event stream alone, its `access_token` query parameter (RFC 6750 §2.3, because a
    /// browser's `EventSource` cannot send headers).
    ///
    /// A field with a scheme other than `Bearer` counts as no token (RFC 6750 §3: no error code
    /// for a request that used an unsupported method). A token sent twice is refused
    /// (RFC 6750 §2: one method per request), so no two proxies can disagree on which one counts.
    public func credential(authorization fields: some Collection<String>, accessToken: String? = nil) -> Credential {
        var token: Substring?
        var sent = 0
        for field in fields {
            switch BearerField(field) {
            case .otherScheme: continue
            case .malformed: return .rejected(.malformed)
            case .token(let value):
                token = value
                sent += 1
            }
        }
        if let accessToken {
            token = accessToken[...]
            sent += 1
        }
        guard sent <= 1 else { return .rejected(.ambiguous) }
        guard let token else { return .missing }
        do {
            return .verified(try verify(token))
        } catch {
            return .rejected(error)
        }
    }
}

/// One `Authorization` field value read as RFC 6750 §2.1's `Bearer 1*SP b64token`.
enum BearerField: Equatable {
    case otherScheme
    case malformed
    case token(Substring)

    /// Works on UTF-8 bytes: this runs on every authenticated request, on the event loop.
    init(_ value: String) {
        let utf8 = value.utf8
        let space = UInt8(ascii: " ")
        let schemeEnd = utf8.firstIndex(of: space) ?? utf8.endIndex
        // The auth-scheme is case-insensitive (RFC 9110 §11.1); `| 0x20` folds ASCII letters.
        guard utf8[..<schemeEnd].elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }) else {
            self = .otherScheme
            return
        }
        var start = schemeEnd
        while start < utf8.endIndex, utf8[start] == space { start = utf8.index(after: start) }
        // The token's own alphabet is the verifier's business; here only "something, one word".
        guard start < utf8.endIndex, !utf8[start...].contains(space) else {
            self = .malformed
            return
        }
        self = .token(value[start...])
    }
}

import Glibc

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
    ///
    /// The fields come as an array, not any collection: a generic parameter across the module
    /// boundary ran unspecialised (metadata lookups on every authenticated request).
    public func credential(authorization fields: [String], accessToken: String? = nil) -> Credential {
        credential(authorization: fields, accessToken: accessToken, keeping: false).credential
    }

    /// The credential of a request, as above, for a caller that keeps what it is given (one per
    /// connection, say) and hands it back with the next request: the same token again, alone in
    /// one field, is then matched against it (`credential(field:remembered:)`) and skips the
    /// shared cache. `keep` is what to keep from now on (nil: nothing worth keeping).
    public func credential(
        authorization fields: [String], accessToken: String?, remembered: RememberedToken?
    ) -> (credential: Credential, keep: RememberedToken?) {
        if let remembered, accessToken == nil, fields.count == 1 {
            var field = fields[0]
            if let known = field.withUTF8({ credential(field: $0, remembered: remembered) }) {
                guard case .verified = known else { return (known, nil) }
                return (known, remembered)
            }
        }
        return credential(authorization: fields, accessToken: accessToken, keeping: true)
    }

    /// The credential of a request whose only `Authorization` field is `field` and carries
    /// `remembered`'s token, worked out from what was kept without decoding the field into a
    /// string; nil when the field holds anything else (the caller then asks with every field).
    public func credential(field: UnsafeBufferPointer<UInt8>, remembered: RememberedToken) -> Credential? {
        guard case let start?? = BearerField.tokenStart(field) else { return nil }
        do {
            guard let claims = try kept(remembered, for: UnsafeBufferPointer(rebasing: field[start...]), now: now)
            else { return nil }
            return .verified(claims)
        } catch {
            return .rejected(error)
        }
    }

    private func credential(
        authorization fields: [String], accessToken: String?, keeping: Bool
    ) -> (credential: Credential, keep: RememberedToken?) {
        var token: Substring?
        var sent = 0
        for field in fields {
            switch BearerField(field) {
            case .otherScheme: continue
            case .malformed: return (.rejected(.malformed), nil)
            case .token(let value):
                token = value
                sent += 1
            }
        }
        if let accessToken {
            token = accessToken[...]
            sent += 1
        }
        guard sent <= 1 else { return (.rejected(.ambiguous), nil) }
        guard let token else { return (.missing, nil) }
        do {
            let verified = try verify(token, now: now, keeping: keeping)
            return (.verified(verified.claims), verified.keep)
        } catch {
            return (.rejected(error), nil)
        }
    }
}

/// One `Authorization` field value read as RFC 6750 §2.1's `Bearer 1*SP b64token`.
enum BearerField: Equatable {
    case otherScheme
    case malformed
    case token(Substring)

    /// Works on the UTF-8 buffer itself with plain index loops: this runs on every authenticated
    /// request, on the event loop, where stepping through `String.UTF8View` indices, and then the
    /// generic `prefix`/`drop`/`contains` over a slice, cost more than the lookup of a cached token.
    init(_ value: String) {
        var value = value
        let parsed = value.withUTF8(Self.tokenStart)
        switch parsed {
        case nil: self = .otherScheme
        case .some(nil): self = .malformed
        case .some(let offset?):
            let utf8 = value.utf8
            self = .token(value[utf8.index(utf8.startIndex, offsetBy: offset)...])
        }
    }

    /// Where the token starts in `bytes`: nil for another scheme, `.some(nil)` when the field is
    /// not `Bearer` and one word.
    static func tokenStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int?? {
        let space = UInt8(ascii: " ")
        let scheme = "bearer".utf8
        // The auth-scheme is case-insensitive (RFC 9110 §11.1); `| 0x20` folds ASCII letters, and
        // the scheme is letters only, so no other byte can match.
        guard bytes.count == scheme.count || (bytes.count > scheme.count && bytes[scheme.count] == space) else {
            return nil
        }
        var index = 0
        for letter in scheme {
            guard bytes[index] | 0x20 == letter else { return nil }
            index += 1
        }
        while index < bytes.count && bytes[index] == space { index += 1 }
        let start = index
        guard start < bytes.count, let base = bytes.baseAddress else { return .some(nil) }
        // The token's own alphabet is the verifier's business; here only "something, one word".
        // memchr, not a loop a byte at a time: a token is ~170 bytes, and the loop was a fifth of
        // what authenticating a request cost (callgrind, issue 42).
        return memchr(base + start, Int32(space), bytes.count - start) == nil ? .some(start) : .some(nil)
    }
}

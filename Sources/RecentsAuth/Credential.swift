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

    /// Works on the UTF-8 buffer itself: this runs on every authenticated request, on the
    /// event loop, where stepping through `String.UTF8View` indices cost more than the lookup
    /// of a cached token.
    init(_ value: String) {
        let utf8 = value.utf8
        let parsed = utf8.withContiguousStorageIfAvailable(Self.tokenStart) ?? Self.tokenStart(Array(utf8))
        switch parsed {
        case nil: self = .otherScheme
        case .some(nil): self = .malformed
        case .some(let offset?): self = .token(value[utf8.index(utf8.startIndex, offsetBy: offset)...])
        }
    }

    /// Where the token starts in `bytes`: nil for another scheme, `.some(nil)` when the field is
    /// not `Bearer` and one word.
    private static func tokenStart(_ bytes: some RandomAccessCollection<UInt8>) -> Int?? {
        let space = UInt8(ascii: " ")
        var schemeEnd = 0
        for byte in bytes {
            if byte == space { break }
            schemeEnd += 1
        }
        // The auth-scheme is case-insensitive (RFC 9110 §11.1); `| 0x20` folds ASCII letters.
        guard bytes.prefix(schemeEnd).elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }) else { return nil }
        let rest = bytes.dropFirst(schemeEnd).drop { $0 == space }
        // The token's own alphabet is the verifier's business; here only "something, one word".
        guard !rest.isEmpty, !rest.contains(space) else { return .some(nil) }
        return .some(bytes.count - rest.count)
    }
}

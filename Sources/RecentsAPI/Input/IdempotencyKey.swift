import RecentsStore

/// The `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header): a client's
/// name for one logical request, so a retry after a lost answer gets the first answer instead of
/// a second write.
enum IdempotencyKey {
    /// The header's name.
    static let header = "Idempotency-Key"
    /// The longest key accepted, in bytes.
    static let maximumLength = 255

    /// The key `exchange` carries, or nil when it has none.
    /// - Throws: 400 `bad-request` when the field is repeated, empty, longer than 255 bytes or
    ///   holds anything but visible ASCII (0x21–0x7E).
    static func parse(_ exchange: Exchange) throws(APIError) -> String? {
        let values = exchange.request.headers.values(for: header)
        guard let key = values.first else { return nil }
        guard values.count == 1 else { throw .badRequest("send one \(header) field, not \(values.count)") }
        guard (1...maximumLength).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else {
            throw .badRequest("\(header) must be 1 to \(maximumLength) visible ASCII characters (no spaces)")
        }
        return key
    }
}

extension IdempotencyKey {
    /// What recognises a retry of `exchange`'s request: its body, and unless `bodyOnly` its method
    /// and target too (the same key on `DELETE …/calls/a` and then `…/calls/b` is two requests,
    /// though both bodies are empty).
    static func fingerprint(_ exchange: Exchange, bodyOnly: Bool) -> String {
        let request = exchange.request
        if bodyOnly { return IdempotentReply.fingerprint(of: request.body) }
        var bytes = Array("\(request.method.rawValue) \(request.target)\n".utf8)
        bytes.append(contentsOf: request.body)
        return IdempotentReply.fingerprint(of: bytes)
    }
}

extension APIError {
    /// 422: an `Idempotency-Key` already used in this list with a different request.
    static func idempotencyKeyReused(_ key: String, list: String) -> APIError {
        APIError(
            status: 422, type: "idempotency-key-reused", title: "Idempotency key reused",
            detail: "the Idempotency-Key '\(key)' was used in list '\(list)' with a different request; use a new key")
    }
}

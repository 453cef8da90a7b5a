import RecentsCrypto
import RecentsJSON

extension JWTVerifier {
    /// What `bytes` proves if it is a well-formed token signed by a trusted key: its claims (the
    /// time claims read, not checked) and, for a provider's token, the key that verified it.
    ///
    /// The header's `alg` picks the path. `HS256` goes to the shared secret, and only when one is
    /// configured; RS256, PS256, ES256 and EdDSA go to the provider's key that `kid` names, and only
    /// when that key's own `alg` is the token's: a token never chooses how a key is used, so
    /// neither `none` nor an HS256 "signature" made with a public key's PEM gets anywhere (RFC 8725
    /// §2.1, §3.1).
    func verifySignature(_ bytes: [UInt8]) throws(TokenError) -> CachedToken {
        let dot = UInt8(ascii: ".")
        guard let firstDot = bytes.firstIndex(of: dot),
            let secondDot = bytes[(firstDot + 1)...].firstIndex(of: dot),
            !bytes[(secondDot + 1)...].contains(dot),
            firstDot > 0, secondDot > firstDot + 1, secondDot < bytes.count - 1
        else { throw .malformed }
        let headerSegment = bytes[..<firstDot]
        let payloadSegment = bytes[(firstDot + 1)..<secondDot]
        let signatureSegment = bytes[(secondDot + 1)...]
        // The signing input is the ASCII of `header.payload` exactly as sent (RFC 7515 §5.2).
        let signingInput = bytes[..<secondDot]

        if secret != nil, Self.commonHeaders.contains(where: { $0.elementsEqual(headerSegment) }) {
            return try verifyHS256(signingInput, signatureSegment, payloadSegment)
        }
        let header = try Self.object(headerSegment, .header)
        guard case .string(let alg)? = header.first(where: { $0.0 == "alg" })?.1 else { throw .unsupportedAlgorithm }
        // RFC 7515 §4.1.11: extensions that must be understood are refused, since none is.
        if header.contains(where: { $0.0 == "crit" }) { throw .criticalHeader }
        if alg.utf8.elementsEqual("HS256".utf8) {
            return try verifyHS256(signingInput, signatureSegment, payloadSegment)
        }
        // Byte for byte: `String` equality would also match canonically equivalent spellings.
        guard let provider,
            let algorithm = SignatureAlgorithm.allCases.first(where: { $0.rawValue.utf8.elementsEqual(alg.utf8) })
        else { throw .unsupportedAlgorithm }
        guard case .string(let kid)? = header.first(where: { $0.0 == "kid" })?.1,
            let (jwk, generation) = provider.key(kid)
        else { throw .unknownKey }
        guard jwk.algorithm == algorithm else { throw .algorithmMismatch }
        guard let signature = Base64URL.decode(signatureSegment) else { throw .invalidEncoding(.signature) }
        guard jwk.verify(signature: signature, message: signingInput) else { throw .badSignature }
        let claims = try provider.claims(from: Self.object(payloadSegment, .payload))
        return CachedToken(claims: claims, key: KeyStamp(kid: kid, key: jwk.key, generation: generation))
    }

    /// The HS256 path: the HMAC under the shared secret, then the claims every token has.
    private func verifyHS256(
        _ signingInput: ArraySlice<UInt8>, _ signatureSegment: ArraySlice<UInt8>, _ payloadSegment: ArraySlice<UInt8>
    ) throws(TokenError) -> CachedToken {
        // Without a secret HS256 means nothing here: with a key set only, accepting it would let a
        // token signed with a public key's text as the HMAC key through.
        guard let secret else { throw .unsupportedAlgorithm }
        guard let signature = Base64URL.decode(signatureSegment) else { throw .invalidEncoding(.signature) }
        let verified =
            key?.isValid(signature, for: signingInput)
            ?? HMACSHA256.isValid(signature, key: secret.bytes, message: signingInput)
        guard verified else { throw .badSignature }
        return CachedToken(claims: try TokenClaims.read(from: Self.object(payloadSegment, .payload)), key: nil)
    }

    /// The headers JWT libraries write for HS256, already encoded: a token with one of them
    /// skips decoding and parsing a header whose verdict is known (an `HS256` `alg`, no `crit`).
    private static let commonHeaders: [[UInt8]] = [#"{"alg":"HS256","typ":"JWT"}"#, #"{"alg":"HS256"}"#].map {
        Array(Base64URL.encode(Array($0.utf8)).utf8)
    }

    private static func object(
        _ segment: ArraySlice<UInt8>, _ part: TokenSegment
    ) throws(TokenError) -> [(String, JSONValue)] {
        guard let json = Base64URL.decode(segment) else { throw .invalidEncoding(part) }
        guard case .object(let members)? = try? JSONParser.parse(json) else { throw .invalidJSON(part) }
        return members
    }
}

internal import CCrypto

/// Making keys from the members of a JWK (RFC 7518 §6, RFC 8037 §2), refusing what no honest
/// issuer publishes.
extension PublicKey {
    /// An RSA key from a JWK's `n` and `e` (RFC 7518 §6.3.1), as unsigned big-endian bytes.
    /// - Throws: `JWKError` naming `n` for a modulus under 2048 bits, over 16,384 bits or even;
    ///   naming `e` for an exponent that is even, 1, or over 64 bits.
    public convenience init(rsaModulus modulus: [UInt8], exponent: [UInt8]) throws(JWKError) {
        // Zero octets in front carry no value; RFC 7518 §6.3.1.1 asks issuers to leave them out,
        // and some libraries add one anyway, so they are skipped rather than refused.
        let n = Array(modulus.drop { $0 == 0 })
        let e = Array(exponent.drop { $0 == 0 })
        guard let nFirst = n.first, let nLast = n.last else {
            throw JWKError(member: "n", reason: "the RSA modulus is zero")
        }
        let bits = n.count * 8 - nFirst.leadingZeroBitCount
        guard bits >= Self.minimumRSABits else {
            throw JWKError(
                member: "n",
                reason: "an RSA modulus must have at least \(Self.minimumRSABits) bits; this one has \(bits)")
        }
        guard bits <= Self.maximumRSABits else {
            throw JWKError(
                member: "n", reason: "an RSA modulus may have at most \(Self.maximumRSABits) bits; this one has \(bits)"
            )
        }
        guard nLast & 1 == 1 else { throw JWKError(member: "n", reason: "an RSA modulus is odd; this one is even") }
        // An even exponent has no inverse modulo φ(n), and with e = 1 a "signature" is the padded
        // message itself: neither is a key anyone could have signed with.
        guard let eFirst = e.first, let eLast = e.last, eLast & 1 == 1, e != [1] else {
            throw JWKError(member: "e", reason: "an RSA public exponent must be odd and greater than 1")
        }
        guard e.count * 8 - eFirst.leadingZeroBitCount <= Self.maximumRSAExponentBits else {
            throw JWKError(
                member: "e", reason: "an RSA public exponent may have at most \(Self.maximumRSAExponentBits) bits")
        }
        let key = n.withUnsafeBufferPointer { n in
            e.withUnsafeBufferPointer { e in recents_rsa_public_key(n.baseAddress, n.count, e.baseAddress, e.count) }
        }
        guard let key else {
            throw JWKError(member: "n", reason: "libcrypto refused the RSA key: \(CryptoError.last())")
        }
        self.init(kind: .rsa(bits: bits), key: key)
    }

    /// A P-256 key from a JWK's `x` and `y` (RFC 7518 §6.2.1), 32 big-endian bytes each.
    /// - Throws: `JWKError` naming `x` or `y` for a coordinate of another length, and `y` for a
    ///   point that is not on the curve (or a coordinate not below the field prime).
    public convenience init(p256X x: [UInt8], y: [UInt8]) throws(JWKError) {
        // RFC 7518 §6.2.1.2-3: each coordinate is the full size of a field element, 32 octets.
        guard x.count == 32 else {
            throw JWKError(member: "x", reason: "a P-256 coordinate is 32 bytes; this one has \(x.count)")
        }
        guard y.count == 32 else {
            throw JWKError(member: "y", reason: "a P-256 coordinate is 32 bytes; this one has \(y.count)")
        }
        let point: [UInt8] = [0x04] + x + y  // SEC 1 §2.3.3, uncompressed
        let key = point.withUnsafeBufferPointer { recents_p256_public_key($0.baseAddress, $0.count) }
        // OpenSSL 3.0's decoding already refuses a point off the curve and coordinates not below
        // the field prime; the full public-key validation of SP 800-56A rev. 3 §5.6.2.3.3 runs as
        // well, so the rule holds here by statement, not by how decoding happens to work.
        guard let key, Self.passesPublicCheck(key) else {
            let detail = CryptoError.last()
            if let key { EVP_PKEY_free(key) }
            throw JWKError(member: "y", reason: "(x, y) is not a point on P-256 (\(detail))")
        }
        self.init(kind: .p256, key: key)
    }

    /// An Ed25519 key from an OKP JWK's `x` (RFC 8037 §2): the 32-byte public key of RFC 8032 §5.1.5.
    /// - Throws: `JWKError` naming `x` for any other length.
    public convenience init(ed25519 x: [UInt8]) throws(JWKError) {
        guard x.count == 32 else {
            throw JWKError(member: "x", reason: "an Ed25519 public key is 32 bytes; this one has \(x.count)")
        }
        let key = x.withUnsafeBufferPointer {
            EVP_PKEY_new_raw_public_key_ex(nil, "ED25519", nil, $0.baseAddress, $0.count)
        }
        guard let key else {
            throw JWKError(member: "x", reason: "libcrypto refused the Ed25519 key: \(CryptoError.last())")
        }
        self.init(kind: .ed25519, key: key)
    }

    private static func passesPublicCheck(_ key: OpaquePointer) -> Bool {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        return EVP_PKEY_public_check(context) == 1
    }
}

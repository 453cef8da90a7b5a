internal import CCrypto

extension PublicKey {
    /// Whether `signature` is a valid `algorithm` signature of `message` under this key.
    ///
    /// False, never a crash, for anything else: an algorithm this kind of key does not allow, a
    /// signature of the wrong length or form, any bytes at all, or a libcrypto failure. Each call
    /// makes its own `EVP_MD_CTX` and frees it before returning, so concurrent calls share only
    /// the key, read-only.
    public func verify(
        signature: some Collection<UInt8>, message: some Collection<UInt8>, algorithm: SignatureAlgorithm
    ) -> Bool {
        guard allows(algorithm) else { return false }
        // A refused signature leaves reasons on this thread's OpenSSL error queue; they must not
        // surface as the reason of the next, unrelated failure (`CryptoError.last()`).
        defer { ERR_clear_error() }
        switch kind {
        case .rsa(let bits):
            // RFC 8017 §8.1.2 and §8.2.2 step 1: a signature is exactly k octets. OpenSSL's PSS path
            // would also take one with its leading zero octets left out, a second spelling.
            guard signature.count == (bits + 7) / 8 else { return false }
        case .p256:
            // RFC 7518 §3.4: r || s, 32 octets each; libcrypto wants the DER ECDSA-Sig-Value.
            guard signature.count == 64 else { return false }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maximumDERSignatureLength) { der in
                guard let output = der.baseAddress else { return false }
                let length = withContiguousBytes(signature) { rs, _ in
                    recents_ecdsa_der_signature(rs, 32, output, der.count)
                }
                guard length > 0 else { return false }
                return digestVerify(UnsafeBufferPointer(start: output, count: length), message, algorithm)
            }
        case .ed25519:
            break
        }
        return withContiguousBytes(signature) { base, count in
            digestVerify(UnsafeBufferPointer(start: base, count: count), message, algorithm)
        }
    }

    /// SEQUENCE { INTEGER r, INTEGER s } with 33-byte integers (a zero octet before a high bit).
    private static let maximumDERSignatureLength = 2 + 2 * (2 + 33)

    private func digestVerify(
        _ signature: UnsafeBufferPointer<UInt8>, _ message: some Collection<UInt8>, _ algorithm: SignatureAlgorithm
    ) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        // Ed25519 hashes inside the scheme (RFC 8032 §5.1.7), so it is given no digest.
        let digest: String? = algorithm == .edDSA ? nil : "SHA256"
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit_ex(context, &keyContext, digest, nil, nil, key, nil) == 1 else { return false }
        switch algorithm {
        case .rs256:
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1 else { return false }
        case .ps256:
            // RFC 7518 §3.5: MGF1 with SHA-256 and a salt as long as the hash. A positive salt
            // length makes OpenSSL refuse any other, rather than accept whatever the signer chose.
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                EVP_PKEY_CTX_set_rsa_mgf1_md_name(keyContext, "SHA256", nil) == 1,
                EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, 32) == 1
            else { return false }
        case .es256, .edDSA:
            break
        }
        return withContiguousBytes(message) { base, count in
            EVP_DigestVerify(context, signature.baseAddress, signature.count, base, count) == 1
        }
    }
}

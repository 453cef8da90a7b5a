internal import CCrypto

/// A public key that verifies JWS signatures (RSA, P-256 or Ed25519), held by libcrypto as an
/// `EVP_PKEY` made from a JWK's members (already base64url-decoded) and never changed after.
///
/// `@unchecked Sendable` is safe because nothing writes to the `EVP_PKEY` after `init`: each
/// verification only reads it, through an `EVP_MD_CTX` made for that call and freed before it
/// returns (`PublicKey+Verification.swift`). openssl-threads(7) for OpenSSL 3.0: "Objects are
/// thread-safe as long as the API's being invoked don't modify the object", and "two threads can
/// calculate a signature using two different EVP_PKEY_CTX objects"; the unsafe case it names is
/// one thread mutating a key while another verifies with it, which this type cannot do. What a
/// verification does touch inside the key is its reference count (atomic) and, for a key from
/// another provider, an export cache kept under the key's own lock; these keys come from the
/// default provider's key manager, the one that verifies, so `evp_keymgmt_util_export_to_provider`
/// returns the key's data without touching that cache (crypto/evp/keymgmt_lib.c, its "origin"
/// check). OpenSSL's maintainers confirm that an unmodified EVP_PKEY may be shared by threads for
/// verification (openssl/openssl issue 16496); libssl itself shares one per SSL_CTX.
public final class PublicKey: @unchecked Sendable {
    /// What kind of key this is, which fixes the algorithms it verifies.
    public enum Kind: Sendable, Hashable {
        /// RSA, with its modulus size in bits: RS256 and PS256.
        case rsa(bits: Int)
        /// ECDSA on P-256: ES256.
        case p256
        /// Ed25519: EdDSA.
        case ed25519
    }

    /// The smallest RSA modulus accepted, in bits: "A key of size 2048 bits or larger MUST be used
    /// with these algorithms" (RFC 7518 §3.3 for RS256, §3.5 for PS256).
    public static let minimumRSABits = 2048
    /// The largest RSA modulus accepted, in bits: OpenSSL refuses to verify with a larger one
    /// (`OPENSSL_RSA_MAX_MODULUS_BITS`), so such a key would only ever fail.
    public static let maximumRSABits = 16384
    /// The longest RSA public exponent accepted, in bits: OpenSSL refuses longer ones with moduli
    /// over 3072 bits (`OPENSSL_RSA_MAX_PUBEXP_BITS`); one rule for every size, and issuers use 65537.
    public static let maximumRSAExponentBits = 64

    /// The kind of key (for RSA, its modulus size).
    public let kind: Kind
    /// The `EVP_PKEY *`, owned by this object and freed in `deinit`.
    let key: OpaquePointer

    /// Takes ownership of `key`, an `EVP_PKEY *` of `kind`.
    init(kind: Kind, key: OpaquePointer) {
        self.kind = kind
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// Whether this kind of key verifies `algorithm` (an RSA key never verifies ES256, and so on).
    public func allows(_ algorithm: SignatureAlgorithm) -> Bool {
        switch (kind, algorithm) {
        case (.rsa, .rs256), (.rsa, .ps256), (.p256, .es256), (.ed25519, .edDSA): true
        default: false
        }
    }
}

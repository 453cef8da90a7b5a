internal import CCrypto

/// SHA-256 (FIPS 180-4) computed by OpenSSL's libcrypto.
public enum SHA256 {
    /// The digest length in bytes.
    public static let byteCount = 32

    /// The 32-byte digest of `bytes`.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
            let status = withContiguousBytes(bytes) { input, count in
                EVP_Digest(input, count, output.baseAddress, nil, EVP_sha256(), nil)
            }
            // EVP_Digest on memory fails only when libcrypto cannot allocate its context; there
            // is no digest to return and no caller that could go on without one.
            guard status == 1 else { fatalError("libcrypto EVP_Digest(SHA-256) failed: \(CryptoError.last())") }
            initialized = byteCount
        }
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        Hex.encode(digest(bytes))
    }
}

internal import CCrypto

/// Cryptographically secure random bytes from libcrypto's DRBG (seeded by the kernel).
public enum SecureRandom {
    /// `count` random bytes.
    /// - Throws: `CryptoError` when libcrypto cannot seed or run its generator.
    public static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        guard count >= 0, let length = Int32(exactly: count) else {
            throw CryptoError(description: "RAND_bytes: \(count) is not a valid byte count")
        }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0, let base = buffer.baseAddress {
                // Zeroes first, so a failed call never hands out uninitialised memory.
                base.initialize(repeating: 0, count: count)
                failed = RAND_bytes(base, length) != 1
            }
            initialized = count
        }
        if failed { throw CryptoError(description: "RAND_bytes failed: \(CryptoError.last())") }
        return bytes
    }
}

internal import CCrypto

/// HMAC-SHA256 (RFC 2104) computed by OpenSSL's libcrypto, and its constant-time check.
public enum HMACSHA256 {
    /// The authentication code length in bytes.
    public static let byteCount = 32

    /// The 32-byte authentication code of `message` under `key`.
    public static func authenticationCode(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
            guard let base = output.baseAddress, compute(key: key, message: message, into: base) else {
                // As for SHA256.digest: only an allocation failure inside libcrypto gets here.
                fatalError("libcrypto HMAC(SHA-256) failed: \(CryptoError.last())")
            }
            initialized = byteCount
        }
    }

    /// Whether `code` is the authentication code of `message` under `key`, compared in
    /// constant time so the comparison leaks nothing about how many leading bytes matched.
    ///
    /// Computes into a stack buffer: the hot path of token verification allocates nothing here.
    public static func isValid(
        _ code: some Collection<UInt8>, key: some Collection<UInt8>, message: some Collection<UInt8>
    ) -> Bool {
        guard code.count == byteCount else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byteCount) { expected in
            guard let base = expected.baseAddress, compute(key: key, message: message, into: base) else {
                return false
            }
            return ConstantTime.equals(UnsafeBufferPointer(expected), code)
        }
    }

    private static func compute(
        key: some Collection<UInt8>, message: some Collection<UInt8>, into output: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        withContiguousBytes(key) { keyBase, keyCount in
            guard let keyLength = Int32(exactly: keyCount) else { return false }
            return withContiguousBytes(message) { messageBase, messageCount in
                var length: UInt32 = 0
                let result = HMAC(EVP_sha256(), keyBase, keyLength, messageBase, messageCount, output, &length)
                return result != nil && length == UInt32(byteCount)
            }
        }
    }
}

internal import CCrypto
import Synchronization

/// An HMAC-SHA256 key prepared once in libcrypto, for computing many codes with the same key
/// (every token verification uses the one auth secret).
///
/// Each computation borrows a keyed context from a small pool, re-initialises it (which keeps
/// the key) and returns it, so concurrent callers on different threads never share a context
/// and the pool grows only to the number of callers at once.
public final class HMACSHA256Key: Sendable {
    private let contexts: Mutex<ContextPool>

    /// Prepares `key`.
    /// - Throws: `CryptoError` for an empty key (no secret worth the name) or when libcrypto fails.
    public init(_ key: [UInt8]) throws(CryptoError) {
        guard !key.isEmpty else { throw CryptoError(description: "an HMAC key must not be empty") }
        let template = key.withUnsafeBufferPointer { recents_hmac_sha256_context($0.baseAddress, $0.count) }
        guard let template else {
            throw CryptoError(description: "libcrypto could not key HMAC-SHA256: \(CryptoError.last())")
        }
        contexts = Mutex(ContextPool(template: MACContext(pointer: template)))
    }

    deinit {
        contexts.withLock { pool in
            for context in pool.idle { EVP_MAC_CTX_free(context.pointer) }
            EVP_MAC_CTX_free(pool.template.pointer)
        }
    }

    /// The 32-byte authentication code of `message`.
    public func authenticationCode(_ message: some Collection<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: HMACSHA256.byteCount) { output, initialized in
            guard let base = output.baseAddress, compute(message, into: base) else {
                // As for SHA256.digest: only an allocation failure inside libcrypto gets here.
                fatalError("libcrypto HMAC-SHA256 failed: \(CryptoError.last())")
            }
            initialized = HMACSHA256.byteCount
        }
    }

    /// Whether `code` is the authentication code of `message`, compared in constant time.
    public func isValid(_ code: some Collection<UInt8>, for message: some Collection<UInt8>) -> Bool {
        guard code.count == HMACSHA256.byteCount else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: HMACSHA256.byteCount) { expected in
            guard let base = expected.baseAddress, compute(message, into: base) else { return false }
            return ConstantTime.equals(UnsafeBufferPointer(expected), code)
        }
    }

    private func compute(_ message: some Collection<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Bool {
        guard let context = contexts.withLock({ $0.borrow() }) else { return false }
        defer { contexts.withLock { $0.idle.append(context) } }
        return withContiguousBytes(message) { base, count in
            var length = 0
            return EVP_MAC_init(context.pointer, nil, 0, nil) == 1
                && EVP_MAC_update(context.pointer, base, count) == 1
                && EVP_MAC_final(context.pointer, output, &length, HMACSHA256.byteCount) == 1
                && length == HMACSHA256.byteCount
        }
    }
}

/// An `EVP_MAC_CTX *`.
///
/// `@unchecked Sendable` is safe because of how `ContextPool` hands them out: a context is either
/// idle in the pool (touched only under its mutex) or borrowed by exactly one caller, who uses
/// it on one thread and gives it back; the template is only read, by `EVP_MAC_CTX_dup`, under
/// the mutex.
private struct MACContext: @unchecked Sendable {
    let pointer: OpaquePointer
}

private struct ContextPool {
    let template: MACContext
    var idle: [MACContext] = []

    /// An idle context, or a new copy of the template when every one is borrowed.
    mutating func borrow() -> MACContext? {
        if let context = idle.popLast() { return context }
        return EVP_MAC_CTX_dup(template.pointer).map(MACContext.init(pointer:))
    }
}

internal import CCrypto

/// Comparisons whose running time does not depend on where the inputs differ.
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes, via libcrypto's `CRYPTO_memcmp`.
    ///
    /// Lengths are compared first and may leak: they are public for every use here (a MAC's
    /// length is fixed by its algorithm).
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return withContiguousBytes(a) { aBase, count in
            withContiguousBytes(b) { bBase, _ in CRYPTO_memcmp(aBase, bBase, count) == 0 }
        }
    }
}

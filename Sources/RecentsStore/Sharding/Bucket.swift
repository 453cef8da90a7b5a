import RecentsCrypto

/// Where a list's name puts it: one of `Bucket.count` buckets, fixed for good, so shards are
/// added by moving whole buckets and never by hashing lists again.
public enum Bucket {
    /// How many buckets there are: well above the largest shard count planned (docs/CAPACITY.md).
    public static let count = 4096

    /// The bucket of `list`: the first 8 bytes of SHA-256 of its UTF-8 bytes, big-endian, modulo
    /// `count`. A cryptographic hash only because it is stable across versions and platforms
    /// (Swift's `Hasher` is seeded per process) and spreads any naming scheme evenly.
    public static func of(_ list: String) -> Int {
        let digest = SHA256.digest(Array(list.utf8))
        let prefix = digest.prefix(8).reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        return Int(prefix % UInt64(count))
    }
}

/// Byte-wise (UTF-8) string ordering, the tie-break order of the contract.
///
/// Why not `<`: Swift compares strings by canonical equivalence of Unicode scalars, which
/// differs from byte order for non-normalised input; the contract (and SQLite's BINARY
/// collation, which the store sorts with) is byte-wise.
public enum Bytewise {
    /// Whether `a` sorts before `b` comparing `a.utf8` and `b.utf8` lexicographically.
    @inlinable
    public static func less(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// Whether `a` and `b` hold the same UTF-8 bytes (not merely canonically equivalent text).
    ///
    /// Why not `a.utf8.elementsEqual(b.utf8)`: that steps through both views one byte at a time in
    /// generic code, a measurable share of checking a token's list on every read (perf).
    @inlinable
    public static func equal(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && compare(a, b) == 0
    }

    /// -1, 0 or 1 as `a` sorts before, equal to or after `b` byte-wise.
    @inlinable
    public static func compare(_ a: String, _ b: String) -> Int {
        let fast = a.utf8.withContiguousStorageIfAvailable { pa in
            b.utf8.withContiguousStorageIfAvailable { pb in compareBytes(pa, pb) }
        }
        if let fast, let result = fast { return result }
        if a.utf8.elementsEqual(b.utf8) { return 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
    }

    @inlinable
    static func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = Swift.min(a.count, b.count)
        var index = 0
        while index < common {
            let x = a[index]
            let y = b[index]
            if x != y { return x < y ? -1 : 1 }
            index += 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}

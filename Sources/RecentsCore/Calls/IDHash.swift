/// A fast seeded hash for the diff's id table.
///
/// Why not `hashValue`: SipHash costs ~250 instructions per short id, which was most of the
/// general diff. String ids get a multiply-mix hash over 8-byte chunks (the wyhash idea),
/// seeded randomly per process so crafted ids cannot force collisions; other ids use `hashValue`.
@usableFromInline
enum IDHash {
    /// The per-process seed.
    @usableFromInline
    static let seed: UInt64 = UInt64.random(in: UInt64.min...UInt64.max) | 1

    /// The hash of `id` under `seed`.
    @inlinable
    static func hash<ID: Hashable>(_ id: ID, seed: UInt64) -> Int {
        if let text = id as? String, let value = string(text, seed: seed) { return value }
        return id.hashValue
    }

    @inlinable
    static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// The hash of a string's UTF-8 bytes, or nil when they are not contiguous in memory.
    @inlinable
    static func string(_ text: String, seed: UInt64) -> Int? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            let raw = UnsafeRawBufferPointer(bytes)
            var state = seed ^ (UInt64(raw.count) &* 0x9E37_79B9_7F4A_7C15)
            var offset = 0
            while offset + 8 <= raw.count {
                let chunk = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                state = mix(state ^ chunk, 0xA076_1D64_78BD_642F)
                offset += 8
            }
            if offset < raw.count {
                var tail: UInt64 = 0
                var shift: UInt64 = 0
                while offset < raw.count {
                    tail |= UInt64(raw[offset]) << shift
                    shift += 8
                    offset += 1
                }
                state = mix(state ^ tail, 0xE703_7ED1_A0B4_28DB)
            }
            return Int(bitPattern: UInt(truncatingIfNeeded: mix(state, 0x8EBC_6AF0_9C88_C6E3)))
        }
    }
}

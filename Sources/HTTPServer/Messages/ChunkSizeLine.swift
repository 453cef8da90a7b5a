/// Calls `body` with the chunk-size line of `size` (≥ 0): lower-case hex digits, then CRLF
/// (RFC 9112 §7.1), in a buffer on the stack, so a chunk sent on thousands of streams allocates
/// nothing for it.
func withChunkSizeLine<R>(_ size: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    // 16 hex digits hold any Int; 2 more for CRLF.
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 18) { buffer in
        var shift = (Int.bitWidth - size.leadingZeroBitCount + 3) / 4 * 4 - 4
        if shift < 0 { shift = 0 }
        var count = 0
        while shift >= 0 {
            let nibble = UInt8(truncatingIfNeeded: (size >> shift) & 0xF)
            buffer[count] = nibble < 10 ? nibble + 0x30 : nibble + 0x57
            count += 1
            shift -= 4
        }
        buffer[count] = 0x0D
        buffer[count + 1] = 0x0A
        return try body(UnsafeBufferPointer(rebasing: buffer[0..<count + 2]))
    }
}

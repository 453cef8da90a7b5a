/// Appends `value` (≥ 0) in lower-case hexadecimal ASCII (chunk sizes, RFC 9112 §7.1).
func appendHex(_ value: Int, to out: inout [UInt8]) {
    var shift = (Int.bitWidth - value.leadingZeroBitCount + 3) / 4 * 4 - 4
    if shift < 0 { shift = 0 }
    while shift >= 0 {
        let nibble = UInt8(truncatingIfNeeded: (value >> shift) & 0xF)
        out.append(nibble < 10 ? nibble + 0x30 : nibble + 0x57)
        shift -= 4
    }
}

/// Appends `value` (≥ 0) in decimal ASCII, without building a String (hot path: every response).
@inline(__always) func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    if value < 10 {
        out.append(UInt8(truncatingIfNeeded: value) + 0x30)
        return
    }
    var digits:
        (
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
        ) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var v = value
    var count = 0
    withUnsafeMutableBytes(of: &digits) { d in
        while v > 0 {
            d[count] = UInt8(truncatingIfNeeded: v % 10) + 0x30
            v /= 10
            count += 1
        }
        while count > 0 {
            count -= 1
            out.append(d[count])
        }
    }
}

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

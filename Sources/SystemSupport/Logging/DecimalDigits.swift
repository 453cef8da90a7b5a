/// Appends the decimal digits of `value` (after a `-` when it is negative) to `bytes`.
///
/// The one integer formatter of the server's byte output (JSON bodies, status lines, headers,
/// the access log): `String(value)` allocates, and these run for every field of every answer.
@inlinable
public func appendDecimal<I: BinaryInteger>(_ value: I, to bytes: inout [UInt8]) {
    if value == 0 {
        bytes.append(UInt8(ascii: "0"))
        return
    }
    var magnitude = value.magnitude
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    // Digits are produced last first into a fixed buffer (enough for any 64-bit value), then copied in order.
    var digits:
        (
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
        ) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
        while magnitude > 0 {
            buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            count += 1
        }
        for position in stride(from: count - 1, through: 0, by: -1) {
            bytes.append(buffer[position])
        }
    }
}

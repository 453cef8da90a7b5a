/// Base64url (RFC 4648 §5) without padding, the encoding of every JWS compact segment
/// (RFC 7515 §2), decoded strictly.
///
/// Strict means one spelling per byte string: only `A-Z a-z 0-9 - _`, no `=`, no `+` or `/`,
/// no whitespace, no length that leaves a lone 6-bit group, and the unused low bits of the
/// last character must be zero (RFC 4648 §3.5). Without the last rule a signature could be
/// rewritten into a different string that still verifies, and a token would have several
/// spellings that compare unequal.
///
/// The one home of the codec: JWS segments and JWK members (RFC 7517 §2, RFC 7518 §6.2-§6.3) are both
/// base64url, and key parsing lives here. RecentsAPI/Auth still holds an identical copy until it
/// is deleted in favour of this one.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// 0...63 for each alphabet byte, 0xFF for every other byte.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// The unpadded base64url text of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            if second != nil { output.append(alphabet[Int(group >> 6 & 0x3F)]) }
            if third != nil { output.append(alphabet[Int(group & 0x3F)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` spells, or nil unless it is canonical unpadded base64url.
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        // Callers in other modules get this generic unspecialised, stepping through the text by
        // witness calls: an RS256 token's segments cost ~30 µs that way. One call for the buffer
        // and a plain loop over it cost a few hundred nanoseconds.
        if let decoded = text.withContiguousStorageIfAvailable(decodeContiguous) { return decoded }
        return Array(text).withUnsafeBufferPointer(decodeContiguous)
    }

    private static func decodeContiguous(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let count = text.count
        // A final group of one character carries only 6 bits: no byte string encodes to it.
        guard count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(count * 3 / 4)
        var group: UInt32 = 0
        var filled = 0
        for byte in text {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            group = group << 6 | UInt32(value)
            filled += 1
            if filled == 4 {
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                group = 0
                filled = 0
            }
        }
        switch filled {
        case 2:
            guard group & 0x0F == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            guard group & 0x03 == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        default:
            break
        }
        return output
    }
}

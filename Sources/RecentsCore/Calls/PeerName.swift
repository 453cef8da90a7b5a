/// The rules of a peer's display name, the one free text a call carries (issue 38): shown in
/// every client's row, so it must be something to show, and bounded in bytes as well as characters.
public enum PeerName {
    /// Why `name` is not a valid peer name, or nil when it is.
    ///
    /// Control characters (Unicode's Cc: U+0000–U+001F, U+007F–U+009F, NUL included) are refused
    /// anywhere in it: they draw nothing, and a NUL cuts the name short in C-string code. So is a
    /// name of only whitespace (Unicode's White_Space, and U+FEFF, an invisible one too): a row
    /// without a visible name.
    public static func problem(_ name: String) -> String? {
        let utf8 = name.utf8
        guard utf8.count <= Call.peerNameMaximumBytes, Call.peerNameLengthRange.contains(name.count) else {
            return "must be 1 to 256 characters and at most 1024 bytes"
        }
        if hasControlCharacter(utf8) { return "must not hold control characters" }
        if name.unicodeScalars.allSatisfy(isBlank) { return "must not be only whitespace" }
        return nil
    }

    /// Whether `utf8` holds a C0 or C1 control character or DEL: bytes 0x00–0x1F and 0x7F, and the
    /// pairs C2 80–C2 9F (U+0080–U+009F). A continuation byte never equals a lead byte, so a
    /// byte-wise scan cannot misread the middle of another character.
    static func hasControlCharacter(_ utf8: String.UTF8View) -> Bool {
        var afterC2 = false
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F || (afterC2 && byte <= 0x9F) { return true }
            afterC2 = byte == 0xC2
        }
        return false
    }

    /// Whether `scalar` draws nothing on its own: White_Space, or U+FEFF.
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "\u{FEFF}"
    }
}

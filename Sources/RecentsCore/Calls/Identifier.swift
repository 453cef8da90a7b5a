/// The alphabets of list names and ids (contract section 0).
public enum Identifier {
    /// What a list name (and a peer id) must look like, for error messages.
    public static let listNameRule = "must be 1 to 64 characters of A-Z a-z 0-9 . _ -"
    /// What a call or row id must look like, for error messages.
    public static let idRule = "must be 1 to 128 characters of A-Z a-z 0-9 . _ : -"

    // Inlinable, with the check below: every request checks names and ids, and a generic
    // function called from another module runs unspecialized, iterating its bytes through
    // generic witnesses (perf of the PostgreSQL writer: 4% of its thread in `isValidId`).

    /// A list name or peer id: 1 to 64 characters of `[A-Za-z0-9._-]`.
    @inlinable public static func isValidListName(_ name: some StringProtocol) -> Bool {
        isValid(name.utf8, maxLength: 64, allowColon: false)
    }

    /// A call or row id: 1 to 128 characters of `[A-Za-z0-9._:-]`.
    @inlinable public static func isValidId(_ id: some StringProtocol) -> Bool {
        isValid(id.utf8, maxLength: 128, allowColon: true)
    }

    /// Whether `bytes` are 1 to `maxLength` of the id alphabet (with `:` when `allowColon`).
    @inlinable static func isValid(_ bytes: some Collection<UInt8>, maxLength: Int, allowColon: Bool) -> Bool {
        var count = 0
        for byte in bytes {
            count += 1
            if count > maxLength { return false }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                continue
            case UInt8(ascii: ":") where allowColon:
                continue
            default:
                return false
            }
        }
        return count > 0
    }
}

/// What a token may do: the words of its `scope` claim this service understands.
///
/// The claim is space-separated words (RFC 8693 §4.2, with RFC 6749 §3.3's grammar). Words
/// other than `read`, `write` and `admin` are ignored, as an OAuth resource server ignores
/// scopes meant for other services: an unknown word grants nothing by itself. A claim naming
/// none of the three reads as an absent one (`TokenClaims.read`: read and write on the token's
/// own list), for HS256 and providers' tokens alike. A claim that breaks the grammar (empty, a
/// doubled or edge space, a character outside `%x21 / %x23-5B / %x5D-7E`) rejects the token.
public struct TokenScope: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits: read, write, admin.
    public let rawValue: UInt8

    /// A scope from its bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// `read`: GET and HEAD on the token's list, its long-poll and its event stream.
    public static let read = TokenScope(rawValue: 1)
    /// `write`: every other method on the token's list.
    public static let write = TokenScope(rawValue: 2)
    /// `admin`: read and write on every list, and `/metrics`.
    public static let admin = TokenScope(rawValue: 4)

    /// What a token without a `scope` claim may do (issue 10): `read write`.
    public static let absentClaim: TokenScope = [.read, .write]

    private static let words: [(String, TokenScope)] = [("read", .read), ("write", .write), ("admin", .admin)]

    /// The scope a `scope` claim names, or nil when the claim is not well-formed.
    public init?(claim: some StringProtocol) {
        var scope = TokenScope()
        var word: [UInt8] = []
        var sawAny = false
        for byte in claim.utf8 {
            if byte == UInt8(ascii: " ") {
                guard !word.isEmpty else { return nil }
                scope.formUnion(Self.scope(of: word))
                word.removeAll(keepingCapacity: true)
                continue
            }
            // scope-token = 1*( %x21 / %x23-5B / %x5D-7E ): printable ASCII but `"` and `\`.
            guard byte >= 0x21, byte <= 0x7E, byte != 0x22, byte != 0x5C else { return nil }
            word.append(byte)
            sawAny = true
        }
        guard sawAny, !word.isEmpty else { return nil }
        scope.formUnion(Self.scope(of: word))
        self = scope
    }

    private static func scope(of word: [UInt8]) -> TokenScope {
        for (name, scope) in words where name.utf8.elementsEqual(word) { return scope }
        return []
    }

    /// The known words, in the order read, write, admin (the claim `JWTSigner` writes).
    public var description: String {
        Self.words.filter { contains($0.1) }.map(\.0).joined(separator: " ")
    }

    /// Whether the token may read lists (its own, or every list with `admin`).
    public var allowsRead: Bool { contains(.read) || contains(.admin) }

    /// Whether the token may write lists (its own, or every list with `admin`).
    public var allowsWrite: Bool { contains(.write) || contains(.admin) }
}

import RecentsCrypto

/// The public keys of a JSON Web Key Set (RFC 7517 §5) by `kid`: what an identity provider
/// publishes and `--auth-jwks` names. Immutable; a rotation makes a new set.
public struct KeySet: Sendable {
    /// One key of the set, with what tells it apart from a key published later under the same `kid`.
    public struct Entry: Sendable {
        /// The key, checked by `JWK`'s rules.
        public let jwk: JWK
        /// The members that make the key (`kty`, `alg`, `n`, `e`, `crv`, `x`, `y`), joined: equal
        /// fingerprints are the same key, so a reload keeps its `PublicKey` and the tokens cached with it.
        let fingerprint: String
    }

    /// The keys by `kid`.
    public let entries: [String: Entry]
    /// The `kid`s of keys left out because they are not meant for signatures (`use` other than
    /// `sig`, such as the encryption key Keycloak publishes beside its signing keys).
    public let skipped: [String]

    /// A set of `entries`, none sharing a `kid`.
    /// - Throws: `KeySetError` for an empty set or a `kid` used twice.
    init(entries: [Entry], skipped: [String]) throws(KeySetError) {
        var byKid: [String: Entry] = [:]
        for entry in entries {
            // RFC 7517 §4.5: kids are meant to tell keys apart; two keys under one kid would let
            // the set's order decide which one a token is checked with.
            guard byKid.updateValue(entry, forKey: entry.jwk.kid) == nil else {
                throw KeySetError(description: "two keys have kid \"\(entry.jwk.kid)\"; each kid must name one key")
            }
        }
        guard !byKid.isEmpty else {
            throw KeySetError(
                description: skipped.isEmpty
                    ? "the key set has no keys"
                    : "the key set has no signature keys (only \(skipped.joined(separator: ", ")))")
        }
        self.entries = byKid
        self.skipped = skipped
    }

    /// The key `kid` names, or nil.
    public func key(_ kid: String) -> JWK? { entries[kid]?.jwk }

    /// The `kid`s of the set, sorted (for log lines).
    public var kids: [String] { entries.keys.sorted() }

    /// This set, where a key is the same as one of `previous` (same `kid`, same members), holding
    /// `previous`'s key object: tokens cached as verified by it stay honoured across a reload.
    func reusingKeys(of previous: KeySet) -> KeySet {
        var entries = self.entries
        for (kid, entry) in entries {
            if let old = previous.entries[kid], old.fingerprint == entry.fingerprint { entries[kid] = old }
        }
        return KeySet(checked: entries, skipped: skipped)
    }

    private init(checked entries: [String: Entry], skipped: [String]) {
        self.entries = entries
        self.skipped = skipped
    }
}

/// Why a key set could not be used; its description names the key and the member at fault.
public struct KeySetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and where.
    public let description: String

    /// An error saying `description`.
    public init(description: String) {
        self.description = description
    }
}
